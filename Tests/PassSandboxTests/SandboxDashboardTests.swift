import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

/// The dashboard reaches a device only through Adobe's answers: a disabled integration or a
/// disabled single sign-on shows in the profiles answer and in `invalid_integration`, from the
/// next request on, with no restart. The resource limits of decisions are the dashboard's too.
@Suite("Dashboard changes in the answers")
struct SandboxDashboardTests {
    private func status(_ client: SandboxTestClient, provider: String = "AppleBoarded") -> String {
        SandboxTestClient.partnerStatus(
            provider: provider, expiresAt: client.sandbox.clock.now.addingTimeInterval(86_400))
    }

    private func profiles(
        _ client: SandboxTestClient, _ target: String = "/api/v2/REF30/profiles", partnerStatus: String? = nil
    ) async throws -> [String: Any] {
        let response = await client.get(target, partnerStatus: partnerStatus)
        #expect(response.status == 200)
        return try SandboxTestClient.object(response).object("profiles")
    }

    /// Signs the device in to AppleBoarded through partner single sign-on.
    private func appleSSOProfile(_ client: SandboxTestClient) async throws {
        let pfs = status(client)
        let session = try SandboxTestClient.object(
            await client.postForm(
                "/api/v2/REF30/sessions/sso/Apple", "domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Fios.app",
                partnerStatus: pfs))
        let request = try #require(session.object("authenticationRequest").string("request"))
        let device = SimulatedPartnerFramework(
            sandbox: client.sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice",
                expiresAt: client.sandbox.clock.now.addingTimeInterval(86_400)))
        let saml = try #require(
            try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: request))
                .samlResponse)
        let created = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple",
            "SAMLResponse=" + SandboxEngine.formEncode(Data(saml.utf8).base64EncodedString()), partnerStatus: pfs)
        #expect(created.status == 201)
    }

    @Test func aDisabledIntegrationLeavesTheProfilesAnswerAndRefusesRequestsNamingIt() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        #expect(try await profiles(client).keys.sorted() == ["NotBoarded"])

        client.sandbox.updateMVPD("NotBoarded") { $0.integrationActive = false }
        #expect(try await profiles(client).isEmpty, "the next request sees the change")
        let refusals = [
            await client.get("/api/v2/REF30/profiles/NotBoarded"),
            await client.createSession(mvpd: "NotBoarded"),
            await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["news"]}"#),
            await client.postJSON("/api/v2/REF30/decisions/preauthorize/NotBoarded", #"{"resources":["news"]}"#),
        ]
        for refusal in refusals {
            #expect(refusal.status == 400)
            let error = try SandboxTestClient.object(refusal)
            #expect(error.string("code") == "invalid_integration")
            #expect(
                error.string("message")
                    == "The integration between the specified service provider and mvpd does not exist or is disabled.")
            #expect(error.string("action") == "none", "as Adobe's enhanced error codes table files the code")
        }

        client.sandbox.updateMVPD("NotBoarded") { $0.integrationActive = true }
        #expect(try await profiles(client).keys.sorted() == ["NotBoarded"], "enabled again: the profile counts again")
    }

    @Test func disabledSingleSignOnHidesThePartnerProfileOnly() async throws {
        let client = try await SandboxTestClient()
        try await appleSSOProfile(client)
        _ = try await client.login(mvpd: "NotBoarded")
        #expect(
            try await profiles(client, partnerStatus: status(client)).keys.sorted() == ["AppleBoarded", "NotBoarded"])

        client.sandbox.updateMVPD("AppleBoarded") { $0.ssoEnabled = false }
        #expect(try await profiles(client, partnerStatus: status(client)).keys.sorted() == ["NotBoarded"])
        #expect(
            try await profiles(client, "/api/v2/REF30/profiles/AppleBoarded", partnerStatus: status(client)).isEmpty)
        client.sandbox.updateMVPD("NotBoarded") { $0.ssoEnabled = false }
        #expect(
            try await profiles(client).keys.sorted() == ["NotBoarded"],
            "a regular profile does not depend on single sign-on")
    }

    @Test func resourceLimitsComeFromTheIntegration() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        client.sandbox.updateMVPD("NotBoarded") { $0.preauthorizationResourceLimit = 2 }
        let three = await client.postJSON(
            "/api/v2/REF30/decisions/preauthorize/NotBoarded", #"{"resources":["a","b","c"]}"#)
        #expect(three.status == 403)
        #expect(try SandboxTestClient.object(three).string("code") == "too_many_resources")
        #expect(
            await client.postJSON("/api/v2/REF30/decisions/preauthorize/NotBoarded", #"{"resources":["a","b"]}"#).status
                == 200)
        #expect(
            await client.postJSON(
                "/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["a","b","c","d","e"]}"#
            ).status == 200)
        try client.sandbox.updateMVPD("NotBoarded", settingJSON: ["authorizationResourceLimit": 1])
        #expect(
            await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["a","b"]}"#).status
                == 403)
        #expect(throws: SandboxWorldError.self) {
            try client.sandbox.updateMVPD("NotBoarded", settingJSON: ["preauthorizationResourceLimit": 0])
        }
    }
}
