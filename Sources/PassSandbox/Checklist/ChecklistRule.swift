/// A rule of the checklist monitor, as data: the line of Adobe's REST API V2 Checklist it
/// checks, how it reports (a violation or a notice), what it reads and what it cannot tell
/// apart, and a pure function from the request history to the requests that broke the line.
struct ChecklistRule: Sendable {
    /// Its id, line, level, evidence and limits.
    let description: SandboxChecklistRule
    /// The requests of `history` that broke the line, each with why.
    let check: @Sendable (ChecklistHistory) -> [ChecklistFinding]

    var id: String { description.id }

    init(
        _ id: String, _ level: SandboxChecklistLevel, line: String, evidence: SandboxChecklistEvidence, limits: String,
        check: @escaping @Sendable (ChecklistHistory) -> [ChecklistFinding]
    ) {
        description = SandboxChecklistRule(id: id, line: line, level: level, evidence: evidence, limits: limits)
        self.check = check
    }
}

/// A request that broke a rule: its index in the history, and why, in a sentence.
struct ChecklistFinding: Sendable, Equatable {
    let index: Int
    let detail: String
}

/// A violation with the ``ObservedRequest/sequence`` of the request that broke the line,
/// which orders violations and survives the history's trimming.
struct SequencedViolation: Sendable {
    let sequence: Int
    let violation: SandboxChecklistViolation
}

/// Every rule the monitor checks, in the checklist's order: the mandatory requirements
/// phase by phase (with the notices about their lines), then the recommended practices.
enum ChecklistRules {
    static let all: [ChecklistRule] = [
        registrationRepeated, accessTokenRefreshedEarly, nothingPersisted,
        configurationWhileAuthenticated,
        pollTooFrequent, pollTooSlow, pollAfterSessionEnd, pollStoppedEarly,
        preauthorizationNotCached,
        logoutPageNotOpened,
        authorizationHeaderMissing, deviceIdentifierHeaderMissing, deviceInfoHeaderMissing, deviceIdentifierUnstable,
        undefinedParameter, undefinedHeader,
        retryLoop, nonRetryableRetried, alternatingFailures,
        configurationRepeated, logoutAfterDenial,
    ]

    /// The descriptions of ``all``.
    static let descriptions = all.map(\.description)

    /// The violations of `rules` in `history`, in the order of the requests that broke them
    /// (for one request, in the rules' order).
    static func evaluate(_ history: ChecklistHistory, rules: [ChecklistRule] = all) -> [SequencedViolation] {
        var found: [(index: Int, rule: Int, violation: SandboxChecklistViolation)] = []
        for (ruleIndex, rule) in rules.enumerated() {
            for finding in rule.check(history) {
                found.append((finding.index, ruleIndex, history.violation(rule.id, at: finding.index, finding.detail)))
            }
        }
        return found.sorted { ($0.index, $0.rule) < ($1.index, $1.rule) }.map {
            SequencedViolation(sequence: history.requests[$0.index].sequence, violation: $0.violation)
        }
    }
}
