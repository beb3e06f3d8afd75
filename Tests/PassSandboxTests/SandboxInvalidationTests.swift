import Foundation
import Testing

@testable import PassSandbox

@Suite("Profile invalidation, client binding and enhanced-error actions")
struct SandboxInvalidationTests {
    private static func fingerprint(_ deviceID: String) -> String {
        "fingerprint " + Data(deviceID.utf8).base64EncodedString()
    }

    private func authorize(_ client: SandboxTestClient, mvpd: String = "NotBoarded") async throws -> (
        status: Int, body: [String: Any]
    ) {
        let response = await client.postJSON("/api/v2/REF30/decisions/authorize/\(mvpd)", #"{"resources":["news"]}"#)
        return (response.status, try SandboxTestClient.object(response))
    }

    @Test func anInvalidatedProfileIsRefusedWithTheDocumentedError() async throws {
        let client = try await SandboxTestClient()
        let code = try await client.login(mvpd: "NotBoarded")
        #expect(try await authorize(client).status == 200)
        #expect(
            client.sandbox.invalidateProfiles(mvpd: "NotBoarded", deviceIdentifier: Self.fingerprint("device-1")) == 1)

        let decision = try await authorize(client)
        #expect(decision.status == 403)
        #expect(decision.body.string("code") == "authenticated_profile_invalidated")
        #expect(decision.body.string("action") == "authentication")
        #expect(decision.body.int("status") == 403)
        let preauthorization = await client.postJSON(
            "/api/v2/REF30/decisions/preauthorize/NotBoarded", #"{"resources":["news"]}"#)
        #expect(try SandboxTestClient.object(preauthorization).string("code") == "authenticated_profile_invalidated")

        let byMVPD = await client.get("/api/v2/REF30/profiles/NotBoarded")
        #expect(byMVPD.status == 403)
        #expect(try SandboxTestClient.object(byMVPD).string("code") == "authenticated_profile_invalidated")
        let byCode = await client.get("/api/v2/REF30/profiles/code/\(code)")
        #expect(byCode.status == 403)
        #expect(try SandboxTestClient.object(byCode).string("action") == "authentication")
        #expect(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)

        // The user must sign in again; then everything works.
        #expect(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("actionName")
                == "authenticate")
        _ = try await client.login(mvpd: "NotBoarded")
        #expect(try await authorize(client).status == 200)
        #expect(await client.get("/api/v2/REF30/profiles/NotBoarded").status == 200)
    }

    @Test func invalidationIsScopedByMVPDAndDevice() async throws {
        let sandbox = PassSandbox()
        let first = try await SandboxTestClient(sandbox: sandbox, deviceID: "device-1")
        let second = try await SandboxTestClient(sandbox: sandbox, deviceID: "device-2")
        _ = try await first.login(mvpd: "NotBoarded")
        _ = try await first.login(mvpd: "SVCProvider")
        _ = try await second.login(mvpd: "NotBoarded")
        _ = await first.createSession(mvpd: "TempPass")

        // The bare Base64 identifier works as well as the header value.
        #expect(
            sandbox.invalidateProfiles(
                mvpd: "NotBoarded", deviceIdentifier: Data("device-1".utf8).base64EncodedString()) == 1)
        #expect(try await authorize(first).body.string("code") == "authenticated_profile_invalidated")
        #expect(try await authorize(first, mvpd: "SVCProvider").status == 200, "another MVPD is untouched")
        #expect(try await authorize(second).status == 200, "another device is untouched")

        #expect(sandbox.invalidateProfiles() == 2, "every remaining profile but TempPass, on every device")
        #expect(try await authorize(second).body.string("code") == "authenticated_profile_invalidated")
        let temporary = try SandboxTestClient.object(await first.get("/api/v2/REF30/profiles")).object("profiles")
        #expect(Array(temporary.keys) == ["TempPass"])
        #expect(sandbox.invalidateProfiles() == 0, "nothing is invalidated twice")
    }

    @Test func expiredAndMissingProfilesKeepTheirOwnCodes() async throws {
        var world = SandboxWorld.default
        world.accessTokenTTL = 200_000  // outlives the profile
        let client = try await SandboxTestClient(sandbox: PassSandbox(world: world))
        let missing = try await authorize(client)
        #expect(missing.status == 403)
        #expect(missing.body.string("code") == "authenticated_profile_missing")
        #expect(missing.body.string("action") == "authentication")
        _ = try await client.login(mvpd: "NotBoarded")
        client.sandbox.invalidateProfiles()
        client.sandbox.clock.advance(by: 86_400)
        let expired = try await authorize(client)
        #expect(
            expired.body.string("code") == "authenticated_profile_expired", "past its notAfter, expiry is what counts")
        #expect(expired.body.string("action") == "authentication")
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/NotBoarded")).object("profiles")
                .isEmpty)
    }

    @Test func profilesBelongToTheClientThatCreatedThem() async throws {
        let sandbox = PassSandbox()
        let credentials = try await SandboxTestClient.register(sandbox, statement: "STATEMENT")
        var original = try await SandboxTestClient(sandbox: sandbox, deviceID: "device-1")
        original.bearer = try await SandboxTestClient.token(
            sandbox, clientID: credentials.clientID, secret: credentials.secret)
        _ = try await original.login(mvpd: "NotBoarded")
        #expect(try await authorize(original).status == 200)
        // A new access token for the same client keeps them.
        var renewed = original
        renewed.bearer = try await SandboxTestClient.token(
            sandbox, clientID: credentials.clientID, secret: credentials.secret)
        #expect(renewed.bearer != original.bearer)
        #expect(try await authorize(renewed).status == 200)
        // A new registration on the same device (lost client credentials) sees nothing.
        let reregistered = try await SandboxTestClient(sandbox: sandbox, deviceID: "device-1")
        #expect(
            try SandboxTestClient.object(await reregistered.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)
        #expect(try await authorize(reregistered).body.string("code") == "authenticated_profile_missing")
    }

    /// Every enhanced error the sandbox writes carries the status and action the REST API
    /// V2 list of the Enhanced Error Codes page gives its code.
    @Test func everyEnhancedErrorCarriesTheActionOfTheCodesTable() {
        let table: [String: (status: Int, action: String)] = [
            "invalid_parameter_service_provider": (400, "none"), "invalid_parameter_mvpd": (400, "none"),
            "invalid_parameter_code": (400, "none"), "invalid_parameter_resources": (400, "none"),
            "invalid_parameter_redirect_url": (400, "none"), "invalid_parameter_partner": (400, "none"),
            "invalid_parameter_saml_response": (400, "none"), "invalid_header_device_info": (400, "none"),
            "invalid_header_device_identifier": (400, "none"),
            "invalid_header_identity_for_temporary_access": (400, "none"),
            "invalid_header_pfs_permission_access_not_present": (400, "none"),
            "invalid_header_pfs_permission_access_not_determined": (400, "none"),
            "invalid_header_pfs_permission_access_not_granted": (400, "none"),
            "invalid_header_pfs_provider_id_not_determined": (400, "none"),
            "invalid_header_pfs_provider_id_mismatch": (400, "none"),
            "invalid_header_pfs_provider_info_expired": (400, "none"), "invalid_integration": (400, "none"),
            "invalid_authentication_session": (400, "none"), "preauthorization_denied_by_mvpd": (403, "none"),
            "authorization_denied_by_mvpd": (403, "none"), "authorization_denied_by_degradation_rule": (403, "none"),
            "internal_server_error": (500, "none"), "too_many_resources": (403, "configuration"),
            "invalid_access_token_service_provider": (401, "application-registration"),
            "invalid_access_token_client_application": (401, "application-registration"),
            "authenticated_profile_missing": (403, "authentication"),
            "authenticated_profile_expired": (403, "authentication"),
            "authenticated_profile_invalidated": (403, "authentication"),
            "temporary_access_duration_limit_exceeded": (403, "authentication"),
            "temporary_access_resources_limit_exceeded": (403, "authentication"),
            "network_received_error": (403, "retry"),
        ]
        let written: [SandboxEnhancedError] = [
            .invalidServiceProvider, .invalidMVPD, .invalidCode, .invalidResources, .invalidRedirectURL,
            .invalidPartner,
            .invalidSAMLResponse, .invalidDeviceInfo, .invalidDeviceIdentifier, .invalidTempPassIdentity,
            .pfsAccessNotPresent,
            .pfsAccessNotDetermined, .pfsAccessNotGranted, .pfsProviderNotDetermined, .pfsProviderMismatch,
            .pfsProviderExpired,
            .invalidIntegration, .invalidAuthenticationSession, .deniedByMVPD, .deniedByDegradationRule,
            .preauthorizationDeniedByMVPD,
            .internalServerError, .tooManyResources, .invalidAccessTokenServiceProvider,
            .invalidAccessTokenClientApplication,
            .profileMissing, .profileExpired, .profileInvalidated, .tempPassDurationExceeded,
            .tempPassResourcesExceeded,
            .networkReceivedError,
        ]
        #expect(Set(written.map(\.code)) == Set(table.keys))
        for error in written {
            #expect(error.status == table[error.code]?.status, "\(error.code)")
            #expect(error.action == table[error.code]?.action, "\(error.code)")
        }
        // Injected faults keep the action of the code they borrow.
        for status in [500, 502, 503] {
            #expect(SandboxEnhancedError.injected(status: status).code == "internal_server_error")
            #expect(SandboxEnhancedError.injected(status: status).action == "none")
        }
        #expect(SandboxEnhancedError.injected(status: 403).action == "retry")
        #expect(SandboxEnhancedError.injected(status: 401).action == "application-registration")
    }
}
