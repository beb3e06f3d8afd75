import Foundation

/// What Adobe Pass's `invalid_integration` ("the integration between the specified service
/// provider and mvpd does not exist or is disabled") makes of the device's state, as pure
/// decisions. It is a dashboard change, never a transport error: the profile of that MVPD
/// ends, so does the provider remembered for "Continue with", and the configuration the
/// device holds is out of date (the next provider list asks for it again). Adobe's page lists
/// the code under the action `none`; the SDK reads the code, whatever action comes with it.
enum IntegrationEnded {
    /// Whether `error` says the integration with the MVPD a request named is over.
    static func applies(to error: EnhancedError?) -> Bool {
        error?.advice == .integrationUnavailable
    }

    /// The profiles without those of `mvpd`: a profile set aside for a TempPass of that MVPD
    /// comes back in force; the provider remembered for "Continue with" goes when it is that
    /// MVPD. Media tokens of `mvpd` go; the preauthorization answers go when the profile in
    /// force changed.
    static func dropping(_ mvpd: String, from stored: RequestorProfiles) -> ProfileChange {
        var profiles = stored
        if profiles.chosen?.mvpd == mvpd {
            profiles.chosen = profiles.standby
            profiles.standby = nil
        }
        if profiles.standby?.mvpd == mvpd { profiles.standby = nil }
        profiles.others.removeAll { $0.mvpd == mvpd }
        if profiles.remembered?.id == mvpd { profiles.remembered = nil }
        let kept = Set(profiles.all.map(\.mvpd))
        return ProfileChange(
            profiles: profiles, keepingMediaTokensOf: kept,
            droppingPreauthorizations: stored.chosen?.mvpd != profiles.chosen?.mvpd)
    }

    /// The status a call that Adobe Pass refused this way reports: N000, "not authenticated"
    /// with that MVPD, saying why and what to do.
    static func status(
        mvpd: String, requestor: String, error: EnhancedError, resource: String? = nil
    ) -> AdvancedStatus {
        let message =
            "The integration of \(requestor) with \(mvpd) is disabled or no longer exists (invalid_integration): "
            + "the sign-in with \(mvpd) was removed from this device. "
            + "Let the person choose another TV provider (getAuthentication())."
        return StatusCatalog.status(
            .n000, message: message, details: error.details, resource: resource, enhancedError: error)
    }
}

extension StoredConfiguration {
    /// The same configuration marked as too old to reuse: a relaunch asks for it again.
    var outdated: StoredConfiguration {
        var copy = self
        copy.fetchedAt = .distantPast
        return copy
    }
}
