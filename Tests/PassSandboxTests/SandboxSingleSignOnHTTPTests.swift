import Foundation
import Testing

@testable import PassSandbox

/// Single sign-on through a service token (`AD-Service-Token`) or a platform identity
/// (`Adobe-Subject-Token`), and single logout, over loopback HTTP: applications of two
/// requestors (`REF30` through `STATEMENT`, `REF31` through `STATEMENT2`) on separate
/// devices, each with its own client registration.
@Suite("Single sign-on with identity tokens over loopback HTTP")
struct SandboxSingleSignOnHTTPTests {
    /// App A: REF30 on the living-room TV; app B: REF31 on a phone. Both present a service
    /// token for jane when `token` is set.
    private func twoApps(_ rig: LoopbackRig, token: String?) async throws -> (a: LoopbackApp, b: LoopbackApp) {
        let a = try await LoopbackApp.register(on: rig, deviceID: "living-room-tv", serviceToken: token)
        let b = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "janes-phone", serviceToken: token)
        return (a, b)
    }

    @Test func aServiceTokenSignsInAnotherRequestorsAppOnAnotherDevice() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let jane = try rig.sandbox.issueIdentityToken(subject: "jane")
        let (a, b) = try await twoApps(rig, token: jane)
        try await a.login(mvpd: "NotBoarded")

        let own = try await a.profileMap().object("NotBoarded")
        #expect(own.string("type") == "regular")

        let shared = try await b.profileMap()
        #expect(Array(shared.keys) == ["NotBoarded"])
        let profile = shared.object("NotBoarded")
        #expect(profile.string("type") == "serviceTokenSSO")
        #expect(profile.string("issuer") == "NotBoarded")
        #expect(profile.int("notBefore") == own.int("notBefore"))
        #expect(profile.int("notAfter") == own.int("notAfter"))
        let attributes = profile.object("attributes")
        #expect(attributes.object("upstreamUserID").string("value") == "u-alice")
        #expect(attributes.object("userID").string("value") == "u-alice")
        #expect(attributes.object("mvpd").string("value") == "NotBoarded")
        #expect(attributes.object("mvpd").string("state") == "plain")

        let single = try await b.profile(mvpd: "NotBoarded")
        #expect(single.status == 200)
        #expect(try single.object().object("profiles").object("NotBoarded").string("type") == "serviceTokenSSO")

        let decision = try await b.decide(mvpd: "NotBoarded", resources: ["news", "movies"])
        #expect(decision.status == 200)
        let decisions = try #require(try decision.object()["decisions"] as? [[String: Any]])
        try #require(decisions.count == 2)
        #expect(decisions[0]["authorized"] as? Bool == true)
        #expect(decisions[0].string("source") == "mvpd")
        #expect(decisions[0].object("token").string("serializedToken").map(rig.sandbox.verifyMediaToken) == true)
        #expect(decisions[1]["authorized"] as? Bool == false)
        #expect(decisions[1].object("error").string("code") == "authorization_denied_by_mvpd")
        let preauthorized = try await b.decide(mvpd: "NotBoarded", authorize: false)
        #expect(try (preauthorized.object()["decisions"] as? [[String: Any]])?.first?["authorized"] as? Bool == true)

        let session = try await b.createSession(mvpd: "NotBoarded").object()
        #expect(session.string("actionName") == "authorize")
        #expect(session.string("actionType") == "direct")
        #expect(session.string("reasonType") == "authenticatedSSO")
    }

    @Test func onlyTheSameIssuerAndSubjectFindTheProfile() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let (a, _) = try await twoApps(rig, token: try rig.sandbox.issueIdentityToken(subject: "jane"))
        try await a.login(mvpd: "NotBoarded")

        let john = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "johns-phone",
            serviceToken: try rig.sandbox.issueIdentityToken(subject: "john"))
        let noToken = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "janes-phone")
        let platform = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "janes-phone",
            platformIdentity: try rig.sandbox.issueIdentityToken(subject: "jane", issuer: "sandbox-platform"))
        for app in [john, noToken, platform] {
            #expect(try await app.profileMap().isEmpty)
            let refused = try await app.decide(mvpd: "NotBoarded")
            #expect(refused.status == 403)
            #expect(try refused.object().string("code") == "authenticated_profile_missing")
            #expect(try await app.profile(mvpd: "NotBoarded").object().object("profiles").isEmpty)
        }
    }

    @Test func aPlatformIdentitySharesAPlatformSSOProfile() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let device = try rig.sandbox.issueIdentityToken(subject: "tv-platform-user-7", issuer: "sandbox-platform")
        let a = try await LoopbackApp.register(on: rig, deviceID: "living-room-tv", platformIdentity: device)
        let b = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "living-room-tv", platformIdentity: device)
        try await a.login(mvpd: "AppleBoarded", username: "bob", password: "bob123")

        let profile = try await b.profileMap().object("AppleBoarded")
        #expect(profile.string("type") == "platformSSO")
        #expect(profile.string("issuer") == "AppleBoarded")
        #expect(profile.object("attributes").object("upstreamUserID").string("value") == "u-bob")
        let decision = try await b.decide(mvpd: "AppleBoarded", resources: ["sports"])
        #expect(
            try (decision.object()["decisions"] as? [[String: Any]])?.first?.object("error").string("code")
                == "authorization_denied_by_mvpd")
    }

    @Test func anIntegrationWithSingleSignOnDisabledNeitherSharesNorFinds() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let jane = try rig.sandbox.issueIdentityToken(subject: "jane")
        let (a, b) = try await twoApps(rig, token: jane)

        // The finder's integration has single sign-on off.
        #expect(rig.sandbox.updateMVPD("NotBoarded", requestor: "REF31") { $0.ssoEnabled = false })
        try await a.login(mvpd: "NotBoarded")
        #expect(try await b.profileMap().isEmpty)
        #expect(try await b.decide(mvpd: "NotBoarded").object().string("code") == "authenticated_profile_missing")
        #expect(try await b.createSession(mvpd: "NotBoarded").object().string("actionName") == "authenticate")
        #expect(rig.sandbox.updateMVPD("NotBoarded", requestor: "REF31") { $0.ssoEnabled = true })
        #expect(try await b.profileMap().object("NotBoarded").string("type") == "serviceTokenSSO")

        // The creator's integration has single sign-on off: its login is not shared.
        #expect(rig.sandbox.updateMVPD("AppleBoarded", requestor: "REF30") { $0.ssoEnabled = false })
        try await a.login(mvpd: "AppleBoarded")
        #expect(try await a.profileMap().object("AppleBoarded").string("type") == "regular")
        #expect(try await b.profileMap()["AppleBoarded"] == nil)
    }

    @Test func aSingleLogoutSignsOutEveryAppAndTheFirstAppsOwnProfile() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let jane = try rig.sandbox.issueIdentityToken(subject: "jane")
        let (a, b) = try await twoApps(rig, token: jane)
        try await a.login(mvpd: "NotBoarded")
        try await a.login(mvpd: "AppleBoarded")
        #expect(Set(try await b.profileMap().keys) == ["NotBoarded", "AppleBoarded"])

        let logout = try await b.logout(mvpd: "NotBoarded")
        #expect(logout.status == 200)
        let action = try logout.object().object("logouts").object("NotBoarded")
        #expect(action.string("actionName") == "logout")
        #expect(action.string("actionType") == "interactive")
        #expect(action.string("mvpd") == "NotBoarded")
        #expect(action.string("url")?.hasPrefix(rig.baseURL.absoluteString + "/adobe-services/logout?") == true)

        #expect(Array(try await b.profileMap().keys) == ["AppleBoarded"])
        #expect(Array(try await a.profileMap().keys) == ["AppleBoarded"])
        var withoutToken = a
        withoutToken.serviceToken = nil
        #expect(Array(try await withoutToken.profileMap().keys) == ["AppleBoarded"])
        #expect(
            try await withoutToken.decide(mvpd: "NotBoarded").object().string("code") == "authenticated_profile_missing"
        )
        #expect(try await a.createSession(mvpd: "NotBoarded").object().string("actionName") == "authenticate")

        let again = try await b.logout(mvpd: "NotBoarded").object().object("logouts").object("NotBoarded")
        #expect(again.string("actionName") == "invalid")
        #expect(again.string("actionType") == "none")
    }

    @Test func aLogoutWithoutTheTokenEndsOnlyTheDevicesOwnProfile() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let jane = try rig.sandbox.issueIdentityToken(subject: "jane")
        let (a, b) = try await twoApps(rig, token: jane)
        try await a.login(mvpd: "NotBoarded")

        var withoutToken = a
        withoutToken.serviceToken = nil
        let logout = try await withoutToken.logout(mvpd: "NotBoarded").object().object("logouts").object("NotBoarded")
        #expect(logout.string("actionName") == "logout")
        #expect(try await withoutToken.profileMap().isEmpty)
        #expect(try await b.profileMap().object("NotBoarded").string("type") == "serviceTokenSSO")
        // The first application, presenting the token again, now finds the shared profile.
        #expect(try await a.profileMap().object("NotBoarded").string("type") == "serviceTokenSSO")
    }

    @Test func badTokensAreRefusedWithAnEnhancedErrorAndChangeNothing() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let sandbox = rig.sandbox
        let jane = try sandbox.issueIdentityToken(subject: "jane")
        let (a, _) = try await twoApps(rig, token: jane)
        try await a.login(mvpd: "NotBoarded")

        let parts = jane.split(separator: ".").map(String.init)
        let otherPayload = SandboxBase64URL.encode(
            Array(#"{"iss":"sandbox-identity","sub":"mallory","aud":"Adobe","exp":1799999999}"#.utf8))
        let key = try #require(try SandboxDefaultIdentityKeys.serviceToken.rsaKeys().get().privateKey)
        let now = sandbox.clock.now.timeIntervalSince1970
        func signed(_ claims: SandboxJWTClaims) -> String { SandboxJWS.sign(claims, keyID: nil, with: key) }
        let independent = IndependentFixtures.token  // a valid signature, by an issuer this world does not know
        let bad: [(token: String, details: String)] = [
            (parts[0] + "." + otherPayload + "." + parts[2], "signature does not verify"),
            (
                signed(
                    SandboxJWTClaims(
                        issuer: "sandbox-identity", subject: "jane", audiences: ["Adobe"], issuedAt: now - 120,
                        expiresAt: now - 60)), "expired"
            ),
            (
                signed(
                    SandboxJWTClaims(
                        issuer: "sandbox-identity", subject: "jane", audiences: ["Other"], issuedAt: now,
                        expiresAt: now + 60)), "audience"
            ),
            (independent, "is not an identity service of this world"),
            (
                try sandbox.issueIdentityToken(subject: "jane", issuer: "sandbox-platform"),
                "send its tokens in the Adobe-Subject-Token header"
            ),
            (
                SandboxBase64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + ".",
                "Adobe Pass accepts RS256"
            ),
            (
                SandboxBase64URL.encode(Array(#"{"alg":"HS256"}"#.utf8)) + "." + parts[1] + "." + parts[2],
                "Adobe Pass accepts RS256"
            ),
            ("not-a-token", "not a JWS in compact form"),
        ]
        for (token, details) in bad {
            var app = a
            app.serviceToken = token
            let answer = try await app.profiles()
            #expect(answer.status == 400, "\(details)")
            let error = try answer.object()
            #expect(error.string("code") == "invalid_header_service_token")
            #expect(error.string("action") == "none")
            #expect(error.int("status") == 400)
            #expect(
                error.string("details")?.contains(details) == true,
                "\(error.string("details") ?? "no details") lacks \(details)")
            #expect(!answer.text.contains(token), "the refusal repeats the token")
        }

        // Every request whose page lists the header checks it; none acts on a bad token.
        var tampered = a
        tampered.serviceToken = bad[0].token
        let refusals = [
            try await tampered.createSession(mvpd: "NotBoarded"),
            try await tampered.createSession(mvpd: nil),
            try await tampered.profiles(),
            try await tampered.profile(mvpd: "NotBoarded"),
            try await tampered.decide(mvpd: "NotBoarded"),
            try await tampered.decide(mvpd: "NotBoarded", authorize: false),
            try await tampered.logout(mvpd: "NotBoarded"),
        ]
        for answer in refusals {
            #expect(answer.status == 400)
            #expect(try answer.object().string("code") == "invalid_header_service_token")
        }
        #expect(try await a.profileMap().object("NotBoarded").string("type") == "regular")

        var wrongHeader = a
        wrongHeader.serviceToken = nil
        wrongHeader.platformIdentity = jane
        let platformRefusal = try await wrongHeader.profiles()
        #expect(platformRefusal.status == 400)
        #expect(try platformRefusal.object().string("code") == "invalid_header_subject_token")
        #expect(
            try platformRefusal.object().string("details")?.contains("send its tokens in the AD-Service-Token header")
                == true)
    }

    @Test func anExpiredTokenIsRefusedEvenAfterItVerifiedOnce() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let shortLived = try rig.sandbox.issueIdentityToken(subject: "jane", validFor: 60)
        let (a, _) = try await twoApps(rig, token: shortLived)
        #expect(try await a.profiles().status == 200)
        rig.sandbox.clock.advance(by: 60)
        let refused = try await a.profiles()
        #expect(refused.status == 400)
        #expect(try refused.object().string("details")?.hasPrefix("The token expired at 2026-01-01T00:01:00Z") == true)
    }

    @Test func theAudienceIsAdobeInAnyCase() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let key = try #require(try SandboxDefaultIdentityKeys.serviceToken.rsaKeys().get().privateKey)
        let now = rig.sandbox.clock.now.timeIntervalSince1970
        for audiences in [["adobe"], ["ADOBE"], ["partner", "Adobe"]] {
            let token = SandboxJWS.sign(
                SandboxJWTClaims(
                    issuer: "sandbox-identity", subject: "jane", audiences: audiences, issuedAt: now,
                    expiresAt: now + 60),
                keyID: "sandbox-identity-2026", with: key)
            let app = try await LoopbackApp.register(on: rig, deviceID: "tv", serviceToken: token)
            #expect(try await app.profiles().status == 200, "audience \(audiences) was refused")
        }
    }

    @Test func aSharedProfileEndsWhenTheOriginalDoes() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let (a, _) = try await twoApps(rig, token: try rig.sandbox.issueIdentityToken(subject: "jane"))
        try await a.login(mvpd: "NotBoarded")
        rig.sandbox.clock.advance(by: 86_400)  // NotBoarded's authentication TTL; the token expires too
        var b = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "janes-phone",
            serviceToken: try rig.sandbox.issueIdentityToken(subject: "jane"))
        #expect(try await b.profileMap().isEmpty)
        #expect(try await b.decide(mvpd: "NotBoarded").object().string("code") == "authenticated_profile_expired")
        b.serviceToken = nil
        #expect(try await b.decide(mvpd: "NotBoarded").object().string("code") == "authenticated_profile_missing")
    }

    @Test func invalidationReachesTheSharedProfile() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let (a, b) = try await twoApps(rig, token: try rig.sandbox.issueIdentityToken(subject: "jane"))
        try await a.login(mvpd: "NotBoarded")
        let livingRoom = "fingerprint " + Data("living-room-tv".utf8).base64EncodedString()
        #expect(rig.sandbox.invalidateProfiles(mvpd: "NotBoarded", deviceIdentifier: livingRoom) == 2)
        #expect(try await b.profileMap().isEmpty)
        #expect(try await b.profile(mvpd: "NotBoarded").object().string("code") == "authenticated_profile_invalidated")
        #expect(try await b.decide(mvpd: "NotBoarded").object().string("code") == "authenticated_profile_invalidated")
    }

    @Test func serverLogoutDeletesTheMVPDsProfilesOfEveryDevice() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let (a, b) = try await twoApps(rig, token: try rig.sandbox.issueIdentityToken(subject: "jane"))
        try await a.login(mvpd: "NotBoarded")
        try await a.login(mvpd: "AppleBoarded")
        let kitchen = try await LoopbackApp.register(on: rig, deviceID: "kitchen-tv")
        try await kitchen.login(mvpd: "NotBoarded", username: "bob", password: "bob123")
        _ = try await kitchen.createSession(mvpd: "TempPass")

        // a's and the kitchen's regular profiles, and the one shared through jane's token.
        #expect(rig.sandbox.serverLogout(mvpd: "NotBoarded") == 3)
        #expect(Array(try await a.profileMap().keys) == ["AppleBoarded"])
        #expect(Array(try await b.profileMap().keys) == ["AppleBoarded"])
        #expect(Array(try await kitchen.profileMap().keys) == ["TempPass"])
        for app in [a, b, kitchen] {
            #expect(try await app.decide(mvpd: "NotBoarded").object().string("code") == "authenticated_profile_missing")
        }
        #expect(rig.sandbox.serverLogout(mvpd: "NotBoarded") == 0)
        #expect(rig.sandbox.serverLogout(mvpd: "TempPass") == 0)
    }

    @Test func getProfilesListsEveryValidProfileOfTheDevice() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let jane = try rig.sandbox.issueIdentityToken(subject: "jane")
        let phone = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "janes-phone", serviceToken: jane)
        try await phone.login(mvpd: "AppleBoarded")
        var tvApp = try await LoopbackApp.register(on: rig, deviceID: "den-tv")
        try await tvApp.login(mvpd: "NotBoarded")
        try await tvApp.login(mvpd: "PickerOnly", username: "bob", password: "bob123")
        _ = try await tvApp.createSession(mvpd: "TempPass")
        #expect(try await tvApp.profileMap().keys.sorted() == ["NotBoarded", "PickerOnly", "TempPass"])
        tvApp.serviceToken = jane

        let profiles = try await tvApp.profileMap()
        #expect(profiles.keys.sorted() == ["AppleBoarded", "NotBoarded", "PickerOnly", "TempPass"])
        #expect(profiles.object("NotBoarded").string("type") == "regular")
        #expect(profiles.object("PickerOnly").object("attributes").object("userID").string("value") == "u-bob")
        #expect(profiles.object("TempPass").string("type") == "temporary")
        #expect(profiles.object("TempPass").string("issuer") == "Adobe")
        #expect(profiles.object("AppleBoarded").string("type") == "serviceTokenSSO")

        rig.sandbox.clock.advance(by: 1_800)  // TempPass's window
        #expect(try await tvApp.profileMap().keys.sorted() == ["AppleBoarded", "NotBoarded", "PickerOnly"])
    }

    @Test func theSecondScreenOffersEveryMVPDAndTheTVGetsTheChosenOnesProfile() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let browser = SimulatedUserAgent(httpBase: rig.baseURL)
        let tv = try await LoopbackApp.register(on: rig, deviceID: "bedroom-tv")
        let code = try #require(try await tv.createSession(mvpd: nil).object().string("code"))
        let active = SandboxWorld.default.serviceProvider("REF30")?.mvpds.filter(\.integrationActive).map(\.id) ?? []
        var refusal: SimulatedUserAgentError?
        do {
            _ = try await browser.activate(code: code, username: "alice", password: "alice123")
        } catch {
            refusal = error
        }
        guard case .providerChoiceRequired(let offered)? = refusal else {
            Issue.record("the second screen did not ask for a provider: \(String(describing: refusal))")
            return
        }
        #expect(offered.sorted() == active.sorted())
        #expect(
            try await browser.activate(code: code, username: "bob", password: "bob123", mvpd: "SVCProvider")
                == "SVCProvider")
        let profile = try await tv.profile(code: code).object().object("profiles")
        #expect(Array(profile.keys) == ["SVCProvider"])
        #expect(profile.object("SVCProvider").object("attributes").object("userID").string("value") == "u-bob")
    }

    @Test func aTVSignedInThroughItsTokenWhenThePersonChoosesASharedProvider() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let jane = try rig.sandbox.issueIdentityToken(subject: "jane")
        let phone = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "janes-phone", serviceToken: jane)
        try await phone.login(mvpd: "NotBoarded")
        let tv = try await LoopbackApp.register(on: rig, deviceID: "bedroom-tv", serviceToken: jane)
        let code = try #require(try await tv.createSession(mvpd: nil).object().string("code"))

        let chosen = try await rig.postPage("/activate", [("code", code), ("mvpd", "NotBoarded")])
        #expect(chosen.status == 200)
        #expect(SandboxPageKind(html: chosen.text) == .signedIn)
        #expect(chosen.text.contains("already signed in with Not Boarded Cable in another application"))
        #expect(
            try await tv.profile(code: code).object().object("profiles").object("NotBoarded").string("type")
                == "serviceTokenSSO")
    }

    @Test func aLoginOnTheSecondScreenIsSharedThroughTheTokenTheTVPresented() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let jane = try rig.sandbox.issueIdentityToken(subject: "jane")
        let tv = try await LoopbackApp.register(on: rig, deviceID: "bedroom-tv", serviceToken: jane)
        let code = try #require(try await tv.createSession(mvpd: nil).object().string("code"))
        let browser = SimulatedUserAgent(httpBase: rig.baseURL)
        #expect(
            try await browser.activate(code: code, username: "alice", password: "alice123", mvpd: "NotBoarded")
                == "NotBoarded")
        #expect(
            try await tv.profile(code: code).object().object("profiles").object("NotBoarded").string("type")
                == "regular")

        let phone = try await LoopbackApp.register(
            on: rig, statement: "STATEMENT2", requestor: "REF31", deviceID: "janes-phone", serviceToken: jane)
        #expect(try await phone.profileMap().object("NotBoarded").string("type") == "serviceTokenSSO")
    }
}
