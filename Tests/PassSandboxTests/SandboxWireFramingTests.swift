import Foundation
import Testing

@testable import PassSandbox

/// HTTP/1.1 as RFC 9110 and 9112 describe it, against the sandbox's endpoints over real
/// HTTP: HEAD on every GET resource, chunked request bodies, pipelined requests and
/// `Expect: 100-continue`.
@Suite("Wire conformance: HEAD, chunked bodies, pipelining, 100-continue")
struct SandboxWireFramingTests {
    /// Every GET resource answers HEAD with the head of its GET answer (status, content type,
    /// the length of the body it would send) and no body; the connection stays usable.
    @Test func headAnswersEveryGetResourceWithTheHeadOfItsGet() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let code = try await wire.openSession()
        let api = wire.deviceHeaders()
        let targets: [(target: String, headers: [(String, String)], endpoint: SandboxEndpoint?)] = [
            ("/api/v2/REF30/configuration", api, .configuration),
            ("/api/v2/REF30/sessions/\(code)", api, .sessionInformation),
            ("/api/v2/sessions/REF30/\(code)", api, .sessionInformation),
            ("/api/v2/REF30/profiles", api, .profiles),
            ("/api/v2/REF30/profiles/NotBoarded", api, .profileForMVPD),
            ("/api/v2/REF30/profiles/code/\(code)", api, .profileForCode),
            ("/api/v2/REF30/logout/Degraded?redirectUrl=adobepass%3A%2F%2Ftv.app", api, .logout),
            ("/api/v2/authenticate/REF30/\(code)", [], .authenticate),
            ("/mvpd/NotBoarded/login?code=\(code)", [("Accept", "text/html")], .login),
            ("/activate", [("Accept", "text/html")], .activate),
            ("/adobe-services/logout?redirect_url=https%3A%2F%2Fexample.com", [], .mvpdLogout),
            ("/api/v2/REF30/nothing", api, nil),
        ]
        for (target, headers, _) in targets {
            let get = try await wire.send("GET", target, headers: headers)
            let client = try HTTPTestClient(port: wire.port)
            client.send(
                wire.requestBytes("HEAD", target, headers: headers)
                    + wire.requestBytes("GET", "/api/v2/REF30/configuration", headers: api))
            let head = try #require(await client.readResponseHead(), "HEAD \(target)")
            #expect(head.status == get.status, "HEAD \(target)")
            #expect(head.header("Content-Type") == get.header("Content-Type"), "HEAD \(target)")
            #expect(
                head.header("Content-Length") == String(get.body.count), "HEAD \(target) announces the GET's length")
            #expect(head.header("Location") == get.header("Location"), "HEAD \(target)")
            // No body came: the next bytes are the answer to the request after the HEAD.
            let next = try #require(await client.readResponse(), "after HEAD \(target)")
            #expect(next.status == 200, "after HEAD \(target)")
            #expect(try WireExchange.object(next).object("requestor").string("id") == "REF30", "after HEAD \(target)")
        }
        let log = wire.sandbox.requestLog.filter { $0.method == "HEAD" }
        #expect(log.count == targets.count)
        #expect(
            Set(log.compactMap(\.endpoint)) == Set(targets.compactMap(\.endpoint)), "HEAD reaches the GET endpoints")
    }

    @Test func theAllowFieldListsHeadBesideGet() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let response = try await wire.send("PUT", "/api/v2/REF30/profiles", headers: wire.deviceHeaders(), body: "")
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
    }

    @Test func chunkedBodiesReachTheEndpoints() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let session = try await wire.send(
            "POST", "/api/v2/REF30/sessions",
            headers: wire.deviceHeaders() + [("Content-Type", "application/x-www-form-urlencoded")],
            chunks: ["mvpd=Not", "Boarded&domainName=adobe.com", "&redirectUrl=adobepass%3A%2F%2Ftv.app"])
        #expect(session.status == 200)
        let answer = try WireExchange.object(session)
        #expect(answer.string("actionName") == "authenticate")
        #expect(answer.string("mvpd") == "NotBoarded")

        let registered = try await wire.send(
            "POST", "/o/client/register",
            headers: [("Content-Type", "application/json"), ("X-Device-Info", SandboxTestClient.deviceInfo)],
            chunks: [#"{"software_"#, #"statement":"STATEMENT"}"#])
        #expect(registered.status == 201)

        let decisions = try await wire.send(
            "POST", "/api/v2/REF30/decisions/preauthorize/Degraded",
            headers: wire.deviceHeaders() + [("Content-Type", "application/json")],
            chunks: [#"{"resources":"#, #"["news","sports"]}"#])
        #expect(decisions.status == 200)
        #expect((try WireExchange.object(decisions)["decisions"] as? [Any])?.count == 2)
    }

    @Test func pipelinedRequestsAreAnsweredInOrderWithTheirEffects() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let api = wire.deviceHeaders()
        let client = try HTTPTestClient(port: wire.port)
        // Open a session, ask for its information by a code the server has not answered yet
        // (it cannot be known), ask for configuration: three requests in one write.
        client.send(
            wire.requestBytes(
                "POST", "/api/v2/REF30/sessions",
                headers: api + [("Content-Type", "application/x-www-form-urlencoded")], body: "domainName=adobe.com")
                + wire.requestBytes("GET", "/api/v2/REF30/configuration", headers: api)
                + wire.requestBytes(
                    "POST", "/api/v2/REF30/sessions",
                    headers: api + [("Content-Type", "application/x-www-form-urlencoded")], chunks: ["mvpd=NotBoarded"])
        )
        let first = try #require(await client.readResponse())
        let second = try #require(await client.readResponse())
        let third = try #require(await client.readResponse())
        #expect(try WireExchange.object(first).string("actionName") == "resume")
        #expect(try WireExchange.object(second).object("requestor").string("id") == "REF30")
        #expect(try WireExchange.object(third)["missingParameters"] as? [String] == ["domainName", "redirectUrl"])
        #expect(wire.sandbox.requestLog.suffix(3).map(\.endpoint) == [.createSession, .configuration, .createSession])
    }

    @Test func expectContinueIsAnsweredBeforeTheBodyIsSent() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let client = try HTTPTestClient(port: wire.port)
        let body = "mvpd=NotBoarded&domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Ftv.app"
        var head = wire.requestBytes(
            "POST", "/api/v2/REF30/sessions",
            headers: wire.deviceHeaders() + [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Expect", "100-continue"),
            ], body: body)
        head.removeLast(body.utf8.count)
        client.send(head)
        let interim = try #require(await client.readResponse())
        #expect(interim.status == 100)
        #expect(wire.sandbox.requestLog.last?.endpoint != .createSession, "nothing is answered before the body")
        client.send(body)
        let response = try #require(await client.readResponse())
        #expect(response.status == 200)
        #expect(try WireExchange.object(response).string("actionName") == "authenticate")
    }
}
