import Foundation

/// Configuration phase: the configuration is asked only to let the person choose a TV
/// provider, and kept a few minutes.
extension ChecklistRules {
    /// How long the configuration rules look around a request: an error asking for the
    /// configuration counts within this many seconds before it; a configuration asked again
    /// sooner is not kept.
    static let configurationWindow: TimeInterval = 120

    /// The configuration is asked while the device holds a valid profile for the service
    /// provider (any MVPD; temporary and degraded access included). Not a finding when an
    /// enhanced error whose `action` is `configuration` was answered to the device in the 2
    /// minutes before, or when the device opens a new authentication session for the service
    /// provider (a forced sign-in, a change of provider) after it, before it asks the
    /// configuration again: then the person chose from the list, however long it took.
    /// Until such a session comes the notice stands; it is withdrawn when one does.
    static let configurationWhileAuthenticated = ChecklistRule(
        "configuration-while-authenticated", .notice,
        line:
            """
            Configuration Phase · Configuration Retrieval: ask for the configuration only when the person must \
            choose a TV provider; not while they are authenticated, have temporary access, or only confirm their \
            previous provider.
            """,
        evidence: .device,
        limits:
            """
            The checklist allows the configuration when the person is prompted to choose (a forced sign-in, a \
            change of provider); a server cannot see the prompt, only the authentication session that follows a \
            choice. A person who opens the provider list and backs out looks like a client that asks at every \
            launch: a notice.
            """
    ) { history in
        // The configuration asked while authenticated, per device and service provider, that
        // no session has answered yet (a configuration asked again leaves it standing).
        var waiting: [[String]: Int] = [:]
        var found: [Int] = []
        var withdrawn: Set<Int> = []
        for (index, request) in history.requests.enumerated() {
            guard let provider = request.serviceProvider else { continue }
            let key = [history.devices[index], provider]
            switch request.route {
            case .configuration?:
                waiting[key] = nil
                guard request.facts.heldProfile == true,
                    !errorAskedForConfiguration(history, device: key[0], before: index)
                else { continue }
                waiting[key] = index
                found.append(index)
            case .createSession?, .partnerSession?:
                if let asked = waiting.removeValue(forKey: key) { withdrawn.insert(asked) }
            default:
                continue
            }
        }
        return found.filter { !withdrawn.contains($0) }.map { index in
            ChecklistFinding(
                index: index,
                detail:
                    """
                    Asked for the configuration of \(history.requests[index].serviceProvider ?? "") while this device \
                    held a valid profile for it, and no new authentication session has followed; unless the person was \
                    choosing another provider, the profile already names it.
                    """
            )
        }
    }

    /// The configuration is asked again by the same device, for the same service provider,
    /// less than 2 minutes after it was last answered, with no error asking for it between.
    static let configurationRepeated = ChecklistRule(
        "configuration-repeated", .recommended,
        line: """
            Configuration Phase · Configuration Caching: keep the configuration answer for a short while (a few \
            minutes) instead of asking for it again.
            """,
        evidence: .device,
        limits: """
            Answers that failed, and an error asking for the configuration (or `invalid_integration`: the \
            dashboard changed), let it be asked again; two applications \
            of one service provider on one device would look like one.
            """
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
                if elapsed < configurationWindow,
                    !errorAskedForConfiguration(history, device: key[0], between: previous, and: index)
                {
                    findings.append(
                        ChecklistFinding(
                            index: index,
                            detail:
                                """
                                Asked for the configuration of \(provider) again \
                                \(ChecklistHistory.duration(elapsed)) after it was answered; keep the answer a few \
                                minutes.
                                """
                        ))
                }
            }
            if (200..<300).contains(request.status) { lastAnswered[key] = index }
        }
        return findings
    }

    /// Whether the answer to request `index` told its device that the configuration it holds
    /// is out of date: an enhanced error whose `action` is `configuration`, or
    /// `invalid_integration` (the integration was disabled on the dashboard: Adobe's table
    /// gives it the action `none`, yet the provider list the device holds is now wrong).
    private static func outdatesConfiguration(_ history: ChecklistHistory, _ index: Int) -> Bool {
        let facts = history.requests[index].facts
        return facts.errorActions.contains("configuration") || facts.errorCode == "invalid_integration"
    }

    /// `true` when an answer to `device` in the configuration window before `index` said the
    /// configuration is out of date (``outdatesConfiguration(_:_:)``).
    private static func errorAskedForConfiguration(_ history: ChecklistHistory, device: String, before index: Int)
        -> Bool
    {
        let at = history.requests[index].at
        var earlier = index - 1
        while earlier >= 0, at.timeIntervalSince(history.requests[earlier].at) <= configurationWindow {
            if history.devices[earlier] == device, outdatesConfiguration(history, earlier) {
                return true
            }
            earlier -= 1
        }
        return false
    }

    /// `true` when an answer to `device` after `start` and before `end` said the configuration
    /// is out of date.
    private static func errorAskedForConfiguration(
        _ history: ChecklistHistory, device: String, between start: Int, and end: Int
    ) -> Bool {
        guard start + 1 < end else { return false }
        return (start + 1..<end).contains {
            history.devices[$0] == device && outdatesConfiguration(history, $0)
        }
    }
}
