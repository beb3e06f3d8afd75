import Foundation
import Testing

@testable import PassSandbox

/// Feeds `input` to a fresh parser in one piece and collects events until it needs
/// more bytes or fails.
private func parseAll(_ input: [UInt8], maxHeaderBytes: Int = 32 << 10, maxRequestBytes: Int = 1 << 20) -> (
    requests: [HTTPParsedRequest], error: HTTPParseError?
) {
    var parser = HTTPRequestParser(maxHeaderBytes: maxHeaderBytes, maxRequestBytes: maxRequestBytes)
    parser.append(input)
    var requests: [HTTPParsedRequest] = []
    while true {
        switch parser.nextEvent() {
        case .request(let request): requests.append(request)
        case .failure(let error): return (requests, error)
        case .needMoreBytes: return (requests, nil)
        }
    }
}

private func parseAll(_ text: String, maxHeaderBytes: Int = 32 << 10, maxRequestBytes: Int = 1 << 20) -> (
    requests: [HTTPParsedRequest], error: HTTPParseError?
) {
    parseAll(Array(text.utf8), maxHeaderBytes: maxHeaderBytes, maxRequestBytes: maxRequestBytes)
}

/// SplitMix64: a small seeded generator so random cases replay identically.
struct HTTPSeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    @Test func parsesRequestLineHeadersAndQuery() throws {
        let result = parseAll(
            "GET /api/v2/REF30/sessions?a=1&b=x%20y&c=p+q HTTP/1.1\r\nHost: localhost\r\nX-Trim: \t value \t\r\nAccept: */*\r\n\r\n"
        )
        #expect(result.error == nil)
        let request = try #require(result.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/api/v2/REF30/sessions?a=1&b=x%20y&c=p+q")
        #expect(request.minorVersion == 1)
        #expect(request.headers.map(\.name) == ["Host", "X-Trim", "Accept"])
        try #require(request.headers.count == 3)
        #expect(request.headers[1].value == "value")
        #expect(request.body.isEmpty)
        let sandbox = request.sandboxRequest
        #expect(sandbox.path == "/api/v2/REF30/sessions")
        #expect(sandbox.queryValue("b") == "x y")
        #expect(sandbox.queryValue("c") == "p q")
        #expect(sandbox.header("host") == "localhost")
    }

    @Test func acceptsBareLineFeedsAndSkipsLeadingEmptyLines() throws {
        let result = parseAll("\r\n\nPOST /x HTTP/1.0\nContent-Length: 3\n\nabc")
        let request = try #require(result.requests.first)
        #expect(result.error == nil)
        #expect(request.method == "POST")
        #expect(request.minorVersion == 0)
        #expect(request.body == Array("abc".utf8))
    }

    @Test func readsBodyDeliveredOneByteAtATime() throws {
        let input = Array("POST /form HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world".utf8)
        var parser = HTTPRequestParser(maxHeaderBytes: 1024, maxRequestBytes: 4096)
        var phases: [HTTPRequestParser.Phase] = [parser.phase]
        var received: HTTPParsedRequest?
        for byte in input {
            parser.append([byte])
            switch parser.nextEvent() {
            case .request(let request): received = request
            case .failure(let error): Issue.record("unexpected \(error)")
            case .needMoreBytes: if phases.last != parser.phase { phases.append(parser.phase) }
            }
        }
        #expect(received?.body == Array("hello world".utf8))
        #expect(phases == [.awaitingRequest, .readingHead, .readingBody])
        #expect(parser.phase == .awaitingRequest)
    }

    @Test func splitsPipelinedRequestsInOrder() throws {
        let result = parseAll(
            "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nokGET /3 HTTP/1.1\r\nHost: h\r\n\r\nGET /4 HT"
        )
        #expect(result.error == nil)
        #expect(result.requests.map(\.target) == ["/1", "/2", "/3"])
        try #require(result.requests.count == 3)
        #expect(result.requests[1].body == Array("ok".utf8))
    }

    @Test func sameRequestsWhateverTheSplitPoints() {
        let input = Array(
            "POST /a?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nX: y\r\n\r\n12345GET /b HTTP/1.1\r\nHost: h\r\n\r\n"
                .utf8)
        let whole = parseAll(input).requests
        #expect(whole.count == 2)
        for split in 1..<input.count {
            var parser = HTTPRequestParser(maxHeaderBytes: 1024, maxRequestBytes: 4096)
            var requests: [HTTPParsedRequest] = []
            for part in [input[..<split], input[split...]] {
                parser.append(part)
                while case .request(let request) = parser.nextEvent() { requests.append(request) }
            }
            #expect(requests.map(\.target) == whole.map(\.target), "split at \(split)")
            #expect(requests.map(\.body) == whole.map(\.body), "split at \(split)")
        }
    }

    @Test func reducesAbsoluteFormToOriginForm() {
        #expect(
            parseAll("GET http://example.com:80/p?q=1 HTTP/1.1\r\nHost: h\r\n\r\n").requests.first?.target == "/p?q=1")
        #expect(parseAll("GET http://example.com HTTP/1.1\r\nHost: h\r\n\r\n").requests.first?.target == "/")
        #expect(parseAll("GET https://example.com?q=1 HTTP/1.1\r\nHost: h\r\n\r\n").requests.first?.target == "/?q=1")
        #expect(parseAll("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n").requests.first?.target == "*")
    }

    @Test(arguments: [
        "GET / HTTP/1.1 extra\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET /\r\n\r\n",
        "GET\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET / HTTX/1.1\r\n\r\n",
        "GET / HTTP/1.10\r\n\r\n",
        "GET / http/1.1\r\n\r\n",
        "GET nopath HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET * HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET /\u{7F} HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nName : x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\n: empty name\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nA: b\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nA: b\u{00}c\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nA: b\rc\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1 2\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +5\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
    ])
    func refusesMalformedHeadsWith400(_ text: String) {
        let result = parseAll(text)
        #expect(result.requests.isEmpty)
        guard case .badRequest = result.error else {
            Issue.record("expected 400 for \(text.debugDescription), got \(String(describing: result.error))")
            return
        }
        #expect(result.error?.status == 400)
    }

    @Test func acceptsRepeatedEqualContentLengths() {
        let result = parseAll("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\nab")
        #expect(result.error == nil)
        #expect(result.requests.first?.body == Array("ab".utf8))
    }

    @Test func refusesOtherVersionsWith505() {
        for version in ["HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "HTTP/3.0"] {
            #expect(parseAll("GET / \(version)\r\n\r\n").error == .versionNotSupported, "\(version)")
        }
        #expect(HTTPParseError.versionNotSupported.status == 505)
    }

    @Test func decodesChunkedBodiesDropsTrailersAndReadsOn() throws {
        let chunked =
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n6;name=value\r\n world\r\n000\r\nX-Checksum: 1\r\n\r\n"
        let result = parseAll(chunked + "GET /next HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(result.error == nil)
        try #require(result.requests.count == 2)
        #expect(result.requests[0].body == Array("hello world".utf8))
        #expect(result.requests[1].target == "/next")
        // Upper-case hex digits, bare line feeds and an empty body.
        #expect(
            parseAll("POST / HTTP/1.1\nHost: h\nTransfer-Encoding: Chunked\n\nA\n0123456789\n0\n\n").requests.first?
                .body == Array("0123456789".utf8))
        #expect(
            parseAll("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").requests.first?.body
                == [])
    }

    @Test func decodesTheSameChunkedBodyWhateverTheSplitPoints() {
        let input = Array(
            "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x\r\nde\r\n0\r\nT: 1\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n"
                .utf8)
        for split in 1..<input.count {
            var parser = HTTPRequestParser(maxHeaderBytes: 1024, maxRequestBytes: 4096)
            var requests: [HTTPParsedRequest] = []
            for piece in [input[..<split], input[split...]] {
                parser.append(piece)
                while case .request(let request) = parser.nextEvent() { requests.append(request) }
            }
            #expect(requests.map(\.target) == ["/a", "/b"], "split at \(split)")
            #expect(requests.first?.body == Array("abcde".utf8), "split at \(split)")
        }
    }

    @Test(arguments: [
        // Framing RFC 9112 forbids or cannot read: 400.
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nno colon\r\n\r\n", 400),
        // A coding the server does not decode: 501.
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        // Too large: 413 as soon as a chunk size says so.
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n", 413),
    ])
    func refusesChunkedFramingItCannotRead(text: String, status: Int) {
        let result = parseAll(text, maxRequestBytes: 1024)
        #expect(result.error?.status == status, "\(text.debugDescription): \(String(describing: result.error))")
        #expect(result.requests.isEmpty)
    }

    @Test func boundsChunkedBodiesAndTrailers() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        // Many small chunks that add up past the limit.
        let chunks = String(repeating: "10\r\n" + String(repeating: "x", count: 16) + "\r\n", count: 100)
        #expect(parseAll(head + chunks, maxRequestBytes: 1024).error == .requestTooLarge)
        // A trailer section that never ends.
        let trailers = "0\r\n" + String(repeating: "X-T: " + String(repeating: "t", count: 50) + "\r\n", count: 40)
        #expect(parseAll(head + trailers, maxHeaderBytes: 1024).error == .headerTooLarge)
        // A chunk-size line that never ends.
        #expect(parseAll(head + "5;" + String(repeating: "e", count: 5000)).error?.status == 400)
        #expect(HTTPParseError.transferCodingNotImplemented("gzip").message.contains("gzip"))
    }

    @Test func requiresExactlyOneValidHostInHTTP11() {
        #expect(parseAll("GET / HTTP/1.1\r\n\r\n").error?.status == 400)
        #expect(parseAll("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").error?.status == 400)
        #expect(parseAll("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n").error?.status == 400)
        #expect(parseAll("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n").error?.status == 400)
        #expect(parseAll("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n").requests.count == 1)
        #expect(parseAll("GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n").requests.count == 1)
        #expect(parseAll("GET / HTTP/1.1\r\nHost:\r\n\r\n").requests.count == 1, "an empty Host is allowed")
        #expect(parseAll("GET / HTTP/1.0\r\n\r\n").requests.count == 1, "HTTP/1.0 needs no Host")
        if case .badRequest(let reason)? = parseAll("GET / HTTP/1.1\r\n\r\n").error {
            #expect(reason.contains("Host"))
        } else {
            Issue.record("a missing Host is a 400")
        }
    }

    @Test func refusesExpectationsOtherThanContinue() {
        #expect(
            parseAll("POST / HTTP/1.1\r\nHost: h\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx").error
                == .expectationFailed("200-ok"))
        #expect(HTTPParseError.expectationFailed("x").status == 417)
        // HTTP/1.0 ignores Expect (RFC 9110 §10.1.1); the continue expectation is any case.
        #expect(parseAll("POST / HTTP/1.0\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx").requests.count == 1)
        #expect(
            parseAll("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx").requests.count
                == 1)
    }

    @Test func refusesOversizedHeadBeforeItEnds() {
        var parser = HTTPRequestParser(maxHeaderBytes: 100, maxRequestBytes: 10_000)
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\nX: ".utf8))
        guard case .needMoreBytes = parser.nextEvent() else { Issue.record("should wait"); return }
        parser.append([UInt8](repeating: UInt8(ascii: "a"), count: 100))
        guard case .failure(.headerTooLarge) = parser.nextEvent() else { Issue.record("expected 431"); return }
        #expect(HTTPParseError.headerTooLarge.status == 431)
    }

    @Test func refusesCompleteHeadOverTheLimit() {
        let head = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 90) + "\r\n\r\n"
        #expect(parseAll(head, maxHeaderBytes: 100).error == .headerTooLarge)
        #expect(parseAll(head, maxHeaderBytes: head.utf8.count).error == nil)
    }

    @Test func refusesOversizedRequestBeforeReadingItsBody() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n"
        #expect(parseAll(head, maxRequestBytes: 500).error == .requestTooLarge)
        // Exactly at the limit is fine.
        let fitting = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n"
        let atLimit = parseAll(fitting + "0123456789", maxRequestBytes: fitting.utf8.count + 10)
        #expect(atLimit.error == nil)
        #expect(atLimit.requests.count == 1)
        #expect(parseAll(fitting, maxRequestBytes: fitting.utf8.count + 9).error == .requestTooLarge)
        #expect(
            parseAll("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n").error
                == .requestTooLarge)
        #expect(HTTPParseError.requestTooLarge.status == 413)
    }

    @Test func staysFailedAfterAnError() {
        var parser = HTTPRequestParser(maxHeaderBytes: 1024, maxRequestBytes: 4096)
        parser.append(Array("BAD\r\n\r\n".utf8))
        guard case .failure = parser.nextEvent() else { Issue.record("expected failure"); return }
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        guard case .failure = parser.nextEvent() else { Issue.record("expected the failure to stick"); return }
    }

    @Test func owesContinueOnlyToHTTP11BodiesThatExpectIt() {
        func owes(_ head: String) -> Bool {
            var parser = HTTPRequestParser(maxHeaderBytes: 1024, maxRequestBytes: 4096)
            parser.append(Array(head.utf8))
            _ = parser.nextEvent()
            return parser.awaitsContinue
        }
        #expect(owes("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"))
        #expect(!owes("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\n"))
        #expect(!owes("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"))
        #expect(!owes("GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n"))
        #expect(owes("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"))
        // A client that did not wait and sent (part of) its body gets no 100.
        #expect(!owes("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nda"))

        var parser = HTTPRequestParser(maxHeaderBytes: 1024, maxRequestBytes: 4096)
        parser.append(Array("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n".utf8))
        _ = parser.nextEvent()
        parser.continueSent()
        #expect(!parser.awaitsContinue)
    }

    @Test func decidesKeepAliveFromVersionAndConnectionField() throws {
        func keepAlive(_ text: String) throws -> Bool {
            try #require(parseAll(text).requests.first).wantsKeepAlive
        }
        #expect(try keepAlive("GET / HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(try !keepAlive("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"))
        #expect(try !keepAlive("GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, CLOSE\r\n\r\n"))
        #expect(try !keepAlive("GET / HTTP/1.0\r\n\r\n"))
        #expect(try keepAlive("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"))
    }

    /// Random bytes, and valid requests with random mutations, fed in random pieces:
    /// the parser never traps, and whatever it returns is a request or a known error.
    @Test func survivesRandomInput() {
        var random = HTTPSeededGenerator(state: 0x5EED)
        let valids = [
            Array("POST /p?q=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbodyGET / HTTP/1.0\r\n\r\n".utf8),
            Array(
                "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4;e\r\nbody\r\n0\r\nT: 1\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"
                    .utf8),
        ]
        for _ in 0..<2000 {
            var input: [UInt8]
            let valid = valids.randomElement(using: &random)!
            if Bool.random(using: &random) {
                input = (0..<Int.random(in: 0...600, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            } else {
                input = valid
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let index = Int.random(in: 0..<input.count, using: &random)
                    let pick: [UInt8] = [0, 0x0A, 0x0D, 0x20, 0x3A, 0xFF, UInt8(ascii: "9")]
                    input[index] = pick.randomElement(using: &random)!
                }
            }
            var parser = HTTPRequestParser(maxHeaderBytes: 256, maxRequestBytes: 512)
            var offset = 0
            var failed = false
            while offset < input.count, !failed {
                let end = min(input.count, offset + Int.random(in: 1...64, using: &random))
                parser.append(input[offset..<end])
                offset = end
                drain: while true {
                    switch parser.nextEvent() {
                    case .request(let request):
                        #expect(request.target.hasPrefix("/") || request.target == "*")
                        #expect(request.body.count <= 512)
                    case .failure(let error):
                        #expect([400, 413, 417, 431, 501, 505].contains(error.status))
                        failed = true
                        break drain
                    case .needMoreBytes:
                        break drain
                    }
                }
                #expect(parser.bufferedByteCount <= 512 + 64)
            }
        }
    }
}

@Suite("HTTP response encoder")
struct HTTPResponseEncoderTests {
    private func text(_ response: SandboxResponse, keepAlive: Bool = true) -> String {
        String(
            decoding: HTTPResponseEncoder.encode(response, keepAlive: keepAlive, date: "Sun, 06 Nov 1994 08:49:37 GMT"),
            as: UTF8.self)
    }

    @Test func writesFramingFields() {
        let response = SandboxResponse(
            status: 201, headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
        #expect(
            text(response)
                == "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 2\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nConnection: keep-alive\r\n\r\n{}"
        )
        #expect(text(response, keepAlive: false).contains("\r\nConnection: close\r\n\r\n"))
    }

    @Test func replacesHandlerFramingAndDropsUnsafeFields() {
        let response = SandboxResponse(
            status: 200,
            headers: [
                ("Content-Length", "999"), ("Connection", "close"), ("Transfer-Encoding", "chunked"),
                ("X-Injected", "a\r\nSet-Cookie: evil"), ("Bad Name", "x"), ("X-Fine", "ok"),
            ], body: [1, 2, 3])
        let encoded = text(response)
        #expect(!encoded.contains("999"))
        #expect(!encoded.contains("chunked"))
        #expect(!encoded.contains("evil"))
        #expect(!encoded.contains("Bad Name"))
        #expect(encoded.contains("X-Fine: ok\r\n"))
        #expect(encoded.contains("Content-Length: 3\r\n"))
        #expect(encoded.components(separatedBy: "Connection:").count == 2)
        #expect(HTTPResponseEncoder.asksToClose(response))
    }

    @Test func omitsBodyForNoContentAndMapsInterimStatuses() {
        let noContent = text(SandboxResponse(status: 204, body: Array("ignored".utf8)))
        #expect(noContent.hasPrefix("HTTP/1.1 204 No Content\r\n"))
        #expect(!noContent.contains("Content-Length"))
        #expect(noContent.hasSuffix("\r\n\r\n"))
        #expect(text(SandboxResponse(status: 101)).hasPrefix("HTTP/1.1 500 "))
        #expect(text(SandboxResponse(status: 299)).hasPrefix("HTTP/1.1 299 Status\r\n"))
    }

    @Test func answersHeadWithoutTheBody() {
        let bytes = HTTPResponseEncoder.encode(
            SandboxResponse(status: 200, body: Array("12345".utf8)), keepAlive: true, omittingBody: true, date: "D")
        let encoded = String(decoding: bytes, as: UTF8.self)
        #expect(encoded.contains("Content-Length: 5\r\n"))
        #expect(encoded.hasSuffix("\r\n\r\n"))
    }

    @Test func formatsHTTPDates() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.now().hasSuffix(" GMT"))
    }
}
