import Foundation

/// The requestor's configuration as the SDK last fetched it, kept in storage for the few
/// minutes it is reused (``CachedConfiguration/lifetime``): an app relaunched within them asks
/// for no configuration again, as Adobe's REST API V2 checklist recommends (cache the
/// configuration in memory or persistent storage for a few minutes).
///
/// A cache, not a session: a record that cannot be read costs one configuration request.
struct StoredConfiguration: Codable, Sendable, Equatable {
    /// The service provider URLs the configuration was asked of (the configured
    /// environment's when `setRequestor` named none): it is theirs, and only theirs.
    var serviceProviders: [String]
    /// When it was fetched, on the device clock.
    var fetchedAt: Date
    /// Its MVPDs in configuration order, each as it is stored with a profile (with the
    /// service provider that serves it).
    var providers: [StoredProvider]
}

extension StoredConfiguration: StoredValueValidating {
    var validationProblem: String? {
        if !fetchedAt.timeIntervalSince1970.isFinite { return "configuration without a fetch time" }
        for provider in providers {
            if let problem = provider.validationProblem { return problem }
        }
        return nil
    }
}
