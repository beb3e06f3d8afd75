import Foundation

/// Knows whether the SDK still has work under way, so a test rig or a scenario runner can
/// wait until it is quiescent: no event queued or being handled, no child task in flight
/// (a partner sign-in, a poll request), no poll timer due.
///
/// Waiting for a person (a provider choice, a login page, a second-screen code whose next
/// poll is not due yet) is quiescent. Waiting out a throttling back-off is not: when
/// everything that runs is waiting for the clock to reach a back-off deadline, the tracker
/// says so (``Quiescence/waitingForClock(until:)``), so a runner with a manual clock can move
/// it there instead of blocking.
final class ActivityTracker: @unchecked Sendable {
    private let lock = NSLock()
    /// Events posted and not yet handled.
    private var queuedEvents = 0
    /// Child tasks in flight, by token.
    private var children: Set<UInt64> = []
    /// Back-off waits in progress, by token, with their deadlines.
    private var backOffs: [UInt64: Date] = [:]
    /// Poll timers set, by token, with their deadlines.
    private var timers: [UInt64: Date] = [:]
    private var nextToken: UInt64 = 0
    /// Waiters to wake on the next change (they evaluate again).
    private var waiters: [@Sendable () -> Void] = []

    // MARK: Recording

    func eventPosted() { change { queuedEvents += 1 } }
    func eventHandled() { change { queuedEvents -= 1 } }
    /// A child task starts; returns its token for ``childEnded(_:)``.
    func childStarted() -> UInt64 {
        change {
            nextToken += 1
            children.insert(nextToken)
            return nextToken
        }
    }

    /// The child task ended, or was cancelled (it may still be unwinding: a cancelled task
    /// no longer counts as work under way). Ending twice is harmless.
    func childEnded(_ token: UInt64) { change { _ = children.remove(token) } }

    /// A back-off wait until `deadline` begins; returns its token for ``backOffEnded(_:)``.
    func backOffStarted(until deadline: Date) -> UInt64 {
        change {
            nextToken += 1
            backOffs[nextToken] = deadline
            return nextToken
        }
    }

    func backOffEnded(_ token: UInt64) { change { backOffs[token] = nil } }

    /// A poll timer is set for `deadline`; returns its token.
    func timerSet(for deadline: Date) -> UInt64 {
        change {
            nextToken += 1
            timers[nextToken] = deadline
            return nextToken
        }
    }

    /// The timer fired (and posted its event) or was cancelled.
    func timerEnded(_ token: UInt64) { change { timers[token] = nil } }

    /// Ends a timer and posts its event under one lock, so nobody sees a moment where the
    /// timer is gone and its event not yet queued.
    func timerFired(_ token: UInt64, post: () -> Void) {
        change {
            timers[token] = nil
            queuedEvents += 1
            post()
        }
    }

    private func change<T>(_ body: () -> T) -> T {
        let (result, ready): (T, [@Sendable () -> Void]) = lock.withLock {
            let result = body()
            defer { waiters.removeAll() }
            return (result, waiters)
        }
        ready.forEach { $0() }
        return result
    }

    /// Whether no event is queued or being handled (the engine is free).
    var engineIsFree: Bool { lock.withLock { queuedEvents == 0 } }

    // MARK: Waiting

    /// Whether the SDK is quiescent at `now`.
    func quiescence(now: Date) -> Quiescence? {
        lock.withLock { evaluate(now: now) }
    }

    private func evaluate(now: Date) -> Quiescence? {
        let running = min(queuedEvents, 1) + children.count
        let dueTimer = timers.values.contains { $0 <= now }
        if running == 0 && queuedEvents == 0 && !dueTimer { return .idle }
        guard running > 0, !dueTimer else { return nil }
        let blocked = backOffs.values.filter { $0 > now }
        if blocked.count >= running, let until = blocked.min() { return .waitingForClock(until: until) }
        return nil
    }

    /// Returns once the SDK is quiescent, reading the time from `clock`.
    func waitUntilQuiescent(clock: any TimeSource) async -> Quiescence {
        while true {
            let outcome: Quiescence? = await withCheckedContinuation { (continuation: CheckedContinuation<Quiescence?, Never>) in
                let now = clock.now
                let answer: Quiescence?? = lock.withLock {
                    if let state = evaluate(now: now) { return .some(state) }
                    waiters.append { continuation.resume(returning: nil) }
                    return .none
                }
                if case .some(let state) = answer { continuation.resume(returning: state) }
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
