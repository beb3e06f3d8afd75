import Foundation
import Testing

@testable import PassSandbox

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Loopback HTTP server: requests and connections")
struct HTTPServerTests {
    private func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        return URLSession(configuration: configuration)
    }

    @Test func getRoundTripDecodesQueryAndHeaders() async throws {
        try await withHTTPTestServer { server, port in
            let url = try #require(server.baseURL?.appendingPathComponent("api/v2/REF30/configuration"))
            #expect(server.baseURL?.absoluteString == "http://127.0.0.1:\(port)")
            #expect(server.port == port)
            var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            components.percentEncodedQuery = "deviceId=abc%20def&flag=a+b&empty="
            var request = URLRequest(url: try #require(components.url))
            request.setValue("custom-value", forHTTPHeaderField: "X-Custom")
            let (data, response) = try await session().data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "X-Echo-Path") == "/api/v2/REF30/configuration")
            #expect(http.value(forHTTPHeaderField: "Date")?.hasSuffix("GMT") == true)
            let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
            #expect(lines.contains("method GET"))
            #expect(lines.contains("path /api/v2/REF30/configuration"))
            #expect(lines.contains("query deviceId=abc def"))
            #expect(lines.contains("query flag=a b"))
            #expect(lines.contains("query empty="))
            #expect(lines.contains("header X-Custom: custom-value"))
        }
    }

    @Test func postRoundTripDeliversTheBody() async throws {
        try await withHTTPTestServer { server, _ in
            var request = URLRequest(url: try #require(server.baseURL?.appendingPathComponent("o/client/register")))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let payload = Data("{\"software_statement\":\"x\"}".utf8)
            request.httpBody = payload
            let (data, response) = try await session().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("method POST\n"))
            #expect(text.contains("header Content-Length: \(payload.count)\n"))
            #expect(text.hasSuffix("body\n{\"software_statement\":\"x\"}"))
        }
    }

    @Test func responsesCarryFramingFields() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(httpGet("/framing"))
            let response = try #require(await client.readResponse())
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("Connection") == "keep-alive")
            #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        }
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            for index in 0..<200 {
                #expect(client.send(httpGet("/n?i=\(index)")))
                let response = try #require(await client.readResponse(), "request \(index)")
                #expect(response.status == 200)
                #expect(response.header("Connection") == "keep-alive")
                #expect(response.text.contains("query i=\(index)\n"))
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            let batch =
                httpGet("/first") + "POST /second HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
                + httpGet("/third")
            client.send(batch)
            var responses: [HTTPTestResponse] = []
            for _ in 0..<3 {
                if let response = await client.readResponse() { responses.append(response) }
            }
            #expect(responses.map { $0.header("X-Echo-Path") } == ["/first", "/second", "/third"])
            try #require(responses.count == 3)
            #expect(responses[1].text.hasSuffix("body\nhello"))
        }
    }

    @Test func headGetsTheHeadOnlyAndTheConnectionStaysUsable() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send("HEAD /h HTTP/1.1\r\nHost: h\r\n\r\n" + httpGet("/after"))
            // The HEAD answer announces a body it does not send, so read its head by hand,
            // until the second answer's head is in (bounded at two minutes, which a loaded
            // machine meets; the loop ends as soon as the head is in).
            var bytes: [UInt8] = []
            for _ in 0..<600 where !String(decoding: bytes, as: UTF8.self).contains("X-Echo-Path: /after") {
                bytes += await client.readUntilClosed(timeout: 0.2).bytes
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let responses = text.components(separatedBy: "HTTP/1.1 200 OK\r\n")
            try #require(responses.count == 3)
            #expect(responses[1].hasSuffix("Connection: keep-alive\r\n\r\n"))
            #expect(text.contains("X-Echo-Path: /after"))
        }
    }

    @Test func expectContinueGets100BeforeTheBody() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send("POST /upload HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(await client.readResponse()?.status == 100)
            client.send("data")
            let response = await client.readResponse()
            #expect(response?.status == 200)
            #expect(response?.text.hasSuffix("body\ndata") == true)
        }
    }

    @Test func chunkedBodyIsDecodedAndTheConnectionStaysUsable() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send("POST /chunked HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n")
            client.send("5;note=x\r\npedia\r\n0\r\nX-Trailer: dropped\r\n\r\n")
            let response = try #require(await client.readResponse())
            #expect(response.status == 200)
            #expect(response.header("Connection") == "keep-alive")
            #expect(response.text.hasSuffix("body\nWikipedia"))
            #expect(!response.text.contains("X-Trailer"))
            client.send(httpGet("/after"))
            #expect(await client.readResponse()?.header("X-Echo-Path") == "/after")
        }
    }

    @Test func pipelinedChunkedAndLengthFramedRequestsAreAnsweredInOrder() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(
                "POST /one HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                    + "POST /two HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\ndef"
                    + "HEAD /three HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "POST /four HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\ng\r\n0\r\n\r\n"
            )
            let bytes = await client.readUntilClosed()
            #expect(bytes.closed, "Connection: close on the last request ends the connection")
            let text = String(decoding: bytes.bytes, as: UTF8.self)
            let paths = text.components(separatedBy: "X-Echo-Path: ").dropFirst().map {
                $0.components(separatedBy: "\r\n")[0]
            }
            #expect(paths == ["/one", "/two", "/three", "/four"])
            #expect(text.contains("body\nabc") && text.contains("body\ndef") && text.hasSuffix("body\ng"))
        }
    }

    @Test func expectContinueGets100BeforeAChunkedBody() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(
                "POST /upload HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n")
            #expect(await client.readResponse()?.status == 100)
            client.send("4\r\ndata\r\n0\r\n\r\n")
            let response = await client.readResponse()
            #expect(response?.status == 200)
            #expect(response?.text.hasSuffix("body\ndata") == true)
        }
    }

    @Test func expectContinueIsNotAnsweredWhenTheBodyCameAlong() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send("POST /eager HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\ndata")
            let response = await client.readResponse()
            #expect(response?.status == 200, "the final answer comes first; no interim 100")
            #expect(response?.text.hasSuffix("body\ndata") == true)
        }
    }

    /// A body of unknown length from a real client: URLSession streams it chunked.
    @Test func streamedUploadThroughURLSessionArrivesWhole() async throws {
        try await withHTTPTestServer { server, _ in
            var request = URLRequest(url: try #require(server.baseURL?.appendingPathComponent("stream")))
            request.httpMethod = "POST"
            let payload = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
            request.httpBodyStream = InputStream(data: payload)
            let (data, response) = try await session().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("header Transfer-Encoding: chunked"), "the upload was sent chunked")
            #expect(data.suffix(payload.count) == payload)
        }
    }

    @Test func largePostThroughURLSession() async throws {
        try await withHTTPTestServer { server, _ in
            var request = URLRequest(url: try #require(server.baseURL?.appendingPathComponent("large")))
            request.httpMethod = "POST"
            let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
            request.httpBody = payload
            let (data, response) = try await session().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(data.suffix(payload.count) == payload)
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(httpGet("/", ["Connection: close"]))
            let response = try #require(await client.readResponse())
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            let rest = await client.readUntilClosed()
            #expect(rest.closed)
            #expect(rest.bytes.isEmpty)
        }
    }

    @Test func handlerCanCloseTheConnection() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(httpGet("/close"))
            let response = try #require(await client.readResponse())
            #expect(response.text == "bye")
            #expect(response.header("Connection") == "close")
            #expect(await client.readUntilClosed().closed)
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() async throws {
        try await withHTTPTestServer { _, port in
            let plain = try HTTPTestClient(port: port)
            plain.send("GET /old HTTP/1.0\r\n\r\n")
            #expect(await plain.readResponse()?.header("Connection") == "close")
            #expect(await plain.readUntilClosed().closed)

            let kept = try HTTPTestClient(port: port)
            for _ in 0..<3 {
                kept.send("GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                #expect(await kept.readResponse()?.header("Connection") == "keep-alive")
            }
        }
    }

    @Test func dropConnectionClosesWithoutAByte() async throws {
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send(httpGet("/drop"))
            let result = await client.readUntilClosed()
            #expect(result.closed)
            #expect(result.bytes.isEmpty)
        }
    }

    @Test func slowHandlerDoesNotBlockOtherConnections() async throws {
        let handler = HTTPTestHandler()
        try await withHTTPTestServer(handler: handler) { _, port in
            let waiting = try HTTPTestClient(port: port)
            waiting.send(httpGet("/gate"))
            // Make sure the handler is parked at the gate before going on.
            while await handler.gate.arrivals == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
            let other = try HTTPTestClient(port: port)
            other.send(httpGet("/meanwhile"))
            #expect(await other.readResponse()?.status == 200)
            #expect(await handler.gate.arrivals == 1)
            await handler.gate.open()
            #expect(await waiting.readResponse()?.text == "gate passed")
        }
    }

    @Test func twoServersOnPortZeroGetDistinctPorts() throws {
        let first = LoopbackHTTPServer(handler: HTTPTestHandler())
        let second = LoopbackHTTPServer(handler: HTTPTestHandler())
        defer {
            first.shutdown()
            second.shutdown()
        }
        let firstPort = try first.start()
        let secondPort = try second.start()
        #expect(firstPort > 0 && secondPort > 0)
        #expect(firstPort != secondPort)
        #expect(throws: LoopbackHTTPServerError.alreadyStarted) { try first.start() }
    }

    @Test func bindingATakenPortFails() throws {
        let first = LoopbackHTTPServer(handler: HTTPTestHandler())
        defer { first.shutdown() }
        let port = try first.start()
        let second = LoopbackHTTPServer(port: port, handler: HTTPTestHandler())
        #expect(throws: LoopbackHTTPServerError.self) { try second.start() }
        #expect(throws: LoopbackHTTPServerError.invalidHost("not-an-address")) {
            try LoopbackHTTPServer(host: "not-an-address", handler: HTTPTestHandler()).start()
        }
    }

    @Test func shutdownClosesThePortAndIsIdempotent() async throws {
        let handler = HTTPTestHandler()
        let server = LoopbackHTTPServer(handler: handler)
        server.shutdown()  // before start: nothing to do
        let unstarted = LoopbackHTTPServer(handler: handler)
        unstarted.shutdown()
        #expect(unstarted.port == nil)

        let running = LoopbackHTTPServer(handler: handler)
        let port = try running.start()
        // An idle kept-alive connection and one waiting for its handler, both open at shutdown.
        let idle = try HTTPTestClient(port: port)
        idle.send(httpGet("/"))
        #expect(await idle.readResponse()?.status == 200)
        let busy = try HTTPTestClient(port: port)
        busy.send(httpGet("/gate"))
        while await handler.gate.arrivals == 0 { try await Task.sleep(nanoseconds: 1_000_000) }

        running.shutdown()
        #expect(running.port == nil)
        #expect(running.baseURL == nil)
        #expect(await idle.readUntilClosed().closed)
        let busyResult = await busy.readUntilClosed()
        #expect(busyResult.closed && busyResult.bytes.isEmpty)
        #expect(throws: HTTPTestClient.ConnectError.refused) { _ = try HTTPTestClient(port: port) }
        running.shutdown()
        #expect(throws: HTTPTestClient.ConnectError.refused) { _ = try HTTPTestClient(port: port) }
        await handler.gate.open()
    }
}
