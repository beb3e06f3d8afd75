import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

@Suite("Decisions")
struct SandboxDecisionTests {
    private func decisions(_ response: SandboxResponse) throws -> [[String: Any]] {
        #expect(response.status == 200)
        return try #require(try SandboxTestClient.object(response)["decisions"] as? [[String: Any]])
    }

    @Test func entitledResourcesArePermittedWithAMediaToken() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded", username: "bob", password: "bob123")
        let list = try decisions(
            await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["news","sports"]}"#))
        try #require(list.count == 2)
        let now = client.sandbox.clock.now.epochMilliseconds
        let permit = list[0]
        #expect(permit.string("resource") == "news")
        #expect(permit.string("serviceProvider") == "REF30")
        #expect(permit.string("mvpd") == "NotBoarded")
        #expect(permit.string("source") == "mvpd")
        #expect(permit["authorized"] as? Bool == true)
        #expect(permit.int("notBefore") == now)
        #expect(permit.int("notAfter") == now + 3_600_000)
        let token = permit.object("token")
        #expect(token.int("notAfter") == now + 3_600_000)
        let serialized = try #require(token.string("serializedToken"))
        #expect(client.sandbox.verifyMediaToken(serialized))
        #expect(
            String(decoding: try #require(Data(base64Encoded: serialized)), as: UTF8.self).hasPrefix("<signatureInfo>"))
        #expect(
            !client.sandbox.verifyMediaToken(
                Data("<signatureInfo>00</signatureInfo><authToken/>".utf8).base64EncodedString()))

        let deny = list[1]
        #expect(deny["authorized"] as? Bool == false)
        #expect(deny["token"] == nil)
        let error = deny.object("error")
        #expect(error.int("status") == 403)
        #expect(error.string("code") == "authorization_denied_by_mvpd")
        #expect(error.string("action") == "none")
        #expect(error.string("message")?.isEmpty == false)
        #expect(error.string("details")?.contains("sports") == true)
        #expect(error.string("helpUrl")?.hasPrefix("https://") == true)
        #expect(error.string("trace") != nil)
    }

    @Test func mrssResourcesAreReadAndMalformedOnesRefused() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        let mrss =
            #"<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><title>sports</title><item><title>Final</title></item></channel></rss>"#
        let body = #"{"resources":["\#(mrss)", "<rss><channel>", "  "]}"#
        let list = try decisions(await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", body))
        try #require(list.count == 3)
        #expect(list[0]["authorized"] as? Bool == true)
        for bad in list[1...] {
            #expect(bad["authorized"] as? Bool == false)
            #expect(bad.object("error").string("code") == "invalid_parameter_resources")
            #expect(bad.object("error").int("status") == 400)
        }
        for invalidBody in [#"{"resources":[]}"#, "not json", #"{"resources":[1]}"#, #"{}"#] {
            let refused = await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", invalidBody)
            #expect(refused.status == 400)
            #expect(try SandboxTestClient.object(refused).string("code") == "invalid_parameter_resources")
        }
    }

    @Test func aProfileIsRequired() async throws {
        var world = SandboxWorld.default
        world.accessTokenTTL = 7 * 86_400  // outlives the profile
        let client = try await SandboxTestClient(sandbox: PassSandbox(world: world))
        let missing = await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["news"]}"#)
        #expect(missing.status == 403)
        let error = try SandboxTestClient.object(missing)
        #expect(error.string("code") == "authenticated_profile_missing")
        #expect(error.string("action") == "authentication")

        _ = try await client.login(mvpd: "NotBoarded")
        client.sandbox.clock.advance(by: 86_400)
        let expired = await client.postJSON(
            "/api/v2/REF30/decisions/preauthorize/NotBoarded", #"{"resources":["news"]}"#)
        #expect(expired.status == 403)
        #expect(try SandboxTestClient.object(expired).string("code") == "authenticated_profile_expired")

        let inactive = await client.postJSON("/api/v2/REF30/decisions/authorize/Inactive", #"{"resources":["news"]}"#)
        #expect(try SandboxTestClient.object(inactive).string("code") == "invalid_integration")
    }

    @Test func preauthorizeAnswersWithoutTokensUpToFiveResources() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded", username: "bob", password: "bob123")
        let list = try decisions(
            await client.postJSON(
                "/api/v2/REF30/decisions/preauthorize/NotBoarded", #"{"resources":["news","sports"]}"#))
        try #require(list.count == 2)
        #expect(list[0]["authorized"] as? Bool == true)
        #expect(list[0]["token"] == nil)
        #expect(list[0]["notAfter"] == nil)
        #expect(list[1].object("error").string("code") == "preauthorization_denied_by_mvpd")

        let six = #"{"resources":["a","b","c","d","e","f"]}"#
        let tooMany = await client.postJSON("/api/v2/REF30/decisions/preauthorize/NotBoarded", six)
        #expect(tooMany.status == 403)
        let error = try SandboxTestClient.object(tooMany)
        #expect(error.string("code") == "too_many_resources")
        #expect(error.string("action") == "configuration")
        #expect(
            await client.postJSON(
                "/api/v2/REF30/decisions/preauthorize/NotBoarded", #"{"resources":["a","b","c","d","e"]}"#
            ).status == 200)
    }

    @Test func degradationPermitsWithoutAProfile() async throws {
        let client = try await SandboxTestClient()
        let list = try decisions(
            await client.postJSON("/api/v2/REF30/decisions/authorize/Degraded", #"{"resources":["anything","news"]}"#))
        for decision in list {
            #expect(decision["authorized"] as? Bool == true)
            #expect(decision.string("source") == "degradation")
            #expect(decision.object("token").string("serializedToken") != nil)
        }
        client.sandbox.updateMVPD("Degraded") { $0.degraded = false }
        let normal = await client.postJSON("/api/v2/REF30/decisions/authorize/Degraded", #"{"resources":["news"]}"#)
        #expect(normal.status == 403)
    }

    @Test func tempPassPermitsUntilItsWindowEnds() async throws {
        let client = try await SandboxTestClient()
        let first = try decisions(
            await client.postJSON("/api/v2/REF30/decisions/authorize/TempPass", #"{"resources":["news"]}"#))
        try #require(first.count == 1)
        #expect(first[0]["authorized"] as? Bool == true)
        #expect(first[0].string("source") == "temppass")
        #expect(first[0].int("notAfter") == client.sandbox.clock.now.epochMilliseconds + 300_000)
        client.sandbox.clock.advance(by: 1_800)
        let later = try decisions(
            await client.postJSON("/api/v2/REF30/decisions/authorize/TempPass", #"{"resources":["news"]}"#))
        try #require(later.count == 1)
        #expect(later[0]["authorized"] as? Bool == false)
        #expect(later[0].object("error").string("code") == "temporary_access_duration_limit_exceeded")
    }

    @Test func appleSSOProfilesNeedAValidPartnerStatus() async throws {
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
        #expect(
            await client.postForm(
                "/api/v2/REF30/profiles/sso/Apple",
                "SAMLResponse=" + SandboxEngine.formEncode(Data(saml.utf8).base64EncodedString()), partnerStatus: pfs
            ).status
                == 201)

        let permitted = try decisions(
            await client.postJSON(
                "/api/v2/REF30/decisions/authorize/AppleBoarded", #"{"resources":["sports"]}"#, partnerStatus: pfs))
        try #require(permitted.count == 1)
        #expect(permitted[0]["authorized"] as? Bool == true)
        let withoutStatus = await client.postJSON(
            "/api/v2/REF30/decisions/authorize/AppleBoarded", #"{"resources":["sports"]}"#)
        #expect(withoutStatus.status == 400)
        #expect(
            try SandboxTestClient.object(withoutStatus).string("code")
                == "invalid_header_pfs_permission_access_not_present")
        let denied = await client.postJSON(
            "/api/v2/REF30/decisions/authorize/AppleBoarded", #"{"resources":["sports"]}"#,
            partnerStatus: SandboxTestClient.partnerStatus(access: "denied", expiresAt: now.addingTimeInterval(3_600)))
        #expect(
            try SandboxTestClient.object(denied).string("code") == "invalid_header_pfs_permission_access_not_granted")
    }
}
