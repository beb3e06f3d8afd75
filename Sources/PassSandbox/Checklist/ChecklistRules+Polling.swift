import Foundation

/// Authentication phase: a code is polled every 3 to 5 seconds, until its session is over
/// and no longer.
extension ChecklistRules {
    /// The shortest time between two polls of one code.
    static let minimumPollInterval: TimeInterval = 3
    /// The longest time between two polls of a pending code the checklist asks for.
    static let maximumPollInterval: TimeInterval = 5
    /// The longest gap ``pollTooSlow`` lets pass: half as long again as
    /// ``maximumPollInterval``, for network delays.
    static let slowPollGap: TimeInterval = maximumPollInterval * 1.5
    /// How long before its code expires a device may stop polling without a notice: a
    /// minute, or a quarter of the code's life when that is shorter.
    static let pollStopGrace: TimeInterval = 60

    /// A code is polled (`GET profiles/code/{code}`) sooner than 3 seconds after the
    /// previous poll of the same code.
    static let pollTooFrequent = ChecklistRule(
        "poll-too-frequent", .mandatory,
        line: """
            Authentication Phase · Polling Mechanism Configuring: poll for the profile of a code every 3 to 5 \
            seconds, never faster.
            """,
        evidence: .code,
        limits: "None: the polls of one code come from the device that shows it, and their times are the sandbox's."
    ) { history in
        var previousPoll: [String: Date] = [:]
        var findings: [ChecklistFinding] = []
        for index in history.indexes(of: .profileForCode) {
            let request = history.requests[index]
            guard let code = request.route?.code else { continue }
            if let previous = previousPoll[code], request.at.timeIntervalSince(previous) < minimumPollInterval {
                let elapsed = ChecklistHistory.duration(request.at.timeIntervalSince(previous))
                let detail = "Polled code \(code) \(elapsed) after the previous poll; poll every 3 to 5 seconds."
                findings.append(ChecklistFinding(index: index, detail: detail))
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
            """
            Authentication Phase · Polling Mechanism Stopping: stop polling a code once its profile was retrieved, \
            once its session and code expired, or once a new code replaced it.
            """,
        evidence: .code,
        limits: """
            None: the sandbox knows when each session ended; a code is told from a newer one by the device and \
            service provider that opened both.
            """
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
            if request.facts.codeState == .authenticated, ended[code] == nil {
                ended[code] = "a poll had already retrieved its profile"
            }
            if request.facts.codeState == .expired, ended[code] == nil {
                ended[code] = "its session and code had expired"
            }
        }
        return first.map { code, found in
            let more = extra[code].map { " (and \($0) more poll\($0 == 1 ? "" : "s") after it)" } ?? ""
            return ChecklistFinding(
                index: found.index,
                detail: "Polled code \(code) after \(found.reason)\(more); stop polling when the session ends.")
        }
        .sorted { $0.index < $1.index }
    }

    /// A code polled more than ``slowPollGap`` after the previous poll of it found its
    /// session still pending. One notice per code, at the first slow poll, counting them.
    static let pollTooSlow = ChecklistRule(
        "poll-too-slow", .notice,
        line: """
            Authentication Phase · Polling Mechanism Configuring: poll for the profile of a code every 3 to 5 \
            seconds while the person signs in.
            """,
        evidence: .code,
        limits:
            """
            Adobe lets an application whose person signs in on the device itself poll every 3-5 seconds "or more", \
            and a server cannot see on which screen the person signs in: a notice. Gaps up to 7.5 s are allowed for \
            network delays; a test moving a manual clock in big steps makes gaps too.
            """
    ) { history in
        var previous: [String: Int] = [:]
        var slow: [String: (first: Int, gap: TimeInterval, count: Int, longest: TimeInterval)] = [:]
        for index in history.indexes(of: .profileForCode) {
            let request = history.requests[index]
            guard let code = request.route?.code else { continue }
            defer { previous[code] = index }
            guard let last = previous[code], history.requests[last].facts.codeState == .pending else { continue }
            let gap = request.at.timeIntervalSince(history.requests[last].at)
            guard gap > slowPollGap else { continue }
            let found = slow[code] ?? (index, gap, 0, 0)
            slow[code] = (found.first, found.gap, found.count + 1, max(found.longest, gap))
        }
        return slow.map { code, found in
            let more =
                found.count == 1
                ? ""
                : " (\(found.count) gaps over \(ChecklistHistory.duration(slowPollGap)), "
                    + "the longest \(ChecklistHistory.duration(found.longest)))"
            return ChecklistFinding(
                index: found.first,
                detail:
                    """
                    Polled code \(code) \(ChecklistHistory.duration(found.gap)) after the previous poll found it \
                    pending\(more); while the person signs in, poll every 3 to 5 seconds.
                    """
            )
        }
        .sorted { $0.index < $1.index }
    }

    /// A code whose polls stopped more than ``pollStopGrace`` (at most a quarter of the
    /// code's life) before it expired, the last one
    /// finding its session still pending, with no poll ever retrieving its profile and no
    /// newer code of the device and service provider replacing it: judged once the code
    /// has expired (until then the polls may go on). One notice per code, at its last poll.
    static let pollStoppedEarly = ChecklistRule(
        "poll-stopped-early", .notice,
        line:
            """
            Authentication Phase · Polling Mechanism Stopping: keep polling until the profile is retrieved, the \
            session and code expire, or a new code replaces it.
            """,
        evidence: .code,
        limits:
            """
            A person who cancels the sign-in on the device rightly stops the polls, and a server cannot see the \
            cancel: a notice.
            """
    ) { history in
        var lastPoll: [String: Int] = [:]
        var retrieved: Set<String> = []
        for index in history.indexes(of: .profileForCode) {
            guard let code = history.requests[index].route?.code else { continue }
            lastPoll[code] = index
            if history.requests[index].facts.codeState == .authenticated { retrieved.insert(code) }
        }
        var findings: [ChecklistFinding] = []
        var newest: [[String]: Int] = [:]  // device and service provider → index of its newest code
        var issued: [(index: Int, code: ObservedFacts.IssuedCode)] = []
        for (index, request) in history.requests.enumerated() {
            guard let code = request.facts.issuedCode else { continue }
            issued.append((index, code))
            newest[[history.devices[index], code.serviceProvider]] = index
        }
        for (index, code) in issued where history.now >= code.expiresAt && !retrieved.contains(code.code) {
            guard let last = lastPoll[code.code], history.requests[last].facts.codeState == .pending,
                newest[[history.devices[index], code.serviceProvider]] == index
            else { continue }
            let left = code.expiresAt.timeIntervalSince(history.requests[last].at)
            let grace = min(pollStopGrace, code.expiresAt.timeIntervalSince(history.requests[index].at) / 4)
            guard left > grace else { continue }
            findings.append(
                ChecklistFinding(
                    index: last,
                    detail:
                        """
                        Stopped polling code \(code.code) \(ChecklistHistory.duration(left)) before it expired, its \
                        last poll finding no profile yet, and no newer code replaced it: a person who signs in \
                        after that is never seen. Poll until the profile comes, the code expires or a new code \
                        replaces it.
                        """
                ))
        }
        return findings.sorted { $0.index < $1.index }
    }
}
