import Foundation

/// Configuration phase: the configuration is asked only to let the person choose a TV
/// provider, and kept a few minutes.
extension ChecklistRules {
    /// How long the configuration rules look around a request: an error asking for the
    /// configuration counts within this many seconds before it, a new authentication session
    /// within this many after; a configuration asked again sooner is not kept.
    static let configurationWindow: TimeInterval = 120

    /// The configuration is asked while the device holds a valid profile for the service
    /// provider (any MVPD; temporary and degraded access included). Not a violation when an
    /// enhanced error whose `action` is `configuration` was answered to the device in the 2
    /// minutes before, or when the device opens a new authentication session (a forced
    /// sign-in, a change of provider) for the service provider within the 2 minutes after:
    /// then the person was choosing a provider. Until those 2 minutes have passed the
    /// finding may still be withdrawn by such a session.
    static let configurationWhileAuthenticated = ChecklistRule(
        "configuration-while-authenticated", .mandatory,
        line:
            "Configuration Phase · Configuration Retrieval: ask for the configuration only when the person must choose a TV provider; not while they are authenticated, have temporary access, or only confirm their previous provider."
    ) { history in
        let requests = history.requests
        var findings: [ChecklistFinding] = []
        for index in history.indexes(of: .configuration) {
            let request = requests[index]
            guard request.facts.heldProfile == true, let provider = request.serviceProvider else { continue }
            let device = history.devices[index]
            if errorAskedForConfiguration(history, device: device, before: index) { continue }
            var sessionFollows = false
            var later = index + 1
            while !sessionFollows, later < requests.count, requests[later].at.timeIntervalSince(request.at) <= configurationWindow {
                let other = requests[later]
                if history.devices[later] == device, other.serviceProvider == provider {
                    switch other.route {
                    case .createSession?, .partnerSession?: sessionFollows = true
                    default: break
                    }
                }
                later += 1
            }
            if sessionFollows { continue }
            findings.append(
                ChecklistFinding(
                    index: index,
                    detail:
                        "Asked for the configuration of \(provider) while this device held a valid profile for it, and no new authentication session followed within 2 minutes; the profile already names the provider."
                ))
        }
        return findings
    }

    /// The configuration is asked again by the same device, for the same service provider,
    /// less than 2 minutes after it was last answered, with no error asking for it between.
    static let configurationRepeated = ChecklistRule(
        "configuration-repeated", .recommended,
        line: "Configuration Phase · Configuration Caching: keep the configuration answer for a short while (a few minutes) instead of asking for it again."
    ) { history in
        let requests = history.requests
        var lastAnswered: [[String]: Int] = [:]
        var findings: [ChecklistFinding] = []
        for index in history.indexes(of: .configuration) {
            let request = requests[index]
            guard let provider = request.serviceProvider else { continue }
            let key = [history.devices[index], provider]
            if let previous = lastAnswered[key] {
                let elapsed = request.at.timeIntervalSince(requests[previous].at)
                if elapsed < configurationWindow, !errorAskedForConfiguration(history, device: key[0], between: previous, and: index) {
                    findings.append(
                        ChecklistFinding(
                            index: index,
                            detail:
                                "Asked for the configuration of \(provider) again \(ChecklistHistory.duration(elapsed)) after it was answered; keep the answer a few minutes."
                        ))
                }
            }
            if (200..<300).contains(request.status) { lastAnswered[key] = index }
        }
        return findings
    }

    /// `true` when an answer to `device` in the configuration window before `index` carried
    /// an enhanced error whose `action` is `configuration`.
    private static func errorAskedForConfiguration(_ history: ChecklistHistory, device: String, before index: Int) -> Bool {
        let at = history.requests[index].at
        var earlier = index - 1
        while earlier >= 0, at.timeIntervalSince(history.requests[earlier].at) <= configurationWindow {
            if history.devices[earlier] == device, history.requests[earlier].facts.errorActions.contains("configuration") { return true }
            earlier -= 1
        }
        return false
    }

    /// `true` when an answer to `device` after `start` and before `end` carried an enhanced
    /// error whose `action` is `configuration`.
    private static func errorAskedForConfiguration(_ history: ChecklistHistory, device: String, between start: Int, and end: Int) -> Bool {
        guard start + 1 < end else { return false }
        return (start + 1..<end).contains { history.devices[$0] == device && history.requests[$0].facts.errorActions.contains("configuration") }
    }
}
