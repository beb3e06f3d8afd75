import Foundation

/// Decides, with no network call, whether a stored profile still authenticates the user.
///
/// A profile is valid when its time window contains `now`, its MVPD is still in the
/// configuration when the SDK has one (an active integration), and — for a profile obtained
/// through partner single sign-on — SSO is still enabled for that MVPD and the partner
/// framework reports permission granted with the same provider's account signed in (its
/// device token may have expired: the Adobe profile's own TTL then decides). Without a
/// configuration (a launch asks none while a profile is in force) the MVPD is judged as it
/// was stored with the profile; Adobe Pass's `GET profiles` at setRequestor has already
/// dropped a profile whose integration ended.
enum ProfileValidity {
    enum Verdict: Sendable, Equatable {
        case valid
        case expired
        case integrationInactive
        case ssoDisabled
        case partnerSignInGone
    }

    /// `configuredMVPDs`: the configuration's MVPDs, `nil` when the SDK has no configuration.
    static func evaluate(
        _ profile: StoredProfile, configuredMVPDs: [String: MVPD]?, partner: PartnerSnapshot?, now: Date
    ) -> Verdict {
        guard profile.isValid(at: now) else { return .expired }
        let mvpd: MVPD?
        if let configuredMVPDs {
            guard let configured = configuredMVPDs[profile.mvpd] else { return .integrationInactive }
            mvpd = configured
        } else {
            mvpd = profile.provider?.facadeMVPD
        }
        guard profile.type == .appleSSO else { return .valid }
        // A provider stored before its description was (older files): the partner decides.
        if let mvpd, !mvpd.enablePlatformServices { return .ssoDisabled }
        // The account must still be there; its device token may have expired (TTL table).
        guard let partner, let signedIn = partner.accountProviderID,
            signedIn == (profile.partnerProviderID ?? mvpd?.platformMappingId ?? profile.mvpd)
        else { return .partnerSignInGone }
        return .valid
    }

    /// `true` when judging `profile` needs the partner framework's answer.
    static func needsPartner(_ profile: StoredProfile?) -> Bool { profile?.type == .appleSSO }
}
