import Foundation
import Testing

@testable import AccessEnabler

/// The engine's inbox: order, a parked reader, the facade's claim and the engine's held
/// turn, closing — and that every event is counted until it is handled.
@Suite struct EngineMailboxTests {
    static func command(_ resource: String) -> EngineEvent {
        .command(.checkAuthorization(resource, data: nil), call: nil)
    }

    static func resource(of event: EngineEvent?) -> String? {
        if case .command(.checkAuthorization(let resource, _), _)? = event { return resource }
        return nil
    }

    @Test func eventsComeOutInTheOrderTheyWerePosted() async {
        let mailbox = EngineMailbox(activity: ActivityTracker())
        for resource in ["a", "b", "c"] { mailbox.post(Self.command(resource)) }
        #expect(mailbox.hasWaitingEvents)
        var taken: [String] = []
        for _ in 0..<3 {
            taken.append(Self.resource(of: await mailbox.next()) ?? "?")
            mailbox.finishedEvent()
        }
        #expect(taken == ["a", "b", "c"])
        #expect(!mailbox.hasWaitingEvents)
    }

    @Test func aParkedReaderIsHandedTheNextEventAndCloseEndsTheLoop() async {
        let mailbox = EngineMailbox(activity: ActivityTracker())
        let reader = Task { () -> [String?] in
            var seen: [String?] = []
            while let event = await mailbox.next() {
                seen.append(Self.resource(of: event))
                mailbox.finishedEvent()
            }
            return seen
        }
        mailbox.post(Self.command("a"))
        mailbox.post(Self.command("b"))
        mailbox.close()
        #expect(await reader.value == ["a", "b"], "a closed mailbox is drained before the loop ends")
    }

    @Test func everyEventCountsAsWorkUntilHandled() async {
        let activity = ActivityTracker()
        let mailbox = EngineMailbox(activity: activity)
        let now = Date()
        #expect(activity.quiescence(now: now) == .idle)
        mailbox.post(Self.command("a"))
        #expect(activity.quiescence(now: now) == nil)
        _ = await mailbox.next()
        mailbox.finishedEvent()
        #expect(activity.quiescence(now: now) == nil, "still under way until its callbacks are delivered")
        activity.eventHandled()
        #expect(activity.quiescence(now: now) == .idle)
    }

    @Test func theFacadeClaimsAnIdleEngineAndCallsMadeMeanwhileWaitInOrder() async {
        let activity = ActivityTracker()
        let mailbox = EngineMailbox(activity: activity)
        #expect(mailbox.claimIfIdle())
        #expect(!mailbox.claimIfIdle(), "one claim at a time")
        mailbox.post(Self.command("later"))
        let reader = Task { Self.resource(of: await mailbox.next()) }
        #expect(mailbox.hasWaitingEvents, "the claim holds the event back")
        var delivered = false
        mailbox.releaseClaim { done in
            delivered = true
            done()
        }
        #expect(delivered)
        #expect(await reader.value == "later")
        mailbox.finishedEvent()
        activity.eventHandled()
        #expect(activity.quiescence(now: Date()) == .idle, "the claim and the event were each counted once")
    }

    @Test func noClaimWhileAnEventWaitsOrTheEngineHoldsItsTurn() async {
        let mailbox = EngineMailbox(activity: ActivityTracker())
        mailbox.post(Self.command("a"))
        #expect(!mailbox.claimIfIdle(), "an event is waiting")
        _ = await mailbox.next()
        #expect(!mailbox.claimIfIdle(), "an event is being handled")
        mailbox.finishedEvent()
        mailbox.holdTurn(true)
        #expect(!mailbox.claimIfIdle(), "work of an earlier call is under way")
        mailbox.holdTurn(false)
        #expect(mailbox.claimIfIdle())
        mailbox.close()
        mailbox.releaseClaim { $0() }
        #expect(!mailbox.claimIfIdle(), "a closed mailbox is never claimed")
    }

    /// What an async call followed by a burst meets: the app has heard the call's terminal
    /// callback while the engine is still finishing the call's event. A claim made then
    /// waits for the turn instead of being refused by chance.
    @Test func aClaimMadeWhileTheEngineIsBusyWaitsForTheTurn() async {
        let activity = ActivityTracker()
        let mailbox = EngineMailbox(activity: activity)
        mailbox.post(Self.command("a"))
        _ = await mailbox.next()
        let claimant = Task { await mailbox.claimWhenFree() }
        // Every chance to run while the engine is busy: it must go on waiting.
        for _ in 0..<100 { await Task.yield() }
        // The engine ends the event as its loop does: finished, then handled once its
        // callbacks have reached the delegate.
        mailbox.finishedEvent()
        activity.eventHandled()
        #expect(await claimant.value, "the claim was taken once the engine was free, not refused")
        #expect(!mailbox.claimIfIdle(), "the claimant holds the turn")
        mailbox.releaseClaim { $0() }
    }

    @Test func aClaimWaitingForTheTurnGivesUpWhenTheMailboxCloses() async {
        let mailbox = EngineMailbox(activity: ActivityTracker())
        mailbox.holdTurn(true)
        let claimant = Task { await mailbox.claimWhenFree() }
        for _ in 0..<100 { await Task.yield() }
        mailbox.close()
        #expect(await claimant.value == false)
    }
}
