/// The request history the checklist rules read, kept by ``PassSandbox`` for every request
/// it answers (its own `/checklist` page excepted). Bounded: past ``capacity`` requests the
/// oldest half is dropped, after the violations found in it are kept aside, so a long run
/// loses evidence but never a violation already found.
struct ChecklistMonitor: Sendable {
    /// The most requests kept.
    static let capacity = 10_000

    private(set) var history: [ObservedRequest] = []
    /// Violations of requests no longer in the history, oldest first.
    private(set) var settled: [SequencedViolation] = []
    private var nextSequence = 1

    /// Appends the request `make` builds from its sequence number, first dropping the
    /// oldest half when the history is full.
    mutating func record(_ make: (Int) -> ObservedRequest) {
        if history.count >= Self.capacity { trim() }
        history.append(make(nextSequence))
        nextSequence += 1
    }

    /// Forgets every request and violation.
    mutating func reset() {
        history.removeAll()
        settled.removeAll()
    }

    /// Every violation of the rules in force: those kept aside, then those in the history.
    static func violations(history: [ObservedRequest], settled: [SequencedViolation], rules: [ChecklistRule] = ChecklistRules.all) -> [SandboxChecklistViolation] {
        let ids = Set(rules.map(\.id))
        let kept = settled.filter { ids.contains($0.violation.rule) }
        return (kept + ChecklistRules.evaluate(ChecklistHistory(history), rules: rules)).map(\.violation)
    }

    private mutating func trim() {
        let dropped = Self.capacity / 2
        let lastDropped = history[dropped - 1].sequence
        settled += ChecklistRules.evaluate(ChecklistHistory(history)).filter { $0.sequence <= lastDropped }
        history.removeFirst(dropped)
    }
}
