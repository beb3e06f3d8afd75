import Foundation
import Testing

@testable import AccessEnabler

/// The preauthorization ledger with no I/O: what comes from the cache, what is asked and in
/// which batches, and the two projections (legacy list, Preauthorize API decisions).
@Suite("Preauthorization ledger")
struct DecisionPreauthorizationLedgerTests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)

    func cached(_ resource: String, _ authorized: Bool, expiresIn seconds: TimeInterval = 60) -> StoredPreauthorization
    {
        StoredPreauthorization(resource: resource, authorized: authorized, expiresAt: now.addingTimeInterval(seconds))
    }

    @Test func unexpiredCachedAnswersCountAndOnlyTheRestIsAsked() {
        let cache = [
            "news": cached("news", true), "old": cached("old", true, expiresIn: -1), "movies": cached("movies", false),
        ]
        let ledger = PreauthorizationLedger(
            requested: ["news", "old", "sports", "news", "movies"], cached: cache, useCache: true, now: now)
        #expect(ledger.requested == ["news", "old", "sports", "movies"])
        #expect(ledger.missing == ["old", "sports"])
        #expect(ledger.permitted == ["news"])
        #expect(!ledger.answeredFromCache)
        let bypass = PreauthorizationLedger(requested: ["news"], cached: cache, useCache: false, now: now)
        #expect(bypass.missing == ["news"])
    }

    @Test func batchesHoldAtMostTheLimit() {
        let ledger = PreauthorizationLedger(
            requested: ["a", "b", "c", "d", "e", "f", "g"], cached: [:], useCache: true, now: now)
        #expect(ledger.batches(limit: nil) == [["a", "b", "c", "d", "e", "f", "g"]])
        #expect(ledger.batches(limit: 5) == [["a", "b", "c", "d", "e"], ["f", "g"]])
        #expect(ledger.batches(limit: 3) == [["a", "b", "c"], ["d", "e", "f"], ["g"]])
        let none = PreauthorizationLedger(requested: ["a"], cached: ["a": cached("a", true)], useCache: true, now: now)
        #expect(none.batches(limit: 5).isEmpty)
        #expect(none.answeredFromCache)
    }

    @Test func bothProjectionsComeFromTheSameAnswers() {
        var ledger = PreauthorizationLedger(
            requested: ["news", "premium", "sports"], cached: ["sports": cached("sports", true)], useCache: true,
            now: now)
        let denial = EnhancedError(
            status: 403, code: "authorization_denied_by_mvpd", message: "User not authorized",
            details: "Not in your package.")
        ledger.record([
            Decision(
                resource: "premium", serviceProvider: "REF30", mvpd: "M", source: .mvpd, authorized: false,
                error: denial),
            Decision(resource: "news", serviceProvider: "REF30", mvpd: "M", source: .mvpd, authorized: true),
        ])
        #expect(ledger.permitted == ["news", "sports"])
        #expect(
            ledger.resourceDecisions == [
                .init(resource: "news", authorized: true),
                .init(resource: "premium", authorized: false, error: denial),
                .init(resource: "sports", authorized: true),
            ])
        let response = PreauthorizeOutcome.decisions(ledger.resourceDecisions).response
        #expect(response.decisions.map(\.id) == ["news", "premium", "sports"])
        #expect(response.decisions[1].error?.code == "authorization_denied_by_mvpd")
        #expect(response.status == nil)
    }
}
