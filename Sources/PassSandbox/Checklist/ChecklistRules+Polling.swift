import Foundation

/// Authentication phase: a code is polled every 3 to 5 seconds, and no longer once its
/// session is over.
extension ChecklistRules {
    /// The shortest time between two polls of one code.
    static let minimumPollInterval: TimeInterval = 3

    /// A code is polled (`GET profiles/code/{code}`) sooner than 3 seconds after the
    /// previous poll of the same code.
    static let pollTooFrequent = ChecklistRule(
        "poll-too-frequent", .mandatory,
        line: "Authentication Phase · Polling Mechanism Configuring: poll for the profile of a code every 3 to 5 seconds, never faster."
    ) { history in
        var previousPoll: [String: Date] = [:]
        var findings: [ChecklistFinding] = []
        for index in history.indexes(of: .profileForCode) {
            let request = history.requests[index]
            guard let code = request.route?.code else { continue }
            if let previous = previousPoll[code] {
                let elapsed = request.at.timeIntervalSince(previous)
                if elapsed < minimumPollInterval {
                    findings.append(
                        ChecklistFinding(
                            index: index, detail: "Polled code \(code) \(ChecklistHistory.duration(elapsed)) after the previous poll; poll every 3 to 5 seconds."))
                }
            }
            previousPoll[code] = request.at
        }
        return findings
    }

    /// A code is polled after its session ended: a poll already answered its profile, its
    /// time was over, or the same device opened a newer session for the same service
    /// provider (a new code replaces the old one). One finding per code, at its first such
    /// poll, counting the polls that followed it.
    static let pollAfterSessionEnd = ChecklistRule(
        "poll-after-session-end", .mandatory,
        line:
            "Authentication Phase · Polling Mechanism Stopping: stop polling a code once its profile was retrieved, once its session and code expired, or once a new code replaced it."
    ) { history in
        let requests = history.requests
        // Which code each session opened, and for which device and service provider.
        var issued: [String: (index: Int, code: ObservedFacts.IssuedCode)] = [:]
        var newestCode: [[String]: [(index: Int, code: String)]] = [:]
        for (index, request) in requests.enumerated() {
            guard let code = request.facts.issuedCode else { continue }
            issued[code.code] = (index, code)
            newestCode[[history.devices[index], code.serviceProvider], default: []].append((index, code.code))
        }
        var ended: [String: String] = [:]  // code → why its session is over
        var first: [String: (index: Int, reason: String)] = [:]
        var extra: [String: Int] = [:]
        for index in history.indexes(of: .profileForCode) {
            let request = requests[index]
            guard let code = request.route?.code else { continue }
            var reason = ended[code]
            if reason == nil, request.facts.codeState == .expired {
                reason = "its session and code had expired"
            }
            if reason == nil, let origin = issued[code], origin.index < index,
                let replacement = newestCode[[history.devices[origin.index], origin.code.serviceProvider], default: []]
                    .first(where: { $0.index > origin.index && $0.index < index })
            {
                reason = "a newer code (\(replacement.code)) had replaced it"
            }
            if let reason {
                if first[code] == nil { first[code] = (index, reason) } else { extra[code, default: 0] += 1 }
            }
            if request.facts.codeState == .authenticated, ended[code] == nil { ended[code] = "a poll had already retrieved its profile" }
            if request.facts.codeState == .expired, ended[code] == nil { ended[code] = "its session and code had expired" }
        }
        return first.map { code, found in
            let more = extra[code].map { " (and \($0) more poll\($0 == 1 ? "" : "s") after it)" } ?? ""
            return ChecklistFinding(index: found.index, detail: "Polled code \(code) after \(found.reason)\(more); stop polling when the session ends.")
        }
        .sorted { $0.index < $1.index }
    }
}
