import Foundation
import Testing

@testable import AccessEnabler

/// The no-network validity rule of checkAuthentication.
@Suite struct DecisionProfileValidityTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let mvpds: [String: MVPD] = [
        "NotBoarded": MVPD(id: "NotBoarded", displayName: "Not Boarded"),
        "AppleBoarded": MVPD(
            id: "AppleBoarded", displayName: "Apple Boarded", enablePlatformServices: true, boardingStatus: "SUPPORTED",
            platformMappingId: "AppleMap"),
        "SSOOff": MVPD(
            id: "SSOOff", displayName: "SSO Off", enablePlatformServices: false, platformMappingId: "SSOOffMap"),
    ]

    static func profile(
        _ mvpd: String, _ type: StoredProfileType = .regular, from start: TimeInterval = -60,
        to end: TimeInterval = 3_600, partner: String? = nil
    ) -> StoredProfile {
        StoredProfile(
            requestor: "REF30", mvpd: mvpd, type: type, notBefore: now.addingTimeInterval(start),
            notAfter: now.addingTimeInterval(end),
            attributes: [:], tokenSource: type == .appleSSO ? "Apple" : nil, partnerProviderID: partner,
            serviceProviderURL: nil)
    }

    static func signedIn(_ provider: String?, access: PartnerAccessResult = .granted, expires: TimeInterval? = 3_600)
        -> PartnerSnapshot
    {
        PartnerSnapshot(
            access: access,
            account: PartnerAccountMetadata(
                accountProviderIdentifier: provider,
                authenticationExpirationDate: expires.map { now.addingTimeInterval($0) }))
    }

    @Test func aRegularProfileInItsWindowWithAnActiveIntegrationIsValid() {
        #expect(
            ProfileValidity.evaluate(
                Self.profile("NotBoarded"), configuredMVPDs: Self.mvpds, partner: nil, now: Self.now) == .valid)
        #expect(!ProfileValidity.needsPartner(Self.profile("NotBoarded")))
        #expect(!ProfileValidity.needsPartner(nil))
    }

    @Test func theWindowIsHalfOpen() {
        #expect(
            ProfileValidity.evaluate(
                Self.profile("NotBoarded", from: 0, to: 10), configuredMVPDs: Self.mvpds, partner: nil, now: Self.now)
                == .valid)
        #expect(
            ProfileValidity.evaluate(
                Self.profile("NotBoarded", from: -10, to: 0), configuredMVPDs: Self.mvpds, partner: nil, now: Self.now)
                == .expired)
    }

    @Test func aNotBeforeUpTo300SecondsAheadIsTolerated() {
        // HTTP dates carry whole seconds and clocks drift: a profile minted this second may start "after" now.
        #expect(
            ProfileValidity.evaluate(
                Self.profile("NotBoarded", from: 1, to: 3_600), configuredMVPDs: Self.mvpds, partner: nil, now: Self.now
            ) == .valid)
        #expect(
            ProfileValidity.evaluate(
                Self.profile("NotBoarded", from: 300, to: 3_600), configuredMVPDs: Self.mvpds, partner: nil,
                now: Self.now) == .valid)
        #expect(
            ProfileValidity.evaluate(
                Self.profile("NotBoarded", from: 301, to: 3_600), configuredMVPDs: Self.mvpds, partner: nil,
                now: Self.now) == .expired, "not valid yet")
        #expect(Self.profile("NotBoarded", from: 301, to: 3_600).timing(at: Self.now) == .notValidYet)
        #expect(Self.profile("NotBoarded", from: 300, to: 3_600).timing(at: Self.now) == .inForce)
        #expect(Self.profile("NotBoarded", from: -10, to: 0).timing(at: Self.now) == .alreadyOver)
        #expect(
            Self.profile("NotBoarded", from: 400, to: 0).timing(at: Self.now) == .alreadyOver,
            "over wins over not begun")
    }

    @Test func aNewSignInOutsideItsWindowIsNamedForWhatItIs() {
        let ahead = EngineStateMachine.clockProblem(Self.profile("NotBoarded", from: -7_200, to: -3_600), at: Self.now)
        #expect(ahead?.contains("already over") == true)
        let behind = EngineStateMachine.clockProblem(Self.profile("NotBoarded", from: 3_600, to: 7_200), at: Self.now)
        #expect(behind?.contains("not valid yet") == true)
        #expect(EngineStateMachine.clockProblem(Self.profile("NotBoarded", from: 200, to: 7_200), at: Self.now) == nil)
    }

    @Test func anMVPDMissingFromTheConfigurationInvalidatesItsProfile() {
        #expect(
            ProfileValidity.evaluate(Self.profile("Inactive"), configuredMVPDs: Self.mvpds, partner: nil, now: Self.now)
                == .integrationInactive)
    }

    @Test func degradedAndTemporaryProfilesFollowTheRegularRule() {
        for type in [StoredProfileType.degraded, .temporary] {
            #expect(
                ProfileValidity.evaluate(
                    Self.profile("NotBoarded", type), configuredMVPDs: Self.mvpds, partner: nil, now: Self.now)
                    == .valid)
            #expect(
                ProfileValidity.evaluate(
                    Self.profile("NotBoarded", type, to: -1), configuredMVPDs: Self.mvpds, partner: nil, now: Self.now)
                    == .expired)
        }
    }

    @Test func aPartnerProfileNeedsSSOAndTheSameSystemSignIn() {
        let sso = Self.profile("AppleBoarded", .appleSSO, partner: "AppleMap")
        #expect(ProfileValidity.needsPartner(sso))
        #expect(
            ProfileValidity.evaluate(
                sso, configuredMVPDs: Self.mvpds, partner: Self.signedIn("AppleMap"), now: Self.now) == .valid)
        #expect(
            ProfileValidity.evaluate(sso, configuredMVPDs: Self.mvpds, partner: nil, now: Self.now)
                == .partnerSignInGone)
        #expect(
            ProfileValidity.evaluate(sso, configuredMVPDs: Self.mvpds, partner: Self.signedIn("Other"), now: Self.now)
                == .partnerSignInGone)
        #expect(
            ProfileValidity.evaluate(
                sso, configuredMVPDs: Self.mvpds, partner: Self.signedIn("AppleMap", access: .denied), now: Self.now)
                == .partnerSignInGone)
        // The Apple SSO overview's TTL table: an expired device token with the same account
        // still signed in leaves a valid Adobe profile valid.
        #expect(
            ProfileValidity.evaluate(
                sso, configuredMVPDs: Self.mvpds, partner: Self.signedIn("AppleMap", expires: -1), now: Self.now)
                == .valid)
        let ssoOff = Self.profile("SSOOff", .appleSSO, partner: "SSOOffMap")
        #expect(
            ProfileValidity.evaluate(
                ssoOff, configuredMVPDs: Self.mvpds, partner: Self.signedIn("SSOOffMap"), now: Self.now) == .ssoDisabled
        )
    }

    @Test func aPartnerProfileWithoutItsOwnProviderIdUsesTheMappingId() {
        let sso = Self.profile("AppleBoarded", .appleSSO, partner: nil)
        #expect(
            ProfileValidity.evaluate(
                sso, configuredMVPDs: Self.mvpds, partner: Self.signedIn("AppleMap"), now: Self.now) == .valid)
    }

    @Test func expiryIsCheckedBeforeAnythingElse() {
        let sso = Self.profile("Gone", .appleSSO, to: -1)
        #expect(ProfileValidity.evaluate(sso, configuredMVPDs: [:], partner: nil, now: Self.now) == .expired)
    }
}
