import Foundation
import Testing

@testable import PassSandbox

@Suite("Loopback HTTP server: full servers, Allow and Content-Length")
struct HTTPServerHardeningTests {
    /// Opens a kept-alive connection and has one request answered on it, so it is idle.
    private func idleClient(port: Int) async throws -> HTTPTestClient {
        let client = try HTTPTestClient(port: port)
        client.send(httpGet("/warm-up"))
        guard await client.readResponse()?.status == 200 else {
            throw TestFailure("the warm-up request was not answered")
        }
        return client
    }

    @Test func aThousandIdleKeepAliveConnectionsDoNotLockOthersOut() async throws {
        // Idle connections are kept for an hour, so only eviction closes them, however long a
        // loaded machine takes to open a thousand (it took minutes at load 20).
        try await withHTTPTestServer(limits: .init(idleTimeout: 3_600)) { server, port in
            var idle: [HTTPTestClient] = []
            for _ in 0..<1_000 { idle.append(try await idleClient(port: port)) }
            // A newcomer is served at once: the server closed idle connections to make room.
            let newcomer = try HTTPTestClient(port: port)
            newcomer.send(httpGet("/newcomer"))
            let response = try #require(await newcomer.readResponse())
            #expect(response.status == 200)
            #expect(response.header("X-Echo-Path") == "/newcomer")
            // Every connection past the cap cost one idle one.
            #expect(server.evictedConnectionCount == 1_001 - LoopbackHTTPServerLimits().maxConnections)
            // The oldest idle client was closed cleanly; the most recent ones still work.
            #expect(await idle[0].readUntilClosed().closed)
            let recent = try #require(idle.last)
            recent.send(httpGet("/still-open"))
            #expect(await recent.readResponse()?.status == 200)
            for client in idle { client.close() }
        }
    }

    @Test func theLongestIdleConnectionGoesFirst() async throws {
        // Idle connections are kept an hour: only eviction closes one, however slow the machine.
        try await withHTTPTestServer(limits: .init(idleTimeout: 3_600, maxConnections: 3)) { server, port in
            let oldest = try await idleClient(port: port)
            let middle = try await idleClient(port: port)
            let youngest = try await idleClient(port: port)
            // Using the oldest makes the middle one the longest idle.
            oldest.send(httpGet("/again"))
            #expect(await oldest.readResponse()?.status == 200)
            // A client has its answer before the server's thread is back waiting for the next
            // request: on a loaded machine, long before. Only an idle connection may be closed.
            while server.idleConnectionCount < 3 { try await Task.sleep(nanoseconds: 5_000_000) }
            let newcomer = try HTTPTestClient(port: port)
            newcomer.send(httpGet("/newcomer"))
            #expect(await newcomer.readResponse()?.status == 200)
            #expect(await middle.readUntilClosed().closed)
            for survivor in [oldest, youngest] {
                survivor.send(httpGet("/survivor"))
                #expect(await survivor.readResponse()?.status == 200)
            }
            #expect(server.evictedConnectionCount == 1)
        }
    }

    @Test func whenEveryConnectionIsBusyANewcomerIsClosed() async throws {
        let handler = HTTPTestHandler()
        try await withHTTPTestServer(
            limits: .init(headerTimeout: 600, idleTimeout: 3_600, bodyTimeout: 600, maxConnections: 2), handler: handler
        ) { server, port in
            let busy = try (0..<2).map { _ in try HTTPTestClient(port: port) }
            for client in busy { client.send(httpGet("/gate")) }
            while await handler.gate.arrivals < 2 { try await Task.sleep(nanoseconds: 5_000_000) }
            let newcomer = try HTTPTestClient(port: port)
            #expect(await newcomer.readUntilClosed() == ([], true))
            #expect(server.evictedConnectionCount == 0, "busy connections are never closed")
            await handler.gate.open()
            for client in busy { #expect(await client.readResponse()?.status == 200) }
        }
    }

    @Test func methodNotAllowedListsEveryMethodThePathServes() async throws {
        let sandbox = PassSandbox()
        let cases: [(method: String, path: String, allow: String, contentType: String)] = [
            ("DELETE", "/api/v2/REF30/sessions/ABC1234", "GET, HEAD, POST", "application/json;charset=UTF-8"),
            ("GET", "/api/v2/REF30/sessions", "POST", "application/json;charset=UTF-8"),
            ("POST", "/api/v2/REF30/configuration", "GET, HEAD", "application/json;charset=UTF-8"),
            ("POST", "/api/v2/sessions/REF30/ABC1234", "GET, HEAD", "application/json;charset=UTF-8"),
            ("GET", "/o/client/register", "POST", "application/json;charset=UTF-8"),
            ("PUT", "/mvpd/NotBoarded/login", "GET, HEAD, POST", "text/html;charset=UTF-8"),
            ("POST", "/api/v2/authenticate/REF30/ABC1234", "GET, HEAD", "text/html;charset=UTF-8"),
        ]
        for (method, path, allow, contentType) in cases {
            let response = await sandbox.respond(to: SandboxRequest(method: method, path: path))
            #expect(response.status == 405, "\(method) \(path)")
            #expect(response.header("Allow") == allow, "\(method) \(path)")
            #expect(response.header("Content-Type") == contentType, "\(method) \(path)")
        }
        let apiError = try SandboxTestClient.object(
            await sandbox.respond(to: SandboxRequest(method: "DELETE", path: "/api/v2/REF30/sessions/ABC1234")))
        #expect(apiError.int("status") == 405)
        #expect(apiError.string("code") == "method_not_allowed")
        #expect(apiError.string("action") == "none")
        #expect(
            apiError.string("details")
                == "DELETE is not served on /api/v2/REF30/sessions/ABC1234; use GET, HEAD or POST.")
        let dcrError = try SandboxTestClient.object(
            await sandbox.respond(to: SandboxRequest(method: "GET", path: "/o/client/register")))
        #expect(dcrError.string("error") == "invalid_request")
        // GET is served on the session path: it is not a 405.
        #expect(
            await sandbox.respond(to: SandboxRequest(method: "GET", path: "/api/v2/REF30/sessions/ABC1234")).status
                == 401)
    }

    @Test func methodNotAllowedCrossesTheWireWithItsAllowField() async throws {
        let sandbox = PassSandbox()
        let (server, _) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let client = try HTTPTestClient(port: try #require(server.port))
        client.send("DELETE /api/v2/REF30/sessions/ABC1234 HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = try #require(await client.readResponse())
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST")
        #expect(response.header("Content-Type") == "application/json;charset=UTF-8")
        #expect(response.text.contains(#""code":"method_not_allowed""#))
        #expect(response.header("Connection") == "keep-alive", "a 405 does not end the connection")
    }

    @Test func contentLengthWithLeadingZerosIsParsed() async throws {
        #expect(HTTPHeadParser.parseContentLength("0005") == .success(5))
        #expect(HTTPHeadParser.parseContentLength("0") == .success(0))
        #expect(HTTPHeadParser.parseContentLength(String(repeating: "0", count: 40) + "12") == .success(12))
        #expect(
            HTTPHeadParser.parseContentLength("1" + String(repeating: "0", count: 15)) == .failure(.requestTooLarge))
        #expect(HTTPHeadParser.parseContentLength("+5") == .failure(.badRequest("invalid Content-Length")))
        try await withHTTPTestServer { _, port in
            let client = try HTTPTestClient(port: port)
            client.send("POST /padded HTTP/1.1\r\nHost: h\r\nContent-Length: 0005\r\nContent-Length: 5\r\n\r\nhello")
            let response = try #require(await client.readResponse())
            #expect(response.status == 200)
            #expect(response.text.hasSuffix("body\nhello"))
            // The connection stays usable: the body was framed exactly.
            client.send(httpGet("/next"))
            #expect(await client.readResponse()?.header("X-Echo-Path") == "/next")
        }
    }
}
