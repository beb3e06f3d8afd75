import Foundation
import Testing

@testable import PassSandbox

@Suite("MVPD login page, profiles and the simulated user agent")
struct SandboxLoginTests {
    @Test func authenticateRedirectsToTheLoginForm() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.baseURLForLinks = URL(string: "http://127.0.0.1:4567")!
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        let start = await client.sandbox.respond(
            to: SandboxRequest(method: "GET", path: "/api/v2/authenticate/REF30/\(code)"))
        #expect(start.status == 302)
        let location = try #require(start.header("Location"))
        #expect(location == "http://127.0.0.1:4567/mvpd/NotBoarded/login?code=\(code)")

        let form = await client.sandbox.respond(
            to: SandboxRequest(method: "GET", target: "/mvpd/NotBoarded/login?code=\(code)"))
        #expect(form.status == 200)
        let html = String(decoding: form.body, as: UTF8.self)
        #expect(html.contains(#"<form method="post" action="/mvpd/NotBoarded/login">"#))
        #expect(html.contains(#"<input type="hidden" name="code" value="\#(code)">"#))
        #expect(html.contains(#"type="password" name="password""#))
        #expect(!html.contains("login-error"))
    }

    @Test func correctCredentialsCreateARegularProfileAndRedirect() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(
                await client.createSession(mvpd: "NotBoarded", redirectUrl: "adobepass://ios.app/done")
            ).string("code"))

        let pending = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)"))
        #expect(pending.object("profiles").isEmpty)

        let wrong = await client.sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/mvpd/NotBoarded/login",
                body: Array("code=\(code)&username=alice&password=nope".utf8)))
        #expect(wrong.status == 200)
        #expect(String(decoding: wrong.body, as: UTF8.self).contains("The username or password is incorrect."))

        let right = await client.sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/mvpd/NotBoarded/login",
                body: Array("code=\(code)&username=alice&password=alice123".utf8)))
        #expect(right.status == 302)
        #expect(right.header("Location") == "adobepass://ios.app/done")

        let now = client.sandbox.clock.now.epochMilliseconds
        let byCode = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object(
            "profiles")
        let profile = byCode.object("NotBoarded")
        #expect(profile.int("notBefore") == now)
        #expect(profile.int("notAfter") == now + 86_400_000)
        #expect(profile.string("issuer") == "NotBoarded")
        #expect(profile.string("type") == "regular")
        let attributes = profile.object("attributes")
        #expect(attributes.object("userID").string("value") == "u-alice")
        #expect(attributes.object("userID").string("state") == "plain")
        #expect(attributes.object("householdID").string("value") == "h-1")
        #expect(attributes.object("zip").string("state") == "enc")
        #expect(SandboxMetadataCipher.decrypt(attributes.object("zip").string("value") ?? "") == ["10001"])
        #expect(attributes["tokenSource"] == nil)
    }

    @Test func profilesAreKeyedByMVPDAndExpireWithTheClock() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        _ = try await client.login(mvpd: "SVCProvider", username: "bob", password: "bob123")
        let all = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles")
        #expect(Set(all.keys) == ["NotBoarded", "SVCProvider"])
        #expect(all.object("SVCProvider").object("attributes").object("userID").string("value") == "u-bob")

        let one = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/NotBoarded")).object("profiles")
        #expect(Array(one.keys) == ["NotBoarded"])
        let none = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/PickerOnly")).object(
            "profiles")
        #expect(none.isEmpty)
        let inactive = await client.get("/api/v2/REF30/profiles/Inactive")
        #expect(try SandboxTestClient.object(inactive).string("code") == "invalid_integration")

        client.sandbox.clock.advance(by: 86_399)
        #expect(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").count == 2)
        client.sandbox.clock.advance(by: 1)
        #expect(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)
    }

    @Test func anIntegrationTurnedOffHidesItsProfiles() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        client.sandbox.updateMVPD("NotBoarded") { $0.integrationActive = false }
        #expect(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)
    }

    @Test func profilesBelongToTheRegisteredClient() async throws {
        let sandbox = PassSandbox()
        let credentials = try await SandboxTestClient.register(sandbox, statement: "STATEMENT")
        var first = try await SandboxTestClient(sandbox: sandbox)
        first.bearer = try await SandboxTestClient.token(
            sandbox, clientID: credentials.clientID, secret: credentials.secret)
        _ = try await first.login(mvpd: "NotBoarded")
        // A later access token of the same client still sees the profile.
        var renewed = first
        renewed.bearer = try await SandboxTestClient.token(
            sandbox, clientID: credentials.clientID, secret: credentials.secret)
        #expect(renewed.bearer != first.bearer)
        #expect(try SandboxTestClient.object(await renewed.get("/api/v2/REF30/profiles")).object("profiles").count == 1)
        // Same device, new client registration (credentials lost): the profile is not shared.
        let second = try await SandboxTestClient(sandbox: sandbox)
        #expect(try SandboxTestClient.object(await second.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)
    }

    @Test func userAgentLogsInAndLandsOnTheRedirectURL() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        let agent = SimulatedUserAgent(sandbox: client.sandbox)
        let landing = try await agent.login(
            startingAt: "http://sandbox.localhost/api/v2/authenticate/REF30/\(code)", username: "alice",
            password: "alice123", redirectPrefix: "adobepass://")
        #expect(landing == "adobepass://ios.app")
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object("profiles")
                .count == 1)
    }

    @Test func userAgentReportsRejectedCredentials() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        let agent = SimulatedUserAgent(sandbox: client.sandbox)
        await #expect(throws: SimulatedUserAgentError.loginRejected("The username or password is incorrect.")) {
            try await agent.login(
                startingAt: "/api/v2/authenticate/REF30/\(code)", username: "alice", password: "wrong",
                redirectPrefix: "adobepass://")
        }
        await #expect(
            throws: SimulatedUserAgentError.unexpectedResponse(
                status: 400, url: "http://sandbox.localhost/api/v2/authenticate/REF30/NOCODE0")
        ) {
            try await agent.login(
                startingAt: "/api/v2/authenticate/REF30/NOCODE0", username: "alice", password: "alice123",
                redirectPrefix: "adobepass://")
        }
    }
}
