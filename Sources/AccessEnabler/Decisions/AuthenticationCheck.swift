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
    static func needsPartner(profile: StoredProfile?, catalog: RequestorCatalog?, partnerConfigured: Bool, now: Date)
        -> Bool
    {
        needsPartner(
            profile: profile, platformServices: catalog?.hasPlatformServices, mvpds: catalog?.mvpdsByID,
            partnerConfigured: partnerConfigured, now: now)
    }

    /// ``needsPartner(profile:catalog:partnerConfigured:now:)`` from the two facts of the
    /// catalog it reads: whether an MVPD has platform services (`nil` with no
    /// configuration), and the MVPDs by id.
    static func needsPartner(
        profile: StoredProfile?, platformServices: Bool?, mvpds: [String: MVPD]?, partnerConfigured: Bool, now: Date
    ) -> Bool {
        guard partnerConfigured else { return false }
        // A configuration with no partner SSO at all judges an `appleSSO` profile on its own.
        if profile?.type == .appleSSO { return platformServices ?? true }
        guard platformServices == true else { return false }
        guard let profile else { return true }
        return ProfileValidity.evaluate(profile, configuredMVPDs: mvpds, partner: nil, now: now) != .valid
    }

    /// The valid profile, if any, and the status that explains a "no".
    static func verdict(
        profile stored: StoredProfile?, catalog: RequestorCatalog?, snapshot: PartnerSnapshot?, now: Date
    ) -> (profile: StoredProfile?, status: AdvancedStatus?) {
        verdict(profile: stored, mvpds: catalog?.mvpdsByID, snapshot: snapshot, now: now)
    }

    /// ``verdict(profile:catalog:snapshot:now:)`` from the catalog's MVPDs by id (`nil`
    /// with no configuration).
    static func verdict(profile stored: StoredProfile?, mvpds: [String: MVPD]?, snapshot: PartnerSnapshot?, now: Date)
        -> (profile: StoredProfile?, status: AdvancedStatus?)
    {
        if let stored, ProfileValidity.evaluate(stored, configuredMVPDs: mvpds, partner: snapshot, now: now) == .valid {
            return (stored, nil)
        }
        var status = snapshot.flatMap { PartnerPermission.status($0.access, errorID: .applError) }
        if status == nil, let failure = snapshot?.metadataError {
            // Permission granted, but the account could not be read: a partner framework error.
            status = StatusCatalog.status(
                .applError, message: "The TV provider account service could not be read.",
                details: "\(failure.code): \(failure.message)")
        }
        return (nil, status)
    }

    /// The callbacks of a check of `stored` at `now`: ``verdict(profile:mvpds:snapshot:now:)``,
    /// then ``callbacks(profile:status:tracking:)``. A valid profile, the common answer, is
    /// judged in place, without copying it into the verdict and out again (checkAuthentication
    /// answered outside the engine runs this at every call).
    static func callbacks(
        profile stored: StoredProfile?, mvpds: [String: MVPD]?, snapshot: PartnerSnapshot?, now: Date,
        tracking: TrackingFields?
    ) -> [DelegateCall] {
        if let stored, ProfileValidity.evaluate(stored, configuredMVPDs: mvpds, partner: snapshot, now: now) == .valid {
            return callbacks(profile: stored, status: nil, tracking: tracking)
        }
        let verdict = verdict(profile: stored, mvpds: mvpds, snapshot: snapshot, now: now)
        return callbacks(profile: verdict.profile, status: verdict.status, tracking: tracking)
    }

    /// The callbacks: tracking then `setAuthenticationStatus(1, "")`, or the explaining
    /// status, tracking and `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
    /// Without `tracking` (nobody listens to tracking events: see
    /// ``CallbackDispatcher/wantsTrackingData``) the tracking event is left out.
    static func callbacks(profile: StoredProfile?, status: AdvancedStatus?, tracking: TrackingFields?) -> [DelegateCall]
    {
        guard let profile else {
            let explained = DelegateCall.status(
                status ?? StatusCatalog.status(.n000, message: "The user is not authenticated."))
            let ended = DelegateCall.setAuthenticationStatus(
                ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR)
            guard let tracking else { return [explained, ended] }
            return [explained, tracking.authentication(succeeded: false, profile: nil, cached: false), ended]
        }
        let ended = DelegateCall.setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED)
        guard let tracking else { return [ended] }
        return [tracking.authentication(succeeded: true, profile: profile, cached: true), ended]
    }

    /// The callbacks when the requestor is not ready.
    static func callbacks(requestorProblem: AdvancedStatus) -> [DelegateCall] {
        [
            .status(requestorProblem),
            .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR),
        ]
    }
}
