import AccessEnabler
import Foundation

/// What running a scenario produced.
public struct ScenarioResult: Sendable {
    /// Every transcript line, in order.
    public var lines: [TranscriptLine]
    /// The first expectation that no later line matched, with its index, or `nil`.
    public var unmetExpectation: (index: Int, expectation: [String: JSONValue])?

    /// `true` when every expectation held.
    public var passed: Bool { unmetExpectation == nil }

    /// Matches `expectations` in order, each against a line after the previous match.
    public static func firstUnmet(_ expectations: [[String: JSONValue]], in lines: [TranscriptLine]) -> (index: Int, expectation: [String: JSONValue])? {
        var cursor = 0
        for (index, expectation) in expectations.enumerated() {
            guard let found = lines[cursor...].firstIndex(where: { $0.matches(expectation) }) else {
                return (index, expectation)
            }
            cursor = found + 1
        }
        return nil
    }
}
