import Foundation

/// Preauthorization phase: permitted decisions are cached in memory while the application
/// runs.
extension ChecklistRules {
    /// How long after an answer that permitted every resource an identical preauthorization
    /// counts as a cache miss.
    static let preauthorizationCacheWindow: TimeInterval = 60
    /// Identical preauthorizations forgiven inside the window after a permitted answer: one
    /// (an application launched again has an empty memory cache).
    static let forgivenPreauthorizationRepeats = 1

    /// The same preauthorization (the same resources, the same MVPD) asked again by one device
    /// while ``forgivenPreauthorizationRepeats`` + 1 answers to it in the last
    /// ``preauthorizationCacheWindow`` seconds permitted every resource. One finding per burst
    /// (until the window passes with no such request), counting it.
    static let preauthorizationNotCached = ChecklistRule(
        "preauthorization-not-cached", .mandatory,
        line:
            """
            Preauthorization Phase · Preauthorization Decisions Caching: cache permitted decisions in memory; \
            subscriptions rarely change while the application runs.
            """,
        evidence: .device,
        limits:
            """
            One repeat within a minute is forgiven: an application launched again starts with an empty memory \
            cache. Denied or failed decisions may be asked again.
            """
    ) { history in
        // A burst: identical preauthorizations that kept missing the cache, from the first
        // permitted answer still in the window to the last miss.
        struct Burst {
            let finding: Int
            let start: Date
            var end: Date
            var asked: Int
        }
        var permitted: [[String]: [Date]] = [:]
        var bursts: [Burst] = []
        var open: [[String]: Int] = [:]
        for index in history.indexes(of: .preauthorize) {
            let request = history.requests[index]
            let key = [history.devices[index], String(request.signature)]
            let recent = permitted[key, default: []].filter {
                request.at.timeIntervalSince($0) < preauthorizationCacheWindow
            }
            if recent.count > forgivenPreauthorizationRepeats {
                let window = preauthorizationCacheWindow
                if let burst = open[key], request.at.timeIntervalSince(bursts[burst].end) < window {
                    bursts[burst].end = request.at
                    bursts[burst].asked += 1
                } else {
                    open[key] = bursts.count
                    bursts.append(Burst(finding: index, start: recent[0], end: request.at, asked: recent.count + 1))
                }
            }
            let permittedAll = request.status == 200 && request.facts.errorActions.isEmpty && !request.facts.denied
            // Only the newest answers within the window matter: one more than are forgiven.
            let kept = recent + (permittedAll ? [request.at] : [])
            permitted[key] = Array(kept.suffix(forgivenPreauthorizationRepeats + 1))
        }
        return bursts.map { burst in
            let span = burst.end.timeIntervalSince(burst.start)
            let within = span < 1 ? "within a second" : "in \(ChecklistHistory.duration(span))"
            return ChecklistFinding(
                index: burst.finding,
                detail:
                    """
                    Asked the same preauthorization \(burst.asked) times \(within), while an answer less than a \
                    minute old had permitted every resource; cache permitted decisions in memory and ask only for \
                    what is not cached.
                    """
            )
        }
    }
}
