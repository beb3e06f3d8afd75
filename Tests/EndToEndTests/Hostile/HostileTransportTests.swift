import Foundation
import Testing

@testable import AccessEnabler

/// The default transport (``CurlTransport``) against every hostile shape ``HostileHTTPServer``
/// serves: each request ends in exactly one outcome — the answer, or the failure the shape
/// is — and nothing traps.
@Suite(.timeLimit(.minutes(10)))
struct HostileTransportTests {
    static let body = Array(
        #"{"profiles":{"NotBoarded":{"notAfter":1767225600000,"attributes":{"userID":"alice"}}}}"#.utf8)

    /// One request with `X-Cut` saying where the server stops.
    private func send(
        _ transport: CurlTransport, _ server: HostileHTTPServer, path: String = "/api/v2/REF30/profiles",
        cut: Int? = nil, timeout: TimeInterval = 30,
        limit: Int? = nil
    ) async -> Result<HTTPResponseMessage, TransportFailure> {
        var headers = [("Accept", "application/json")]
        if let cut { headers.append(("X-Cut", "\(cut)")) }
        let request = HTTPRequestMessage(
            method: "GET", url: server.baseURL.appendingPathComponent(path), headers: headers,
            maximumResponseBodySize: limit)
        do {
            return .success(try await transport.send(request, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    /// A server that answers `full`, cut at the request's `X-Cut` offset and ended by `ending`.
    private func cuttingServer(_ full: [UInt8], ending: HostileHTTPServer.Ending) throws -> HostileHTTPServer {
        try HostileHTTPServer { request in
            guard let cut = request.header("X-Cut").flatMap(Int.init) else { return .init(full) }
            return .init(Array(full[..<min(cut, full.count)]), ending: ending)
        }
    }

    @Test(arguments: [HostileHTTPServer.Ending.close, .reset])
    func anAnswerCutAtEveryOffsetEndsInOneOutcome(ending: HostileHTTPServer.Ending) async throws {
        let full = HostileAnswers.plain(body: Self.body)
        let headLength = HostileAnswers.plain(body: []).count
        let server = try cuttingServer(full, ending: ending)
        defer { server.shutdown() }
        let transport = CurlTransport()
        var outcomes: [String: Int] = [:]
        for offset in 0...full.count {
            let result = await send(transport, server, cut: offset)
            switch result {
            case .success(let response):
                // Only the whole answer is an answer (a reset after its last byte may come too late to matter).
                #expect(offset == full.count, "a cut answer was taken as whole at \(offset)")
                #expect(response.status == 200 && Array(response.body) == Self.body)
            case .failure(let failure):
                #expect(offset < full.count || ending == .reset, "the whole answer failed: \(failure)")
                guard case .connectionLost = failure else {
                    Issue.record("at \(offset) of \(full.count) (head \(headLength)): \(failure), not connectionLost")
                    continue
                }
            }
            outcomes[Self.kind(result), default: 0] += 1
        }
        #expect(outcomes.values.reduce(0, +) == full.count + 1, "one outcome per offset: \(outcomes)")
        // The transport still works.
        #expect((try? await send(transport, server).get())?.status == 200)
    }

    @Test func aChunkedAnswerWithExtensionsAndTrailersIsRead() async throws {
        let server = try HostileHTTPServer { _ in
            .init(
                HostileAnswers.chunked(
                    body: Self.body, extensions: true,
                    trailers: [("Server-Timing", "db;dur=53"), ("X-Checksum", "abc")]))
        }
        defer { server.shutdown() }
        let transport = CurlTransport()
        for _ in 0..<3 {
            let response = try await send(transport, server).get()
            #expect(response.status == 200)
            #expect(Array(response.body) == Self.body)
            #expect(response.header("Server-Timing") == nil, "a trailer is not a header of the answer")
            #expect(response.header("Transfer-Encoding") == "chunked")
        }
        #expect(server.connections == 1, "the connection is kept alive after a chunked answer with trailers")
    }

    @Test func informationalAnswersBeforeTheAnswerAreSkipped() async throws {
        let server = try HostileHTTPServer { _ in
            .init(
                HostileAnswers.informational(
                    [100, 103, 103], before: HostileAnswers.plain(status: 201, body: Self.body)))
        }
        defer { server.shutdown() }
        let response = try await send(CurlTransport(), server).get()
        #expect(response.status == 201)
        #expect(response.header("Link") == nil)
        #expect(Array(response.body) == Self.body)
    }

    @Test func aBodyShorterThanItsLengthIsALostConnection() async throws {
        let declared = HostileAnswers.plain(
            headers: [("Content-Type", "application/json"), ("Content-Length", "500")], body: Self.body)
        let server = try HostileHTTPServer { _ in .init(declared, ending: .close) }
        defer { server.shutdown() }
        guard case .failure(.connectionLost) = await send(CurlTransport(), server) else {
            Issue.record("a short body was not a lost connection")
            return
        }
    }

    @Test func aBodyLongerThanItsLengthIsReadToItsLength() async throws {
        let declared = HostileAnswers.plain(
            headers: [("Content-Type", "application/json"), ("Content-Length", "10")], body: Self.body)
        let server = try HostileHTTPServer { _ in .init(declared) }
        defer { server.shutdown() }
        let transport = CurlTransport()
        let response = try await send(transport, server).get()
        #expect(Array(response.body) == Array(Self.body[..<10]))
        // The rest is not taken for the next answer: the connection is not reused.
        let next = try await send(transport, server).get()
        #expect(Array(next.body) == Array(Self.body[..<10]))
        #expect(server.connections == 2)
    }

    @Test func aGzipBodyIsDecodedAndCountedDecoded() async throws {
        let server = try HostileHTTPServer { _ in .init(HostileAnswers.gzip(body: Self.body)) }
        defer { server.shutdown() }
        let transport = CurlTransport()
        let response = try await send(transport, server).get()
        #expect(Array(response.body) == Self.body)
        #expect(server.requests.first?.header("Accept-Encoding")?.contains("gzip") == true, "compression is asked for")
        // The limit counts the decoded body: a gzip body small on the wire, large decoded, is refused.
        let bomb = try HostileHTTPServer { _ in
            .init(HostileAnswers.gzip(body: [UInt8](repeating: 0x20, count: 200_000)))
        }
        defer { bomb.shutdown() }
        guard case .failure(.responseTooLarge(100_000)) = await send(transport, bomb, limit: 100_000) else {
            Issue.record("a decoded body over the limit was read")
            return
        }
    }

    @Test func bytesThatAreNotUTF8InTheHeadAreKept() async throws {
        let head =
            Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Name: caf".utf8) + [0xE9, 0xFF] + Array("\r\n\r\n{}".utf8)
        let server = try HostileHTTPServer { _ in .init(head) }
        defer { server.shutdown() }
        let response = try await send(CurlTransport(), server).get()
        #expect(response.header("X-Name") == "caf\u{e9}\u{ff}")
    }

    @Test(arguments: [
        "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n", "hello\r\n\r\n",
        "\r\n\r\n",
    ])
    func aStatusLineThatIsNotHTTPIsALostConnection(answer: String) async throws {
        let server = try HostileHTTPServer { _ in .init(Array(answer.utf8), ending: .close) }
        defer { server.shutdown() }
        let result = await send(CurlTransport(), server)
        guard case .failure(.connectionLost) = result else {
            Issue.record("\(answer.debugDescription) gave \(result)")
            return
        }
    }

    @Test func aRedirectIsTheAnswer() async throws {
        let server = try HostileHTTPServer { _ in
            .init(HostileAnswers.plain(status: 302, headers: [("Location", "http://127.0.0.1:9/elsewhere")], body: []))
        }
        defer { server.shutdown() }
        let response = try await send(CurlTransport(), server).get()
        #expect(response.status == 302)
        #expect(response.header("Location") == "http://127.0.0.1:9/elsewhere")
        #expect(server.requests.count == 1)
    }

    @Test func keptAliveConnectionsAreReused() async throws {
        let server = try HostileHTTPServer { _ in .init(HostileAnswers.plain(body: Self.body)) }
        defer { server.shutdown() }
        let transport = CurlTransport()
        for _ in 0..<5 { #expect(try await send(transport, server).get().status == 200) }
        #expect(server.connections == 1)
    }

    /// A kept-alive connection that closes before a byte of the answer: libcurl repeats a
    /// request without a body on a new connection, and never one with a body (the server may
    /// have acted on it): that one fails as a lost connection.
    @Test(arguments: [HostileHTTPServer.Ending.close, .reset])
    func aRequestWithABodyIsNeverSentTwice(ending: HostileHTTPServer.Ending) async throws {
        let answer = HostileAnswers.plain(body: Self.body)
        let server = try HostileHTTPServer { request in
            request.header("X-Drop") == nil ? .init(answer) : .init([], ending: ending)
        }
        defer { server.shutdown() }
        let transport = CurlTransport()
        func request(_ method: String, body: Data?) -> HTTPRequestMessage {
            HTTPRequestMessage(
                method: method,
                url: server.baseURL.appendingPathComponent("api/v2/REF30/decisions/authorize/NotBoarded"),
                headers: [("X-Drop", "1")], body: body)
        }
        #expect(try await send(transport, server).get().status == 200)
        var result: Result<HTTPResponseMessage, TransportFailure>
        do {
            result = .success(try await transport.send(request("POST", body: Data("resources=news".utf8)), timeout: 30))
        } catch { result = .failure(error) }
        #expect(Self.kind(result) == "connectionLost", "\(result)")
        #expect(server.requests.map(\.method) == ["GET", "POST"], "the POST was sent once")

        #expect(try await send(transport, server).get().status == 200)
        do { result = .success(try await transport.send(request("GET", body: nil), timeout: 30)) } catch {
            result = .failure(error)
        }
        #expect(Self.kind(result) == "connectionLost", "the GET, repeated, met the same end: \(result)")
        #expect(server.requests.map(\.method) == ["GET", "POST", "GET", "GET", "GET"], "the GET was repeated once")
    }

    /// A server that reads the request and never answers: the request times out at its
    /// timeout, and its connection is closed by the client then (the handle is freed).
    @Test func aServerThatNeverAnswersTimesOutAndTheConnectionIsFreed() async throws {
        let server = try HostileHTTPServer { _ in .init([], ending: .hold) }
        defer { server.shutdown() }
        let transport = CurlTransport()
        let result = await send(transport, server, timeout: 0.5)
        #expect(Self.kind(result) == "timedOut", "\(result)")
        #expect(
            await Self.eventually { server.heldConnectionsClosedByTheClient == 1 },
            "the timed-out transfer's connection was closed")
    }

    @Test func aCancelledRequestEndsAtOnceAndItsConnectionIsFreed() async throws {
        let server = try HostileHTTPServer { _ in .init([], ending: .hold) }
        defer { server.shutdown() }
        let transport = CurlTransport()
        let call = Task { await send(transport, server, timeout: 600) }
        #expect(await Self.eventually { server.requests.count == 1 }, "the request reached the server")
        call.cancel()
        #expect(Self.kind(await call.value) == "cancelled")
        #expect(
            await Self.eventually { server.heldConnectionsClosedByTheClient == 1 },
            "the cancelled transfer's connection was closed")
        // The transport still works.
        let other = try HostileHTTPServer { _ in .init(HostileAnswers.plain(body: Self.body)) }
        defer { other.shutdown() }
        #expect((try? await send(transport, other).get())?.status == 200)
    }

    /// The outcome's case, for counting.
    static func kind(_ result: Result<HTTPResponseMessage, TransportFailure>) -> String {
        switch result {
        case .success(let response): "answer \(response.status)"
        case .failure(.timedOut): "timedOut"
        case .failure(.cannotConnect): "cannotConnect"
        case .failure(.connectionLost): "connectionLost"
        case .failure(.cancelled): "cancelled"
        case .failure(.responseTooLarge): "responseTooLarge"
        case .failure(.other): "other"
        }
    }

    /// Waits (bounded by progress, not by a timing verdict) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<6_000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
