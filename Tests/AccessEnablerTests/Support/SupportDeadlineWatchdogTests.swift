import Foundation
import Testing

@testable import AccessEnabler

/// The process's one timer for every deadline: a deadline passes once, not before its time;
/// a cancelled one never passes; an earlier one set after a later one still passes first.
@Suite struct SupportDeadlineWatchdogTests {
    /// Records when it was told its deadline passed.
    final class Target: DeadlineExpiring, @unchecked Sendable {
        private let lock = NSLock()
        private var passes: [Date] = []
        private let passed: DispatchSemaphore?

        init(signalling passed: DispatchSemaphore? = nil) { self.passed = passed }

        var times: [Date] { lock.withLock { passes } }

        func deadlinePassed() {
            lock.withLock { passes.append(Date()) }
            passed?.signal()
        }
    }

    @Test func aDeadlinePassesOnceAndNotBeforeItsTime() throws {
        let watchdog = DeadlineWatchdog(queue: DispatchQueue(label: "watchdog-test"))
        let passed = DispatchSemaphore(value: 0)
        let target = Target(signalling: passed)
        let start = Date()
        _ = watchdog.schedule(after: 0.05, target)
        #expect(passed.wait(timeout: .now() + 60) == .success)
        Thread.sleep(forTimeInterval: 0.05)
        let times = target.times
        try #require(times.count == 1)
        #expect(times[0].timeIntervalSince(start) >= 0.049)
        #expect(watchdog.count == 0)
    }

    @Test func aCancelledDeadlineNeverPasses() {
        let watchdog = DeadlineWatchdog(queue: DispatchQueue(label: "watchdog-test"))
        let cancelled = Target()
        let witness = DispatchSemaphore(value: 0)
        let later = Target(signalling: witness)
        // Seconds apart from the cancel, so a busy machine that holds this thread up between
        // the two calls cannot let the first pass before it is cancelled.
        let ticket = watchdog.schedule(after: 3, cancelled)
        _ = watchdog.schedule(after: 3.05, later)
        watchdog.cancel(ticket)
        watchdog.cancel(ticket)
        #expect(witness.wait(timeout: .now() + 60) == .success)
        #expect(cancelled.times.isEmpty)
        #expect(later.times.count == 1)
        #expect(watchdog.count == 0)
    }

    @Test func anEarlierDeadlineSetAfterALaterOnePassesFirst() {
        let watchdog = DeadlineWatchdog(queue: DispatchQueue(label: "watchdog-test"))
        let early = DispatchSemaphore(value: 0)
        let late = Target()
        let soon = Target(signalling: early)
        let start = Date()
        let lateTicket = watchdog.schedule(after: 30, late)
        _ = watchdog.schedule(after: 0.03, soon)
        #expect(early.wait(timeout: .now() + 60) == .success)
        #expect(
            soon.times.first.map { $0.timeIntervalSince(start) < 5 } == true, "the timer moved to the earlier deadline")
        #expect(late.times.isEmpty)
        #expect(watchdog.count == 1)
        watchdog.cancel(lateTicket)
        #expect(watchdog.count == 0)
    }

    @Test func manyCancelledDeadlinesDoNotAccumulate() {
        let watchdog = DeadlineWatchdog(queue: DispatchQueue(label: "watchdog-test"))
        let target = Target()
        for _ in 0..<10_000 {
            watchdog.cancel(watchdog.schedule(after: 30, target))
        }
        #expect(watchdog.count == 0)
        #expect(watchdog.heapSize < 1_000, "cancelled deadlines are compacted away: \(watchdog.heapSize)")
    }
}
