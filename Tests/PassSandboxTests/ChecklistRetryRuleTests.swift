import Foundation
import Testing

@testable import PassSandbox

/// The error-handling rules over histories written by hand: what warrants a retry, a retry
/// loop, a non-retryable error asked again, failing requests sent in turn — and the person
/// who asks again seconds later, whom none of them counts.
@Suite("Checklist rules: retries")
struct ChecklistRetryRuleTests {
    typealias Sketch = ChecklistHistorySketch
    static let authorize = "/api/v2/REF30/decisions/authorize/NotBoarded"
    static let premium = #"{"resources":["premium"]}"#
    static let movies = #"{"resources":["movies"]}"#
    /// A decision denied inside a `200`, as the MVPD denies a title the person does not have.
    static let denied = Sketch.facts {
        $0.denied = true
        $0.errorActions = ["none"]
    }

    @Test func whatWarrantsARetry() {
        var sketch = Sketch()
        let cases: [(status: Int, actions: [String], retry: Bool)] = [
            (200, ["retry"], true), (403, ["retry"], true), (503, ["none"], true), (500, [], true), (429, [], true),
            (0, [], true),
            (200, ["none"], false), (400, ["none"], false), (401, ["application-registration"], false),
            (500, ["configuration"], false), (403, ["authentication"], false), (404, [], false),
        ]
        for each in cases {
            let index = sketch.send(
                "GET", "/api/v2/REF30/profiles", status: each.status,
                facts: Sketch.facts { $0.errorActions = each.actions })
            #expect(sketch.requests[index].answerWarrantsRetry == each.retry, "\(each)")
        }
    }

    @Test func aDenialAskedFourTimesWithinSecondsBreaksErrorHandling() throws {
        var sketch = Sketch()
        var sends: [Int] = []
        for _ in 0..<5 {
            sends.append(sketch.send("POST", Self.authorize, after: 1, body: Self.premium, facts: Self.denied))
        }
        let violations = sketch.violations(of: ChecklistRules.nonRetryableRetried)
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(violation.rule == "non-retryable-retried")
        #expect(violation.at == sketch.requests[sends[3]].at, "the fourth identical request is the finding")
        #expect(violation.request == "POST \(Self.authorize)")
        #expect(
            violation.detail.hasPrefix(
                "Sent the same request 5 times in a row, 4 of them less than 5 s after an error whose action does "
                    + "not ask for a retry"
            ))
        #expect(
            sketch.violations(of: ChecklistRules.retryLoop).isEmpty,
            "a denial does not warrant a retry: not the retry loop's")
    }

    @Test func aPersonPressingPlayAgainSecondsApartOrThreeTimesQuicklyKeepsErrorHandling() {
        var person = Sketch()
        for _ in 0..<5 { person.send("POST", Self.authorize, after: 20, body: Self.premium, facts: Self.denied) }
        // After the fifth, two more presses a second apart: three in a row, forgiven.
        for _ in 0..<2 { person.send("POST", Self.authorize, after: 1, body: Self.premium, facts: Self.denied) }
        for rule in [ChecklistRules.nonRetryableRetried, ChecklistRules.retryLoop, ChecklistRules.alternatingFailures] {
            #expect(person.violations(of: rule).isEmpty, "\(rule.id)")
        }

        // The same request answered by a success between is not a row either.
        var mixed = Sketch()
        for denied in [true, true, false, true, true, true] {
            mixed.send(
                "POST", Self.authorize, after: 1, body: Self.premium, facts: denied ? Self.denied : ObservedFacts())
        }
        #expect(mixed.violations(of: ChecklistRules.nonRetryableRetried).isEmpty)
    }

    @Test func retriesSpacedByAPersonAreNotARetryLoop() {
        var sketch = Sketch()
        // Five plays 20 s apart, each retried twice by the SDK (1 s, then 2 s) after a
        // `retry` error: 15 identical requests, never more than 2 retries in a row.
        for _ in 0..<5 {
            sketch.send(
                "POST", Self.authorize, after: 20, body: Self.premium,
                facts: Sketch.facts { $0.errorActions = ["retry"] })
            sketch.send(
                "POST", Self.authorize, after: 1, body: Self.premium,
                facts: Sketch.facts { $0.errorActions = ["retry"] })
            sketch.send(
                "POST", Self.authorize, after: 2, body: Self.premium,
                facts: Sketch.facts { $0.errorActions = ["retry"] })
        }
        #expect(sketch.violations(of: ChecklistRules.retryLoop).isEmpty)
        #expect(sketch.violations(of: ChecklistRules.nonRetryableRetried).isEmpty)
    }

    @Test func twoFailingRequestsInTurnBreakTheNoLoopLine() throws {
        var sketch = Sketch()
        var sends: [Int] = []
        sketch.send("GET", "/api/v2/REF30/profiles")
        for index in 0..<20 {
            sends.append(
                sketch.send(
                    "POST", Self.authorize, after: 0.5, body: index.isMultiple(of: 2) ? Self.premium : Self.movies,
                    facts: Self.denied))
        }
        // A success ends the run and is no part of it.
        sketch.send("POST", "/api/v2/REF30/decisions/preauthorize/NotBoarded", after: 0.5, body: #"{"resources":[]}"#)
        let violations = sketch.violations(of: ChecklistRules.alternatingFailures)
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(violation.rule == "alternating-failures")
        #expect(violation.at == sketch.requests[sends[8]].at, "premium's fifth send")
        #expect(
            violation.detail.hasPrefix("Sent 2 failing requests in turn, 20 requests in a row (one of them 10 times)"))
        #expect(
            sketch.violations(of: ChecklistRules.nonRetryableRetried).isEmpty, "never the same request twice in a row")
        #expect(sketch.violations(of: ChecklistRules.retryLoop).isEmpty)
    }

    @Test func requestsInTurnWithASuccessOrAPauseBetweenOrFewerSendsKeepTheNoLoopLine() {
        var paced = Sketch()
        for index in 0..<20 {
            paced.send(
                "POST", Self.authorize, after: 20, body: index.isMultiple(of: 2) ? Self.premium : Self.movies,
                facts: Self.denied)
        }
        #expect(paced.violations(of: ChecklistRules.alternatingFailures).isEmpty)

        var succeeding = Sketch()
        for index in 0..<20 {
            succeeding.send(
                "POST", Self.authorize, after: 0.5, body: index.isMultiple(of: 2) ? Self.premium : Self.movies,
                facts: Self.denied)
            succeeding.send("GET", "/api/v2/REF30/profiles", after: 0.5)
        }
        #expect(succeeding.violations(of: ChecklistRules.alternatingFailures).isEmpty)

        var few = Sketch()
        for index in 0..<8 {
            few.send(
                "POST", Self.authorize, after: 0.5, body: index.isMultiple(of: 2) ? Self.premium : Self.movies,
                facts: Self.denied)
        }
        #expect(few.violations(of: ChecklistRules.alternatingFailures).isEmpty, "each sent 4 times: short of a loop")
    }
}
