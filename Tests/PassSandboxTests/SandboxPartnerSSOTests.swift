import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

@Suite("Partner (Apple) single sign-on")
struct SandboxPartnerSSOTests {
    private let form = "domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Fios.app"

    private func status(
        _ client: SandboxTestClient, access: String = "granted", provider: String? = "AppleBoarded",
        expiresIn: TimeInterval? = 86_400
    ) -> String {
        SandboxTestClient.partnerStatus(
            access: access, provider: provider,
            expiresAt: expiresIn.map { client.sandbox.clock.now.addingTimeInterval($0) })
    }

    private func partnerSession(_ client: SandboxTestClient, status: String?, form: String? = nil) async throws
        -> [String: Any]
    {
        let response = await client.postForm(
            "/api/v2/REF30/sessions/sso/Apple", form ?? self.form, partnerStatus: status)
        #expect(response.status == 200)
        return try SandboxTestClient.object(response)
    }

    /// Runs the whole exchange the way the SDK does; returns the profiles/sso response.
    private func exchange(_ client: SandboxTestClient, device: SimulatedPartnerFramework) async throws
        -> SandboxResponse
    {
        let pfs = status(client)
        let session = try await partnerSession(client, status: pfs)
        let request = try #require(session.object("authenticationRequest").string("request"))
        let metadata = try await device.accountMetadata(
            PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: request))
        let saml = try #require(metadata.samlResponse)
        return await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple",
            "SAMLResponse=" + SandboxEngine.formEncode(Data(saml.utf8).base64EncodedString()), partnerStatus: pfs)
    }

    @Test func aValidStatusGetsAPartnerAuthenticationRequest() async throws {
        let client = try await SandboxTestClient()
        let answer = try await partnerSession(client, status: status(client))
        #expect(answer.string("actionName") == "partner_profile")
        #expect(answer.string("actionType") == "direct")
        #expect(answer.string("reasonType") == "none")
        #expect(answer.string("url") == "/api/v2/REF30/profiles/sso/Apple")
        #expect(answer.string("mvpd") == "AppleBoarded")
        #expect(answer.string("serviceProvider") == "REF30")
        #expect(answer.string("sessionId") != nil)
        let authenticationRequest = answer.object("authenticationRequest")
        #expect(authenticationRequest.string("type") == "saml")
        let request = try #require(authenticationRequest.string("request"))
        let xml = String(decoding: try #require(Data(base64Encoded: request)), as: UTF8.self)
        #expect(xml.hasPrefix("<samlp:AuthnRequest"))
        #expect(authenticationRequest["attributesNames"] as? [String] == ["userID", "householdID", "zip"])
    }

    @Test func aMissingOrInvalidStatusFallsBackWithPFSFallback() async throws {
        let client = try await SandboxTestClient()
        let missing = try await partnerSession(client, status: nil)
        #expect(missing.string("reasonType") == "pfs_fallback")
        #expect(missing.string("actionName") == "resume")
        #expect(missing["missingParameters"] as? [String] == ["mvpd"])
        #expect(missing.string("code") != nil)

        let garbage = try await partnerSession(client, status: "%%%")
        #expect(garbage.string("reasonType") == "pfs_fallback")

        let denied = try await partnerSession(client, status: status(client, access: "denied"))
        #expect(denied.string("reasonType") == "pfs_fallback")
        #expect(denied.string("actionName") == "authenticate")
        #expect(denied.string("actionType") == "interactive")
        let code = try #require(denied.string("code"))
        #expect(denied.string("url") == "/api/v2/authenticate/REF30/\(code)")
        #expect(denied.string("mvpd") == "AppleBoarded")

        let expired = try await partnerSession(client, status: status(client, expiresIn: -1))
        #expect(expired.string("reasonType") == "pfs_fallback")
        let unknown = try await partnerSession(client, status: status(client, provider: "SomeoneElse"))
        #expect(unknown.string("reasonType") == "pfs_fallback")
        #expect(unknown.string("actionName") == "resume")
    }

    @Test func anMVPDWithoutPartnerSSOFallsBackWithConfigurationFallback() async throws {
        let client = try await SandboxTestClient()
        for provider in ["SSODisabled", "PickerOnly"] {
            let answer = try await partnerSession(client, status: status(client, provider: provider))
            #expect(answer.string("reasonType") == "configuration_fallback")
            #expect(answer.string("actionName") == "authenticate")
            #expect(answer.string("mvpd") == provider)
        }
        client.sandbox.updateMVPD("AppleBoarded") { $0.ssoEnabled = false }
        #expect(
            try await partnerSession(client, status: status(client)).string("reasonType") == "configuration_fallback")
    }

    @Test func missingParametersFallBackToResume() async throws {
        let client = try await SandboxTestClient()
        let answer = try await partnerSession(client, status: status(client), form: "domainName=adobe.com")
        #expect(answer.string("reasonType") == "missing_parameters_fallback")
        #expect(answer.string("actionName") == "resume")
        #expect(answer.string("actionType") == "direct")
        #expect(answer["missingParameters"] as? [String] == ["redirectUrl"])
        let code = try #require(answer.string("code"))
        #expect(answer.string("url") == "/api/v2/REF30/sessions/\(code)")
    }

    @Test func degradedAndAlreadyAuthenticatedAnswerAuthorize() async throws {
        let client = try await SandboxTestClient()
        let degraded = try await partnerSession(client, status: status(client, provider: "Degraded"))
        #expect(degraded.string("actionName") == "authorize")
        #expect(degraded.string("reasonType") == "degraded")
        #expect(degraded.string("url") == "/api/v2/REF30/decisions/authorize/Degraded")

        let device = SimulatedPartnerFramework(
            sandbox: client.sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice",
                expiresAt: client.sandbox.clock.now.addingTimeInterval(3_600)))
        #expect(try await exchange(client, device: device).status == 201)
        let again = try await partnerSession(client, status: status(client))
        #expect(again.string("actionName") == "authorize")
        #expect(again.string("reasonType") == "authenticatedSSO")
    }

    @Test func aVerifiedSAMLResponseCreatesAnAppleSSOProfile() async throws {
        let client = try await SandboxTestClient()
        let device = SimulatedPartnerFramework(
            sandbox: client.sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "bob", expiresAt: client.sandbox.clock.now.addingTimeInterval(600)))
        let response = try await exchange(client, device: device)
        #expect(response.status == 201)
        let profile = try SandboxTestClient.object(response).object("profiles").object("AppleBoarded")
        #expect(profile.string("type") == "appleSSO")
        #expect(profile.string("issuer") == "Apple")
        let now = client.sandbox.clock.now.epochMilliseconds
        // The Adobe Pass TTL applies, not the (shorter) system-level sign-in.
        #expect(profile.int("notAfter") == now + 86_400_000)
        #expect(profile.object("attributes").object("userID").string("value") == "u-bob")
        #expect(profile.object("attributes")["tokenSource"] == nil)

        // appleSSO profiles show only with a valid status for their MVPD.
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles", partnerStatus: status(client)))
                .object("profiles").count == 1)
        #expect(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)
        #expect(
            try SandboxTestClient.object(
                await client.get("/api/v2/REF30/profiles/AppleBoarded", partnerStatus: status(client, access: "denied"))
            ).object("profiles").isEmpty)
    }

    @Test func tamperedOrReplayedSAMLResponsesAreRefused() async throws {
        let client = try await SandboxTestClient()
        let device = SimulatedPartnerFramework(
            sandbox: client.sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "bob", expiresAt: client.sandbox.clock.now.addingTimeInterval(600)))
        let pfs = status(client)
        let session = try await partnerSession(client, status: pfs)
        let request = try #require(session.object("authenticationRequest").string("request"))
        let saml = try #require(
            try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: request))
                .samlResponse)
        let tampered = saml.replacingOccurrences(of: "<saml:AttributeValue>bob<", with: "<saml:AttributeValue>alice<")
        #expect(tampered != saml)

        let refused = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple",
            "SAMLResponse=" + SandboxEngine.formEncode(Data(tampered.utf8).base64EncodedString()), partnerStatus: pfs)
        #expect(refused.status == 400)
        #expect(try SandboxTestClient.object(refused).string("code") == "invalid_parameter_saml_response")
        let missing = await client.postForm("/api/v2/REF30/profiles/sso/Apple", "", partnerStatus: pfs)
        #expect(try SandboxTestClient.object(missing).string("code") == "invalid_parameter_saml_response")

        let accepted = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple",
            "SAMLResponse=" + SandboxEngine.formEncode(Data(saml.utf8).base64EncodedString()), partnerStatus: pfs)
        #expect(accepted.status == 201)
        let replayed = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple",
            "SAMLResponse=" + SandboxEngine.formEncode(Data(saml.utf8).base64EncodedString()), partnerStatus: pfs)
        #expect(replayed.status == 400)
    }

    @Test func profilesSSOChecksThePartnerStatus() async throws {
        let client = try await SandboxTestClient()
        let cases: [(String?, String)] = [
            (nil, "invalid_header_pfs_permission_access_not_present"),
            (status(client, access: "notDetermined"), "invalid_header_pfs_permission_access_not_determined"),
            (status(client, access: "restricted"), "invalid_header_pfs_permission_access_not_granted"),
            (status(client, provider: "SomeoneElse"), "invalid_header_pfs_provider_id_not_determined"),
            (status(client, expiresIn: -10), "invalid_header_pfs_provider_info_expired"),
        ]
        for (header, code) in cases {
            let response = await client.postForm(
                "/api/v2/REF30/profiles/sso/Apple", "SAMLResponse=PHg%2BPC94Pg%3D%3D", partnerStatus: header)
            #expect(response.status == 400)
            #expect(try SandboxTestClient.object(response).string("code") == code)
        }
        let wrongPartner = await client.postForm("/api/v2/REF30/sessions/sso/Roku", form, partnerStatus: status(client))
        #expect(try SandboxTestClient.object(wrongPartner).string("code") == "invalid_parameter_partner")
    }

    @Test func aResponseForAnotherProviderMismatchesTheStatus() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.updateMVPD("SSODisabled") { $0.ssoEnabled = true }
        let device = SimulatedPartnerFramework(
            sandbox: client.sandbox,
            signedIn: SystemSignIn(
                provider: "SSODisabled", username: "alice", expiresAt: client.sandbox.clock.now.addingTimeInterval(600))
        )
        let session = try await partnerSession(client, status: status(client))
        let request = try #require(session.object("authenticationRequest").string("request"))
        // The device is signed in to another provider than the request was made for.
        let saml = try #require(
            try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: request))
                .samlResponse)
        let response = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple",
            "SAMLResponse=" + SandboxEngine.formEncode(Data(saml.utf8).base64EncodedString()),
            partnerStatus: status(client))
        #expect(response.status == 400)
        #expect(try SandboxTestClient.object(response).string("code") == "invalid_parameter_saml_response")
    }
}
