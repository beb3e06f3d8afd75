import Foundation
import Testing

@testable import PassSandbox

@Suite("Loopback HTTP server: refusals, timeouts and hostile clients")
struct HTTPServerRobustnessTests {
    /// Sends `bytes` on a new connection and expects one refusal with `status`,
    /// `Connection: close` and a text body, then the end of the stream.
    private func expectRefusal(
        _ bytes: [UInt8], status: Int, port: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let client = try HTTPTestClient(port: port)
        client.send(bytes)
        let response = try #require(await client.readResponse(), sourceLocation: sourceLocation)
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true, sourceLocation: sourceLocation)
        #expect(!response.body.isEmpty, sourceLocation: sourceLocation)
        #expect(await client.readUntilClosed().closed, sourceLocation: sourceLocation)
    }

    /// The server still answers a plain request on a new connection.
    private func expectHealthy(port: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let client = try HTTPTestClient(port: port)
        client.send(httpGet("/health"))
        #expect(await client.readResponse()?.status == 200, sourceLocation: sourceLocation)
    }

    @Test func malformedRequestsGet400AndClose() async throws {
        try await withHTTPTestServer { _, port in
            for text in ["GARBAGE\r\n\r\n", "GET /a b c HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nNo colon here\r\n\r\n"] {
                try await expectRefusal(Array(text.utf8), status: 400, port: port)
            }
            try await expectHealthy(port: port)
        }
    }

    @Test func badContentLengthGets400() async throws {
        try await withHTTPTestServer { _, port in
            for value in ["abc", "-1", "1.5", "0x10"] {
                try await expectRefusal(
                    Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(value)\r\n\r\n".utf8), status: 400,
                    port: port)
            }
        }
    }

    @Test func oversizedBodyGets413() async throws {
        try await withHTTPTestServer(limits: .init(maxRequestBytes: 1024)) { _, port in
            let head = "POST /big HTTP/1.1\r\nHost: h\r\nContent-Length: 5000\r\n\r\n"
            try await expectRefusal(Array(head.utf8) + [UInt8](repeating: 0x41, count: 5000), status: 413, port: port)
            // A body that fits is still served on a fresh connection.
            let client = try HTTPTestClient(port: port)
            client.send(
                "POST /ok HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n" + String(repeating: "b", count: 100))
            #expect(await client.readResponse()?.status == 200)
        }
    }

    @Test func oversizedHeaderGets431() async throws {
        try await withHTTPTestServer(limits: .init(maxHeaderBytes: 1024)) { _, port in
            try await expectRefusal(
                Array(httpGet("/", ["X-Big: " + String(repeating: "h", count: 4000)]).utf8), status: 431, port: port)
            // A single line that never ends.
            try await expectRefusal(
                Array(("GET /" + String(repeating: "p", count: 4000)).utf8), status: 431, port: port)
            try await expectHealthy(port: port)
        }
    }

    @Test func unknownTransferCodingGets501AndOtherVersions505() async throws {
        try await withHTTPTestServer { _, port in
            try await expectRefusal(
                Array(
                    "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8
                ), status: 501, port: port)
            try await expectRefusal(Array("GET / HTTP/2.0\r\nHost: h\r\n\r\n".utf8), status: 505, port: port)
        }
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request without Host, or with two, is a 400; §6.1: a
    /// chunked body the length of which cannot be trusted (with Content-Length, or in
    /// HTTP/1.0) is a 400 too. Each ends the connection.
    @Test func missingHostAndAmbiguousFramingGet400AndClose() async throws {
        try await withHTTPTestServer { _, port in
            try await expectRefusal(Array("GET /no-host HTTP/1.1\r\nAccept: */*\r\n\r\n".utf8), status: 400, port: port)
            try await expectRefusal(Array("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8), status: 400, port: port)
            try await expectRefusal(
                Array(
                    "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                        .utf8), status: 400, port: port)
            try await expectRefusal(
                Array("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8), status: 400, port: port)
            try await expectHealthy(port: port)
        }
    }

    /// RFC 9110 §10.1.1: an expectation other than 100-continue may be refused with 417.
    @Test func unmetExpectationGets417() async throws {
        try await withHTTPTestServer { _, port in
            try await expectRefusal(
                Array("POST / HTTP/1.1\r\nHost: h\r\nExpect: 201-maybe\r\nContent-Length: 2\r\n\r\nok".utf8),
                status: 417, port: port)
            try await expectHealthy(port: port)
        }
    }

    @Test func oversizedChunkedBodyGets413() async throws {
        try await withHTTPTestServer(limits: .init(maxRequestBytes: 1024)) { _, port in
            let chunk = "100\r\n" + String(repeating: "c", count: 256) + "\r\n"
            try await expectRefusal(
                Array(
                    ("POST /big HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + String(repeating: chunk, count: 8)).utf8), status: 413, port: port)
            try await expectHealthy(port: port)
        }
    }

    @Test func slowHeadIsCutOffAtHeaderTimeout() async throws {
        try await withHTTPTestServer(limits: .init(headerTimeout: 0.3)) { _, port in
            let client = try HTTPTestClient(port: port)
            client.send("GET /slow HTTP/1.1\r\nHost: h\r\nX-Partial: ")
            let result = await client.readUntilClosed()
            #expect(result.closed)
            #expect(result.bytes.isEmpty)

            // A client that connects and says nothing is dropped too.
            let silent = try HTTPTestClient(port: port)
            #expect(await silent.readUntilClosed().closed)
            try await expectHealthy(port: port)
        }
    }

    @Test func idleKeepAliveConnectionIsClosed() async throws {
        try await withHTTPTestServer(limits: .init(idleTimeout: 0.3)) { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(httpGet("/"))
            #expect(await client.readResponse()?.status == 200)
            let result = await client.readUntilClosed()
            #expect(result.closed)
            #expect(result.bytes.isEmpty)
        }
    }

    @Test func slowBodyGets408AndClose() async throws {
        try await withHTTPTestServer(limits: .init(bodyTimeout: 0.3)) { _, port in
            let client = try HTTPTestClient(port: port)
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
            let response = try #require(await client.readResponse())
            #expect(response.status == 408)
            #expect(response.header("Connection") == "close")
            #expect(await client.readUntilClosed().closed)
        }
    }

    @Test func abandonedRequestsLeaveTheServerHealthy() async throws {
        let handler = HTTPTestHandler()
        try await withHTTPTestServer(handler: handler) { _, port in
            for partial in [
                "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nonly part of the body",
                "GET /half HTTP/1.1\r\nHo",
                "GET /gate HTTP/1.1\r\nHost: h\r\n\r\n",
            ] {
                let client = try HTTPTestClient(port: port)
                client.send(partial)
                client.close()
            }
            try await expectHealthy(port: port)
            await handler.gate.open()
        }
    }

    @Test func pipelinedRequestAfterAnErrorIsNotServed() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(httpGet("/ok") + "BROKEN LINE\r\n\r\n" + httpGet("/never"))
            #expect(await client.readResponse()?.header("X-Echo-Path") == "/ok")
            #expect(await client.readResponse()?.status == 400)
            #expect(await client.readResponse() == nil)
            #expect(await client.readUntilClosed().closed)
        }
    }

    /// A few hundred seeded random byte streams, some pure noise and some mangled
    /// requests: whatever the server sends back is a well-formed response, every
    /// connection ends, and the server still serves afterwards.
    @Test func randomGarbageNeverBreaksTheServer() async throws {
        try await withHTTPTestServer(
            limits: .init(maxRequestBytes: 4096, maxHeaderBytes: 1024, headerTimeout: 1, idleTimeout: 1, bodyTimeout: 1)
        ) { _, port in
            var random = HTTPSeededGenerator(state: 20_260_101)
            let template = Array(
                "POST /x?y=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
            for round in 0..<300 {
                var bytes: [UInt8]
                switch round % 3 {
                case 0:
                    bytes = (0..<Int.random(in: 1...3000, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }
                case 1:
                    let alphabet = Array("GET /HTTP1.0\r\n: \0\u{7F}".utf8)
                    bytes = (0..<Int.random(in: 1...400, using: &random)).map { _ in
                        alphabet.randomElement(using: &random)!
                    }
                default:
                    bytes = template
                    for _ in 0..<Int.random(in: 1...4, using: &random) {
                        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
                            in: 0...255, using: &random)
                    }
                }
                let client = try HTTPTestClient(port: port)
                client.send(bytes)
                if round % 5 == 0 {
                    client.close()  // leave at once
                    continue
                }
                client.finishSending()
                var responses = 0
                while let response = await client.readResponse() {
                    #expect((200...599).contains(response.status), "round \(round)")
                    responses += 1
                }
                let rest = await client.readUntilClosed()
                #expect(rest.closed, "round \(round): connection left open")
                #expect(rest.bytes.isEmpty, "round \(round): unframed bytes after \(responses) responses")
            }
            try await expectHealthy(port: port)
        }
    }
}
