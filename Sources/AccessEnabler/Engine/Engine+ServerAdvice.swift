import Foundation

extension EntitlementEngine {
    /// Runs a REST call; when Adobe Pass answers with an enhanced error whose `action` is
    /// `configuration`, refetches the requestor's configuration once and runs it once more
    /// (a dashboard change the cached configuration does not know yet).
    func followingConfigurationAdvice<T: Sendable>(_ body: () async throws(RESTClientError) -> T) async throws(RESTClientError) -> T {
        do {
            return try await body()
        } catch where error.enhancedError?.action == "configuration" {
            await refreshConfiguration()
            return try await body()
        }
    }

    /// Refetches the requestor's configuration; keeps the cached one when that fails.
    func refreshConfiguration() async {
        guard let requestor = requestorID, case .success(let refreshed) = await loadCatalog(requestor: requestor, from: requestorClients) else { return }
        catalog = refreshed
    }

    /// When Adobe Pass says the user's session is over (enhanced error `action`
    /// `authentication`: `authenticated_profile_missing`, `_expired`, `_invalidated`, an
    /// ended authentication session), the local profile goes too, so checkAuthentication
    /// answers 0 at once. Returns the status that tells the app why, or `nil` when the error
    /// says nothing about the session.
    func dropProfileIfTheServerEndedIt(_ error: EnhancedError?, resource: String? = nil) -> AdvancedStatus? {
        guard let error, error.action == "authentication", let requestor = requestorID else { return nil }
        store.removeProfile(requestor: requestor)
        // A TempPass that is used up is a denial to report as such (Z100 with its reason):
        // the caller reports it; the profile is gone all the same.
        if error.code.hasPrefix("temporary_access_") { return nil }
        return StatusCatalog.status(
            .n130,
            message: "Adobe Pass no longer has this sign-in (\(error.code)): it was removed from this device; sign in again with getAuthentication().",
            details: error.details, resource: resource, enhancedError: error)
    }
}
