import Foundation

/// Decides, with no network call, whether a stored profile still authenticates the user.
///
/// A profile is valid when its time window contains `now`, its MVPD is still in the cached
/// configuration (an active integration), and — for a profile obtained through partner
/// single sign-on — SSO is still enabled for that MVPD and the partner framework reports
/// permission granted with the same provider's account signed in (its device token may
/// have expired: the Adobe profile's own TTL then decides).
enum ProfileValidity {
    enum Verdict: Sendable, Equatable {
        case valid
        case expired
        case integrationInactive
        case ssoDisabled
        case partnerSignInGone
    }

    static func evaluate(_ profile: StoredProfile, configuredMVPDs: [String: MVPD], partner: PartnerSnapshot?, now: Date) -> Verdict {
        guard profile.isValid(at: now) else { return .expired }
        guard let mvpd = configuredMVPDs[profile.mvpd] else { return .integrationInactive }
        guard profile.type == .appleSSO else { return .valid }
        guard mvpd.enablePlatformServices else { return .ssoDisabled }
        // The account must still be there; its device token may have expired (TTL table).
        guard let partner, let signedIn = partner.accountProviderID,
            signedIn == (profile.partnerProviderID ?? mvpd.platformMappingId)
        else { return .partnerSignInGone }
        return .valid
    }

    /// `true` when judging `profile` needs the partner framework's answer.
    static func needsPartner(_ profile: StoredProfile?) -> Bool { profile?.type == .appleSSO }
}
