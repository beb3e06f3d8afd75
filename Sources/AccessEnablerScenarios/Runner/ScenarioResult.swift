import AccessEnabler
import Foundation
import PassSandbox

/// What running a scenario produced.
public struct ScenarioResult: Sendable {
    /// Every transcript line, in order.
    public var lines: [TranscriptLine]
    /// The first expectation that no later line matched, with its index, or `nil`.
    public var unmetExpectation: (index: Int, expectation: [String: JSONValue])?
    /// The line of the transcript that came closest to the unmet expectation: among the
    /// lines after the previous expectation's match (where it should have been), else among
    /// all, the one with the most of its keys at their expected values, then the most of its
    /// keys; `nil` when every expectation was met or no line has any of its keys.
    public var closestLine: TranscriptLine?
    /// How many expectations the scenario has.
    public var expectationCount: Int
    /// What the sandbox's checklist monitor found during the run.
    public var checklist: SandboxChecklist

    /// `true` when every expectation held.
    public var passed: Bool { unmetExpectation == nil }

    /// Checks `expectations` against `lines`.
    public init(lines: [TranscriptLine], expectations: [[String: JSONValue]], checklist: SandboxChecklist) {
        self.lines = lines
        self.expectationCount = expectations.count
        self.checklist = checklist
        let (unmet, cursor) = Self.match(expectations, in: lines)
        unmetExpectation = unmet
        closestLine = unmet.flatMap { unmet in
            Self.closest(to: unmet.expectation, in: lines[cursor...])
                ?? Self.closest(to: unmet.expectation, in: lines[...])
        }
    }

    /// The JSON path of the unmet expectation in the scenario file (`$.expect[3]`).
    public var unmetPath: String? { unmetExpectation.map { "$.expect[\($0.index)]" } }

    /// The line a run ends with on standard error: `12 expectations met`, or
    /// `expectation $.expect[3] not met: {…}; closest line seen: {…}`.
    public var summary: String {
        guard let unmet = unmetExpectation, let path = unmetPath else {
            return expectationCount == 1 ? "1 expectation met" : "\(expectationCount) expectations met"
        }
        let expected = TranscriptLine(unmet.expectation.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).json
        let closest = closestLine.map { "closest line seen: \($0.json)" } ?? "no line has any of its keys"
        return "expectation \(path) not met: \(expected); \(closest)"
    }

    /// Matches `expectations` in order, each against a line after the previous match. An
    /// expectation naming `checklistViolations` is matched against the run's count (its
    /// last line), wherever it stands in the list.
    public static func firstUnmet(_ expectations: [[String: JSONValue]], in lines: [TranscriptLine]) -> (
        index: Int, expectation: [String: JSONValue]
    )? {
        match(expectations, in: lines).unmet
    }

    /// The first unmet expectation, and the index after the last line matched before it.
    private static func match(_ expectations: [[String: JSONValue]], in lines: [TranscriptLine]) -> (
        unmet: (index: Int, expectation: [String: JSONValue])?, cursor: Int
    ) {
        var cursor = 0
        for (index, expectation) in expectations.enumerated() {
            if expectation["checklistViolations"] != nil {
                if !lines.contains(where: { $0.matches(expectation) }) { return ((index, expectation), cursor) }
                continue
            }
            guard let found = lines[cursor...].firstIndex(where: { $0.matches(expectation) }) else {
                return ((index, expectation), cursor)
            }
            cursor = found + 1
        }
        return (nil, cursor)
    }

    /// The line with the most keys of `expectation` at their expected values, then the most
    /// of its keys at all (the first of equals), or `nil` when no line has any of its keys.
    private static func closest(to expectation: [String: JSONValue], in lines: ArraySlice<TranscriptLine>)
        -> TranscriptLine?
    {
        var best: (score: Int, line: TranscriptLine)?
        for line in lines {
            let present = expectation.keys.filter { line[$0] != nil }
            guard !present.isEmpty else { continue }
            let equal = present.filter { line.matches([$0: expectation[$0]!]) }.count
            let score = 2 * equal + present.count
            if score > (best?.score ?? 0) { best = (score, line) }
        }
        return best?.line
    }
}
