import Foundation
import Testing

@testable import AccessEnabler

/// Several service providers' configurations are merged in the order their answers came
/// off the wire, whatever order their tasks finished reading them in.
struct ConfigurationArrivalOrderTests {
    private let start = ContinuousClock.now

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func answersAreRankedByArrivalNotByWhenTheirTasksFinished() {
        // The tasks finished in the order A, B, C; the answers arrived C, A, B.
        let finished = [("A", 1, Optional(at(20))), ("B", 2, at(30)), ("C", 3, at(10))]
        #expect(EntitlementEngine.byArrival(finished).map(\.0) == ["C", "A", "B"])
    }

    @Test func failuresComeAfterEveryAnswerInTheOrderTheyFinished() {
        let finished: [(String, Int, ContinuousClock.Instant?)] = [
            ("failed first", 0, nil), ("answered late", 1, at(50)), ("failed second", 0, nil),
            ("answered early", 2, at(5)),
        ]
        #expect(
            EntitlementEngine.byArrival(finished).map(\.0) == [
                "answered early", "answered late", "failed first", "failed second",
            ])
    }

    @Test func answersArrivingAtTheSameInstantKeepTheOrderTheirTasksFinishedIn() {
        let finished = [("A", 1, Optional(at(7))), ("B", 2, at(7)), ("C", 3, at(3))]
        #expect(EntitlementEngine.byArrival(finished).map(\.0) == ["C", "A", "B"])
    }
}
