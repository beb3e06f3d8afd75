import AccessEnabler
import Foundation
import PassSandbox
import Testing

/// A delegate written only in the spellings Swift gives Adobe's Objective-C headers receives
/// every callback; so does one in today's spellings; one with both receives each once.
@Suite struct LegacySpellingDelegateTests {
    @Test func aDelegateInTheLegacySpellingsReceivesEveryCallback() async throws {
        let delegate = LegacySpellingDelegate()
        let steps = try await FullFlow.run(delegate: delegate, log: delegate.log)
        FullFlow.expectEveryStep(steps)
        #expect(Set(delegate.log.history.map(\.name)) == FullFlow.everyCallback)
        #expect(delegate.log.history.allSatisfy { $0.spelling == .legacy })
    }

    @Test func theLegacyStatusDictionaryHasTheDocumentedKeys() async throws {
        let delegate = LegacySpellingDelegate()
        _ = try await FullFlow.run(delegate: delegate, log: delegate.log)
        let denied = try #require(delegate.log.statusDictionaries.first { $0["errorId"] == "Z100" })
        #expect(denied["level"] == "error")
        #expect(denied["resource"] == "sports")
        #expect(denied["code"] == "authorization_denied_by_mvpd")
        #expect(denied["message"] != nil)
    }

    @Test func aDelegateInTodaysSpellingsReceivesEveryCallback() async throws {
        let delegate = CurrentSpellingDelegate()
        let steps = try await FullFlow.run(delegate: delegate, log: delegate.log)
        FullFlow.expectEveryStep(steps)
        #expect(Set(delegate.log.history.map(\.name)) == FullFlow.everyCallback)
        #expect(delegate.log.history.allSatisfy { $0.spelling == .current })
    }

    @Test func aDelegateWithBothSpellingsReceivesEachCallbackOnceInTodaysSpelling() async throws {
        let delegate = BothSpellingsDelegate()
        let steps = try await FullFlow.run(delegate: delegate, log: delegate.log)
        FullFlow.expectEveryStep(steps)
        #expect(Set(delegate.log.history.map(\.name)) == FullFlow.everyCallback)
        let doubled = delegate.log.history.filter { $0.spelling == .legacy }
        #expect(doubled.isEmpty, "delivered a second time to the legacy spelling: \(doubled)")
    }
}
