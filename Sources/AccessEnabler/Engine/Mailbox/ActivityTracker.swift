import Foundation
import Synchronization

/// Knows whether the SDK still has work under way, so a test rig or a scenario runner can
/// wait until it is quiescent: no event queued or being handled, no child task in flight
/// (a partner sign-in, a poll request), no poll timer due.
///
/// Waiting for a person (a provider choice, a login page, a second-screen code whose next
/// poll is not due yet) is quiescent. Waiting out a throttling back-off is not: when
/// everything that runs is waiting for the clock to reach a back-off deadline, the tracker
/// says so (``Quiescence/waitingForClock(until:)``), so a runner with a manual clock can move
/// it there instead of blocking.
final class ActivityTracker: Sendable {
    private struct State {
        /// Events posted and not yet handled.
        var queuedEvents = 0
        /// Child tasks in flight, by token.
        var children: Set<UInt64> = []
        /// Back-off waits in progress, by token, with their deadlines.
        var backOffs: [UInt64: Date] = [:]
        /// Poll timers set, by token, with their deadlines.
        var timers: [UInt64: Date] = [:]
        var nextToken: UInt64 = 0
        /// Counts every change above: how far the SDK's work has got.
        var changes: UInt64 = 0
        /// Waiters to wake on the next change (they evaluate again).
        var waiters: [@Sendable () -> Void] = []

        mutating func newToken() -> UInt64 {
            nextToken += 1
            return nextToken
        }

        func evaluate(now: Date) -> Quiescence? {
            let running = min(queuedEvents, 1) + children.count
            let dueTimer = timers.values.contains { $0 <= now }
            if running == 0 && queuedEvents == 0 && !dueTimer { return .idle }
            guard running > 0, !dueTimer else { return nil }
            let blocked = backOffs.values.filter { $0 > now }
            if blocked.count >= running, let until = blocked.min() { return .waitingForClock(until: until) }
            return nil
        }
    }

    private let state = Mutex(State())

    // MARK: Recording

    func eventPosted() { change { $0.queuedEvents += 1 } }
    func eventHandled() { change { $0.queuedEvents -= 1 } }
    /// A child task starts; returns its token for ``childEnded(_:)``.
    func childStarted() -> UInt64 {
        change { state in
            let token = state.newToken()
            state.children.insert(token)
            return token
        }
    }

    /// The child task ended, or was cancelled (it may still be unwinding: a cancelled task
    /// no longer counts as work under way). Ending twice is harmless.
    func childEnded(_ token: UInt64) { change { _ = $0.children.remove(token) } }

    /// A back-off wait until `deadline` begins; returns its token for ``backOffEnded(_:)``.
    func backOffStarted(until deadline: Date) -> UInt64 {
        change { state in
            let token = state.newToken()
            state.backOffs[token] = deadline
            return token
        }
    }

    func backOffEnded(_ token: UInt64) { change { $0.backOffs[token] = nil } }

    /// A poll timer is set for `deadline`; returns its token.
    func timerSet(for deadline: Date) -> UInt64 {
        change { state in
            let token = state.newToken()
            state.timers[token] = deadline
            return token
        }
    }

    /// The timer fired (and posted its event) or was cancelled.
    func timerEnded(_ token: UInt64) { change { $0.timers[token] = nil } }

    /// Ends a timer and posts its event under one lock, so nobody sees a moment where the
    /// timer is gone and its event not yet queued.
    func timerFired(_ token: UInt64, post: () -> Void) {
        change { state in
            state.timers[token] = nil
            state.queuedEvents += 1
            post()
        }
    }

    /// The mailbox closed: nothing under way changes, but whoever waits for a change
    /// (``waitForChange(since:)``) looks again.
    func mailboxClosed() { change { _ in } }

    /// Applies `body` and wakes the waiters (after the lock is released).
    private func change<T: Sendable>(_ body: (inout State) -> T) -> T {
        let (result, ready): (T, [@Sendable () -> Void]) = state.withLock { state in
            let result = body(&state)
            state.changes &+= 1
            defer { state.waiters.removeAll() }
            return (result, state.waiters)
        }
        ready.forEach { $0() }
        return result
    }

    /// How many times the work under way has changed so far — an event posted or handled, a
    /// child task, back-off or timer started or ended, a request sent or answered. A runner
    /// that bounds a wait for quiescence compares readings of it: a machine that is merely
    /// slow still moves it, a stuck SDK does not.
    var progress: UInt64 { state.withLock { $0.changes } }

    /// Work under way moved without changing what is under way (a request of a child task
    /// was sent or answered): counted in ``progress`` only.
    func progressed() { state.withLock { $0.changes &+= 1 } }

    /// Whether no event is queued or being handled (the engine is free).
    var engineIsFree: Bool { state.withLock { $0.queuedEvents == 0 } }

    // MARK: Waiting

    /// Returns at the next change of the work under way after the reading `reading` of
    /// ``progress`` (at once when one came since). A request sent or answered
    /// (``progressed()``) does not wake it; the event its answer posts does.
    func waitForChange(since reading: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let changed: Bool = state.withLock { state in
                guard state.changes == reading else { return true }
                state.waiters.append { continuation.resume() }
                return false
            }
            if changed { continuation.resume() }
        }
    }

    /// Whether the SDK is quiescent at `now`.
    func quiescence(now: Date) -> Quiescence? {
        state.withLock { $0.evaluate(now: now) }
    }

    /// Returns once the SDK is quiescent, reading the time from `clock`.
    func waitUntilQuiescent(clock: any TimeSource) async -> Quiescence {
        while true {
            let outcome: Quiescence? = await withCheckedContinuation {
                (continuation: CheckedContinuation<Quiescence?, Never>) in
                let now = clock.now
                let answer: Quiescence?? = state.withLock { state in
                    if let quiescence = state.evaluate(now: now) { return .some(quiescence) }
                    state.waiters.append { continuation.resume(returning: nil) }
                    return .none
                }
                if case .some(let quiescence) = answer { continuation.resume(returning: quiescence) }
            }
            if let outcome { return outcome }
        }
    }
}

/// Whether the SDK has anything left to do on its own.
package enum Quiescence: Sendable, Equatable {
    /// Nothing is queued, running or due; the SDK waits for the application or a person.
    case idle
    /// Everything under way waits for the clock to reach `until` (a throttling back-off).
    case waitingForClock(until: Date)
}
