import Foundation
import Testing

@testable import PassSandbox

@Suite("Sessions")
struct SandboxSessionTests {
    @Test func createAnswersAuthenticateInteractive() async throws {
        let client = try await SandboxTestClient()
        let response = await client.createSession(mvpd: "NotBoarded")
        #expect(response.status == 200)
        let session = try SandboxTestClient.object(response)
        let code = try #require(session.string("code"))
        #expect(session.string("actionName") == "authenticate")
        #expect(session.string("actionType") == "interactive")
        #expect(session.string("reasonType") == "none")
        #expect(session.string("url") == "/api/v2/authenticate/REF30/\(code)")
        #expect(session.string("mvpd") == "NotBoarded")
        #expect(session.string("serviceProvider") == "REF30")
        #expect(session.string("sessionId")?.isEmpty == false)
        let now = client.sandbox.clock.now.epochMilliseconds
        #expect(session.string("notBefore") == String(now))
        #expect(session.string("notAfter") == String(now + 1_800_000))
        #expect(code.count == 7)
    }

    @Test func missingParametersAskToResume() async throws {
        let client = try await SandboxTestClient()
        let created = try SandboxTestClient.object(
            await client.postForm("/api/v2/REF30/sessions", "domainName=adobe.com"))
        let code = try #require(created.string("code"))
        #expect(created.string("actionName") == "resume")
        #expect(created.string("actionType") == "direct")
        #expect(created.string("url") == "/api/v2/REF30/sessions/\(code)")
        #expect(created["missingParameters"] as? [String] == ["mvpd", "redirectUrl"])

        let info = try SandboxTestClient.object(await client.get("/api/v2/REF30/sessions/\(code)"))
        #expect(info["missingParameters"] as? [String] == ["mvpd", "redirectUrl"])
        #expect(info.object("existingParameters").string("domainName") == "adobe.com")
        #expect(info.object("existingParameters").string("serviceProvider") == "REF30")
        #expect(info.object("device").string("model") == "AppleTV")
        #expect(info.string("notAfter") != nil)

        let retry = try SandboxTestClient.object(
            await client.postForm("/api/v2/REF30/sessions/\(code)", "mvpd=NotBoarded"))
        #expect(retry.string("actionName") == "retry")
        #expect(retry["missingParameters"] as? [String] == ["redirectUrl"])

        let resumed = try SandboxTestClient.object(
            await client.postForm("/api/v2/REF30/sessions/\(code)", "redirectUrl=adobepass%3A%2F%2Fios.app"))
        #expect(resumed.string("actionName") == "authenticate")
        #expect(resumed.string("url") == "/api/v2/authenticate/REF30/\(code)")
        #expect(resumed.string("code") == code)
    }

    @Test func requiredHeadersAndParametersAreChecked() async throws {
        let client = try await SandboxTestClient()
        let noDevice = await client.sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/api/v2/REF30/sessions",
                headers: [
                    ("Authorization", "Bearer \(client.bearer)"), ("X-Device-Info", SandboxTestClient.deviceInfo),
                ],
                body: Array("mvpd=NotBoarded&domainName=adobe.com&redirectUrl=x%3A%2F%2Fy".utf8)))
        #expect(noDevice.status == 400)
        #expect(try SandboxTestClient.object(noDevice).string("code") == "invalid_header_device_identifier")

        let badDevice = await client.sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/api/v2/REF30/sessions",
                headers: [
                    ("Authorization", "Bearer \(client.bearer)"), ("AP-Device-Identifier", "serial 1234"),
                    ("X-Device-Info", SandboxTestClient.deviceInfo),
                ]))
        #expect(try SandboxTestClient.object(badDevice).string("code") == "invalid_header_device_identifier")

        let noInfo = await client.sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/api/v2/REF30/sessions",
                headers: [
                    ("Authorization", "Bearer \(client.bearer)"), ("AP-Device-Identifier", "fingerprint ZGV2aWNl"),
                    ("X-Device-Info", "not base64 json"),
                ]))
        #expect(try SandboxTestClient.object(noInfo).string("code") == "invalid_header_device_info")

        let inactive = await client.createSession(mvpd: "Inactive")
        #expect(inactive.status == 400)
        #expect(try SandboxTestClient.object(inactive).string("code") == "invalid_integration")
        #expect(
            try SandboxTestClient.object(await client.createSession(mvpd: "Nobody")).string("code")
                == "invalid_integration")

        let badRedirect = await client.createSession(mvpd: "NotBoarded", redirectUrl: "not a url")
        #expect(try SandboxTestClient.object(badRedirect).string("code") == "invalid_parameter_redirect_url")
    }

    @Test func anExistingProfileAnswersAuthorizeAuthenticated() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        let again = try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded"))
        #expect(again.string("actionName") == "authorize")
        #expect(again.string("actionType") == "direct")
        #expect(again.string("reasonType") == "authenticated")
        #expect(again.string("url") == "/api/v2/REF30/decisions/authorize/NotBoarded")
        #expect(again["code"] == nil)

        // Another device of the same application has no profile.
        var other = client
        other.deviceID = "device-2"
        #expect(
            try SandboxTestClient.object(await other.createSession(mvpd: "NotBoarded")).string("actionName")
                == "authenticate")
    }

    @Test func tempPassAndDegradationAnswerDirectly() async throws {
        let client = try await SandboxTestClient()
        let temporary = try SandboxTestClient.object(await client.createSession(mvpd: "TempPass"))
        #expect(temporary.string("actionName") == "authorize")
        #expect(temporary.string("actionType") == "direct")
        #expect(temporary.string("reasonType") == "temporary")
        let tempProfile = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/TempPass")).object(
            "profiles"
        ).object("TempPass")
        #expect(tempProfile.string("type") == "temporary")
        #expect(tempProfile.string("issuer") == "Adobe")
        #expect(tempProfile.int("notAfter") == client.sandbox.clock.now.epochMilliseconds + 1_800_000)
        #expect(tempProfile.object("attributes").object("expiration_date").int("value") == tempProfile.int("notAfter"))
        #expect(tempProfile.object("attributes").object("userID").string("value")?.hasPrefix("temppass_") == true)

        let degraded = try SandboxTestClient.object(await client.createSession(mvpd: "Degraded"))
        #expect(degraded.string("reasonType") == "degraded")
        #expect(degraded.string("actionName") == "authorize")
        let degradedProfile = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/Degraded")).object(
            "profiles"
        ).object("Degraded")
        #expect(degradedProfile.string("type") == "degraded")
        #expect(
            degradedProfile.object("attributes").object("userID").string("value")?.hasPrefix("95cf93bcd183214a") == true
        )
    }

    @Test func tempPassEndsForTheDevice() async throws {
        let client = try await SandboxTestClient()
        _ = await client.createSession(mvpd: "TempPass")
        client.sandbox.clock.advance(by: 1_800)
        // The Sessions endpoints have no TempPass error (their pages list 400, 401, 405,
        // 500): the session still says `temporary`, and the profile request refuses.
        let over = try SandboxTestClient.object(await client.createSession(mvpd: "TempPass"))
        #expect(over.string("actionName") == "authorize")
        #expect(over.string("reasonType") == "temporary")
        let profile = await client.get("/api/v2/REF30/profiles/TempPass")
        #expect(profile.status == 403)
        let error = try SandboxTestClient.object(profile)
        #expect(error.string("code") == "temporary_access_duration_limit_exceeded")
        #expect(error.string("action") == "authentication")
    }

    @Test func sessionsExpireAfterThirtyMinutes() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        client.sandbox.clock.advance(by: 1_800)
        let info = await client.get("/api/v2/REF30/sessions/\(code)")
        #expect(info.status == 400)
        #expect(try SandboxTestClient.object(info).string("code") == "invalid_authentication_session")
        let byCode = await client.get("/api/v2/REF30/profiles/code/\(code)")
        #expect(try SandboxTestClient.object(byCode).string("code") == "invalid_authentication_session")
        let page = await client.sandbox.respond(
            to: SandboxRequest(method: "GET", path: "/api/v2/authenticate/REF30/\(code)"))
        #expect(page.status == 400)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        let malformed = await client.get("/api/v2/REF30/sessions/bad-code!")
        #expect(try SandboxTestClient.object(malformed).string("code") == "invalid_parameter_code")
    }

    @Test func documentationSpellingsOfPathsAreAccepted() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        #expect(await client.get("/api/v2/sessions/REF30/\(code)").status == 200)
        #expect(await client.get("/api/v2/logout/REF30/NotBoarded?redirectUrl=x%3A%2F%2Fy").status == 200)
    }
}
