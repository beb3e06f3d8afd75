import Foundation

/// The request history the checklist rules read, kept by ``PassSandbox`` for every request
/// it answers (its own `/checklist` page excepted). Bounded: past ``capacity`` requests the
/// oldest half is dropped, after the violations and notices found in it are kept aside, so a
/// long run loses evidence but never a finding already made.
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

    /// Every finding (violation or notice) of the rules in force, judged at `now`: those kept
    /// aside, then those in the history.
    static func findings(
        history: [ObservedRequest], settled: [SequencedViolation], rules: [ChecklistRule] = ChecklistRules.all,
        now: Date
    ) -> [SandboxChecklistViolation] {
        let ids = Set(rules.map(\.id))
        let kept = settled.filter { ids.contains($0.violation.rule) }
        return (kept + ChecklistRules.evaluate(ChecklistHistory(history, now: now), rules: rules)).map(\.violation)
    }

    /// Drops the oldest half, keeping aside what its requests broke as judged when the
    /// newest request came (a finding that a later request could have withdrawn stays).
    private mutating func trim() {
        let dropped = Self.capacity / 2
        let lastDropped = history[dropped - 1].sequence
        let judged = ChecklistHistory(history, now: history[history.count - 1].at)
        settled += ChecklistRules.evaluate(judged).filter { $0.sequence <= lastDropped }
        history.removeFirst(dropped)
    }
}
