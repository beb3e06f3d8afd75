import Foundation

/// Everything stored for one requestor, kept in one file so that signing out of the requestor
/// removes its profile, media tokens and preauthorization answers in one atomic step.
struct RequestorRecord: Codable, Sendable, Equatable {
    var requestor: String
    /// The one current profile (the SDK keeps one authenticated MVPD per requestor).
    var profile: StoredProfile?
    /// Media tokens by resource.
    var authorizations: [String: StoredAuthorization] = [:]
    /// Cached preauthorization answers by resource.
    var preauthorizations: [String: StoredPreauthorization] = [:]

    /// Whether nothing is left to store.
    var isEmpty: Bool {
        profile == nil && authorizations.isEmpty && preauthorizations.isEmpty
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
        if let profile {
            if profile.requestor != requestor { return "profile of another requestor" }
            if let problem = profile.validationProblem { return problem }
        }
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
