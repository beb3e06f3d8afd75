import Foundation

/// The answer of `checkAuthentication`, as the callbacks it delivers — a pure function of
/// the requestor's state, the stored profile, the clock and (when it is needed) the partner
/// framework's answer. The engine and the facade's synchronous path both use it, so they
/// cannot answer differently.
enum AuthenticationCheck {
    /// Whether the answer needs the partner framework: a profile obtained through partner
    /// single sign-on, or no valid regular profile while partner SSO applies (the partner's
    /// permission then explains the "no": VSA403, VSA404, APPL_ERROR). `catalog` is the
    /// configuration, `nil` when the SDK has none: partner SSO then applies only to a
    /// profile it made.
    static func needsPartner(profile: StoredProfile?, catalog: RequestorCatalog?, partnerConfigured: Bool, now: Date) -> Bool {
        guard partnerConfigured else { return false }
        // A configuration with no partner SSO at all judges an `appleSSO` profile on its own.
        if profile?.type == .appleSSO { return catalog?.hasPlatformServices ?? true }
        guard catalog?.hasPlatformServices == true else { return false }
        guard let profile else { return true }
        return ProfileValidity.evaluate(profile, configuredMVPDs: catalog?.mvpdsByID, partner: nil, now: now) != .valid
    }

    /// The valid profile, if any, and the status that explains a "no".
    static func verdict(profile stored: StoredProfile?, catalog: RequestorCatalog?, snapshot: PartnerSnapshot?, now: Date) -> (profile: StoredProfile?, status: AdvancedStatus?) {
        if let stored, ProfileValidity.evaluate(stored, configuredMVPDs: catalog?.mvpdsByID, partner: snapshot, now: now) == .valid {
            return (stored, nil)
        }
        var status = snapshot.flatMap { PartnerPermission.status($0.access, errorID: .applError) }
        if status == nil, let failure = snapshot?.metadataError {
            // Permission granted, but the account could not be read: a partner framework error.
            status = StatusCatalog.status(.applError, message: "The TV provider account service could not be read.", details: "\(failure.code): \(failure.message)")
        }
        return (nil, status)
    }

    /// The callbacks: tracking then `setAuthenticationStatus(1, "")`, or the explaining
    /// status, tracking and `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
    static func callbacks(profile: StoredProfile?, status: AdvancedStatus?, tracking: TrackingFields) -> [DelegateCall] {
        if let profile {
            return [
                tracking.authentication(succeeded: true, profile: profile, cached: true),
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED),
            ]
        }
        return [
            .status(status ?? StatusCatalog.status(.n000, message: "The user is not authenticated.")),
            tracking.authentication(succeeded: false, profile: nil, cached: false),
            .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR),
        ]
    }

    /// The callbacks when the requestor is not ready.
    static func callbacks(requestorProblem: AdvancedStatus) -> [DelegateCall] {
        [.status(requestorProblem), .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR)]
    }
}
