import Foundation

/// One preauthorization request, from the resources asked to the decisions known: which
/// answers come from the SDK's cache, which must be asked (in batches of at most the
/// server's limit, when the app set one), and what each answer was, with its reason.
///
/// Pure: no I/O. Both preauthorization APIs project from it — the legacy
/// `checkPreauthorizedResources` (``permitted``) and the Preauthorize API
/// (``resourceDecisions``) — so they cannot disagree about the same answers.
struct PreauthorizationLedger: Sendable, Equatable {
    /// One resource's answer.
    struct Entry: Sendable, Equatable {
        var authorized: Bool
        /// Why it was denied, when the server said.
        var error: EnhancedError?
        /// `true` when the answer came from the SDK's cache (no request made).
        var fromCache: Bool
    }

    /// The resources asked, duplicates removed, in the order given.
    let requested: [String]
    /// The answers known so far.
    private(set) var entries: [String: Entry] = [:]

    /// A ledger for `resources`; with `useCache`, unexpired cached answers count already.
    init(requested resources: [String], cached: [String: StoredPreauthorization], useCache: Bool, now: Date) {
        var seen: Set<String> = []
        requested = resources.filter { seen.insert($0).inserted }
        guard useCache else { return }
        for resource in requested {
            if let answer = cached[resource], answer.expiresAt > now {
                entries[resource] = Entry(authorized: answer.authorized, error: nil, fromCache: true)
            }
        }
    }

    /// The resources still to ask, in request order.
    var missing: [String] { requested.filter { entries[$0] == nil } }

    /// The missing resources in requests of at most `limit` resources (one request when
    /// `limit` is nil: the server then refuses too many with `too_many_resources`).
    func batches(limit: Int?) -> [[String]] {
        let missing = missing
        guard let limit, limit > 0, missing.count > limit else { return missing.isEmpty ? [] : [missing] }
        return stride(from: 0, to: missing.count, by: limit).map { Array(missing[$0..<min($0 + limit, missing.count)]) }
    }

    /// Records the server's decisions.
    mutating func record(_ decisions: [Decision]) {
        for decision in decisions where entries[decision.resource]?.fromCache != true {
            entries[decision.resource] = Entry(authorized: decision.authorized, error: decision.error, fromCache: false)
        }
    }

    /// The legacy answer: the requested resources the user may play, in request order.
    var permitted: [String] { requested.filter { entries[$0]?.authorized == true } }

    /// The Preauthorize API's answer: one decision per requested resource that has one.
    var resourceDecisions: [PreauthorizeOutcome.ResourceDecision] {
        requested.compactMap { resource in
            entries[resource].map {
                PreauthorizeOutcome.ResourceDecision(resource: resource, authorized: $0.authorized, error: $0.error)
            }
        }
    }

    /// Whether every answer came from the cache.
    var answeredFromCache: Bool { !requested.isEmpty && requested.allSatisfy { entries[$0]?.fromCache == true } }

    /// The new answers to cache, each until its decision's `notAfter` (or `defaultLifetime`).
    func answersToCache(_ decisions: [Decision], now: Date, defaultLifetime: TimeInterval = 300) -> [String:
        StoredPreauthorization]
    {
        var result: [String: StoredPreauthorization] = [:]
        for decision in decisions {
            result[decision.resource] = StoredPreauthorization(
                resource: decision.resource, authorized: decision.authorized,
                expiresAt: decision.notAfter ?? now.addingTimeInterval(defaultLifetime))
        }
        return result
    }
}
