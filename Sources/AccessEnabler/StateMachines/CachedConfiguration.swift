import Foundation

/// The requestor's configuration (its MVPDs, merged from every service provider) as the SDK
/// last fetched it, and when: a cached resource, never a step of setRequestor. A flow asks
/// for it only when it needs what only the configuration says — a provider list to show,
/// the partner framework's supported providers while no profile is in force, an MVPD the
/// device knows nothing about, or an enhanced error whose action is `configuration` — and
/// reuses a copy for ``lifetime`` (Adobe's checklist: cache it a few minutes).
struct CachedConfiguration: Sendable, Equatable {
    /// How long a fetched configuration is reused before a flow that needs it asks again.
    static let lifetime: TimeInterval = 180

    /// The merged configuration.
    var catalog: RequestorCatalog
    /// When it was fetched, on the configuration's clock.
    var fetchedAt: Date

    /// Its age at `now`; `nil` when the clock reads earlier than the fetch (the age is unknown).
    func age(at now: Date) -> TimeInterval? {
        let age = now.timeIntervalSince(fetchedAt)
        return age >= 0 ? age : nil
    }

    /// Whether a flow that needs the configuration at `now` may use this copy.
    func isFresh(at now: Date) -> Bool {
        guard let age = age(at: now) else { return false }
        return age < Self.lifetime
    }
}
