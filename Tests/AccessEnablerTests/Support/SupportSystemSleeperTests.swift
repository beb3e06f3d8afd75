import Foundation
import Testing

@testable import AccessEnabler

/// The production sleeper waits on real dispatch timers. A wait may be cancelled at any
/// instant — before it starts, while its timer is being set up, while it runs, after it
/// ended — and each must end the wait cleanly: `CancellationError` when cancelled before
/// the deadline, a normal return otherwise, never a trap and never a wait for the deadline.
@Suite("System sleeper", .timeLimit(.minutes(20)))
struct SupportSystemSleeperTests {
    /// Far enough ahead that only a cancellation can end the wait within the test's bounds.
    private static let farAhead: TimeInterval = 600

    /// Outcome of one wait, as the test sees it.
    private enum Outcome: Equatable {
        case returned
        case cancelled
    }

    private static func sleep(_ sleeper: SystemSleeper, seconds: TimeInterval) async -> Outcome {
        do {
            try await sleeper.sleep(until: Date().addingTimeInterval(seconds))
            return .returned
        } catch {
            return .cancelled
        }
    }

    @Test func aWaitCancelledBeforeItStartsThrowsAtOnce() async {
        let sleeper = SystemSleeper()
        let task = Task { () -> Outcome in
            withUnsafeCurrentTask { $0?.cancel() }
            return await Self.sleep(sleeper, seconds: Self.farAhead)
        }
        #expect(await task.value == .cancelled)
    }

    @Test func aWaitCancelledWhileItRunsThrowsAtOnce() async throws {
        let sleeper = SystemSleeper()
        let started = Date()
        let task = Task { await Self.sleep(sleeper, seconds: Self.farAhead) }
        try await Task.sleep(nanoseconds: 20_000_000)
        task.cancel()
        #expect(await task.value == .cancelled)
        #expect(Date().timeIntervalSince(started) < 30)
    }

    /// Cancellations racing the wait's set-up, from another thread, at every offset the
    /// scheduler gives: each wait ends, cancelled or (rarely, if it never saw the cancel
    /// before its short deadline) returned.
    @Test func waitsCancelledWhileTheirTimerIsSetUpEnd() async {
        let sleeper = SystemSleeper()
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for index in 0..<400 {
                let task = Task { await Self.sleep(sleeper, seconds: index.isMultiple(of: 2) ? Self.farAhead : 0.002) }
                group.addTask {
                    task.cancel()
                    return await task.value
                }
            }
            var outcomes: [Outcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 400)
        // A far-ahead wait can only have ended through its cancellation.
        #expect(outcomes.filter { $0 == .cancelled }.count >= 200)
    }

    @Test func aWaitThatEndedIsNotUndoneByALaterCancel() async {
        let sleeper = SystemSleeper()
        let task = Task { () -> Outcome in
            let outcome = await Self.sleep(sleeper, seconds: 0.01)
            withUnsafeCurrentTask { $0?.cancel() }
            return outcome
        }
        #expect(await task.value == .returned)
    }

    @Test func aDeadlineAlreadyPassedReturnsUnlessCancelled() async {
        let sleeper = SystemSleeper()
        #expect(await Self.sleep(sleeper, seconds: -1) == .returned)
        let task = Task { () -> Outcome in
            withUnsafeCurrentTask { $0?.cancel() }
            return await Self.sleep(sleeper, seconds: -1)
        }
        #expect(await task.value == .cancelled)
    }
}
