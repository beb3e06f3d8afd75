import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

@Suite("Logout")
struct SandboxLogoutTests {
    private func logout(_ client: SandboxTestClient, _ mvpd: String, partnerStatus: String? = nil) async throws
        -> [String: Any]
    {
        let response = await client.get(
            "/api/v2/REF30/logout/\(mvpd)?redirectUrl=adobepass%3A%2F%2Fios.app%2Flogout", partnerStatus: partnerStatus)
        #expect(response.status == 200)
        return try SandboxTestClient.object(response).object("logouts").object(mvpd)
    }

    @Test func aRegularProfileLogsOutThroughTheMVPDPage() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.baseURLForLinks = URL(string: "http://127.0.0.1:9")!
        _ = try await client.login(mvpd: "NotBoarded")
        let answer = try await logout(client, "NotBoarded")
        #expect(answer.string("actionName") == "logout")
        #expect(answer.string("actionType") == "interactive")
        #expect(answer.string("mvpd") == "NotBoarded")
        let url = try #require(answer.string("url"))
        #expect(url.hasPrefix("http://127.0.0.1:9/adobe-services/logout?"))
        #expect(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)

        let landing = try await SimulatedUserAgent(sandbox: client.sandbox).follow(url, redirectPrefix: "adobepass://")
        #expect(landing == "adobepass://ios.app/logout")

        let again = try await logout(client, "NotBoarded")
        #expect(again.string("actionName") == "invalid")
        #expect(again.string("actionType") == "none")
        #expect(again["url"] == nil)
    }

    @Test func temporaryAndDegradedAccessCompleteAtOnce() async throws {
        let client = try await SandboxTestClient()
        _ = await client.createSession(mvpd: "TempPass")
        let temporary = try await logout(client, "TempPass")
        #expect(temporary.string("actionName") == "complete")
        #expect(temporary.string("actionType") == "none")
        let degraded = try await logout(client, "Degraded")
        #expect(degraded.string("actionName") == "complete")
    }

    @Test func anAppleSSOProfileAsksForAPartnerLogout() async throws {
        let client = try await SandboxTestClient()
        let now = client.sandbox.clock.now
        let pfs = SandboxTestClient.partnerStatus(expiresAt: now.addingTimeInterval(3_600))
        let device = SimulatedPartnerFramework(
            sandbox: client.sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: now.addingTimeInterval(3_600)))
        let session = try SandboxTestClient.object(
            await client.postForm(
                "/api/v2/REF30/sessions/sso/Apple", "domainName=adobe.com&redirectUrl=x%3A%2F%2Fy", partnerStatus: pfs))
        let request = try #require(session.object("authenticationRequest").string("request"))
        let saml = try #require(
            try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: request))
                .samlResponse)
        _ = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple",
            "SAMLResponse=" + SandboxEngine.formEncode(Data(saml.utf8).base64EncodedString()), partnerStatus: pfs)

        let answer = try await logout(client, "AppleBoarded", partnerStatus: pfs)
        #expect(answer.string("actionName") == "partner_logout")
        #expect(answer.string("actionType") == "partner_interactive")
        #expect(answer["url"] == nil)
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles", partnerStatus: pfs)).object(
                "profiles"
            ).isEmpty)
    }

    @Test func theRedirectURLIsRequired() async throws {
        let client = try await SandboxTestClient()
        let response = await client.get("/api/v2/REF30/logout/NotBoarded")
        #expect(response.status == 400)
        #expect(try SandboxTestClient.object(response).string("code") == "invalid_parameter_redirect_url")
    }
}
