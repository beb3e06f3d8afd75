import Foundation

/// Everything stored for one requestor, kept in one file so that signing out of the requestor
/// removes its profile, media tokens and preauthorization answers in one atomic step.
struct RequestorRecord: Codable, Sendable, Equatable {
    var requestor: String
    /// The current profile: the MVPD the user chose last.
    var profile: StoredProfile?
    /// A regular profile set aside while a TempPass of another MVPD is current: REST API V2
    /// keeps both, and when the TempPass ends the regular sign-in counts again.
    var standby: StoredProfile?
    /// Profiles of other MVPDs Adobe Pass still holds for this device (`nil`: none; older
    /// files have no such field).
    var others: [StoredProfile]?
    /// Logouts Adobe Pass has not confirmed, sent again at the next `setRequestor`.
    var pendingLogouts: [PendingLogout]?
    /// The provider of this requestor's last sign-in on this device: kept when its profile
    /// expires or Adobe Pass ends it, removed by a logout (``AccessEnabler/rememberedProvider``).
    var rememberedProvider: StoredProvider?
    /// The requestor's configuration, fetched less than a few minutes ago, and when (a
    /// relaunch reuses it: ``StoredConfiguration``); `nil`: none, or older files.
    var configuration: StoredConfiguration?
    /// Media tokens by resource.
    var authorizations: [String: StoredAuthorization] = [:]
    /// Cached preauthorization answers by resource.
    var preauthorizations: [String: StoredPreauthorization] = [:]

    /// Whether nothing is left to store.
    var isEmpty: Bool {
        profile == nil && standby == nil && (others ?? []).isEmpty && (pendingLogouts ?? []).isEmpty
            && rememberedProvider == nil
            && configuration == nil
            && authorizations.isEmpty && preauthorizations.isEmpty
    }

    /// The record without media tokens and preauthorization answers that ended before `date`.
    /// Profiles are kept whatever their dates: the caller decides what an expired one means.
    func droppingExpiredEntries(at date: Date) -> RequestorRecord {
        var copy = self
        copy.authorizations = authorizations.filter { $0.value.notAfter > date }
        copy.preauthorizations = preauthorizations.filter { $0.value.expiresAt > date }
        return copy
    }
}

extension RequestorRecord: StoredValueValidating {
    var validationProblem: String? {
        if requestor.isEmpty { return "record without requestor" }
        for profile in [profile, standby].compactMap({ $0 }) + (others ?? []) {
            if profile.requestor != requestor { return "profile of another requestor" }
            if let problem = profile.validationProblem { return problem }
        }
        if let problem = rememberedProvider?.validationProblem { return problem }
        if let problem = configuration?.validationProblem { return problem }
        for (resource, authorization) in authorizations {
            if authorization.requestor != requestor || authorization.resource != resource {
                return "authorization filed under the wrong requestor or resource"
            }
            if let problem = authorization.validationProblem { return problem }
        }
        for (resource, preauthorization) in preauthorizations {
            if preauthorization.resource != resource { return "preauthorization filed under the wrong resource" }
            if let problem = preauthorization.validationProblem { return problem }
        }
        return nil
    }
}
