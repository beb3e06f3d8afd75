import Foundation

extension EntitlementEngine {
    /// Runs a REST call; when Adobe Pass answers with an enhanced error whose `action` is
    /// `configuration`, refetches the requestor's configuration once and runs it once more
    /// (a dashboard change the cached configuration does not know yet).
    func followingConfigurationAdvice<T: Sendable>(_ body: () async throws(RESTClientError) -> T) async throws(RESTClientError) -> T {
        do {
            return try await body()
        } catch where error.advice?.asksForConfiguration == true {
            await refreshConfiguration()
            return try await body()
        }
    }

    /// Refetches the requestor's configuration; keeps the cached one when that fails.
    func refreshConfiguration() async {
        guard let requestor = requestorID, case .success(let refreshed) = await loadCatalog(requestor: requestor, from: requestorClients) else { return }
        catalog = refreshed
    }

    /// When Adobe Pass says the user's sign-in is over (``ServerAdvice/signInEnded``:
    /// `authenticated_profile_missing`, `_expired`, `_invalidated`, …, or a used-up
    /// TempPass), the local profile goes too, so checkAuthentication answers 0 at once.
    /// Returns the status that tells the app why, or `nil` when the error says nothing about
    /// the sign-in.
    func dropProfileIfTheServerEndedIt(_ error: EnhancedError?, resource: String? = nil) -> AdvancedStatus? {
        guard let error, let requestor = requestorID else { return nil }
        switch error.advice {
        case .signInEnded: break
        case .tempPassUsedUp:
            // A TempPass that is used up is a denial to report as such (Z100 with its
            // reason): the caller reports it; the profile is gone all the same.
            store.removeProfile(requestor: requestor)
            return nil
        case .requestRefused, .invalidResource, .integrationUnavailable, .authenticationSessionGone, .deniedByMVPD,
             .deniedByDegradationRule, .tooManyResources, .configurationChanged, .clientUnknown, .authorizationNeeded, .transient,
             .serverFailure:
            return nil
        }
        store.removeProfile(requestor: requestor)
        return StatusCatalog.status(
            .n130,
            message: "Adobe Pass no longer has this sign-in (\(error.code)): it was removed from this device; sign in again with getAuthentication().",
            details: error.details, resource: resource, enhancedError: error)
    }
}

extension EntitlementEngine {
    /// Status CFG100 (warning) the first time the device clock is found far from Adobe
    /// Pass's: the SDK corrects for it, but the app should have the user fix the clock.
    func reportClockDifferenceIfNew() {
        guard let offset = serverClock.takeUnreportedOffset() else { return }
        let direction = offset > 0 ? "behind" : "ahead of"
        emitStatus(StatusCatalog.status(
            .cfg100,
            message: "This device's clock is \(Self.duration(abs(offset))) \(direction) Adobe Pass's. The SDK judges sign-ins with Adobe's time, but ask the user to set the correct date and time.",
            details: "offset \(Int(offset.rounded())) s"))
    }

    /// CFG100 when the profile just stored is already over by Adobe's time as far as this
    /// device can tell; `nil` when it is valid.
    func newProfileExpiredByAdobesTime() -> AdvancedStatus? {
        guard let requestorID, let profile = currentProfile(requestor: requestorID), !profile.isValid(at: adobeNow) else { return nil }
        return StatusCatalog.status(
            .cfg100,
            message: "The new sign-in with \(profile.mvpd) is already over by this device's clock: check the device's date and time, then sign in again.")
    }

    private static func duration(_ seconds: TimeInterval) -> String {
        if seconds >= 86_400 { return "\(Int((seconds / 86_400).rounded())) day(s)" }
        if seconds >= 3_600 { return "\(Int((seconds / 3_600).rounded())) hour(s)" }
        return "\(Int((seconds / 60).rounded())) minute(s)"
    }
}
