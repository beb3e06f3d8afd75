import Dispatch
import Foundation

/// Waits until a clock reads a given instant: the SDK's only way to let time pass (the
/// throttling back-off, the second-screen poll interval).
///
/// It sits beside ``TimeSource``: the SDK reads the time from the configuration's clock and
/// waits on the same clock, so a test or a scenario that moves a manual clock forward also
/// wakes whatever was waiting for that moment, and nothing waits in real time.
public protocol Sleeper: Sendable {
    /// Returns once the clock reads `deadline` or later, or throws `CancellationError` as
    /// soon as the calling task is cancelled. Returns at once when `deadline` has passed.
    func sleep(until deadline: Date) async throws(CancellationError)
}

/// Waits in real time for a clock that follows the wall clock (``SystemTimeSource``, or any
/// clock that moves by itself): the difference between `deadline` and the clock's reading
/// is waited out on a cancellable dispatch timer, so a cancelled wait ends at once and costs
/// no thread while it lasts.
public struct SystemSleeper: Sleeper {
    private let clock: any TimeSource

    /// A sleeper for `clock` (the wall clock by default).
    public init(clock: any TimeSource = SystemTimeSource()) { self.clock = clock }

    /// Waits until `clock` reads `deadline`.
    public func sleep(until deadline: Date) async throws(CancellationError) {
        let seconds = deadline.timeIntervalSince(clock.now)
        guard seconds > 0 else {
            if Task.isCancelled { throw CancellationError() }
            return
        }
        try await DispatchTimerWait.wait(seconds: seconds)
    }
}

/// One cancellable wait on a dispatch timer (no sleeping task, no thread held).
///
/// libdispatch traps when a timer source that was never resumed is released, so the timer
/// is created only once the wait is installed (a wait cancelled before that never makes
/// one), and a timer that exists is always resumed before it can be cancelled and released.
enum DispatchTimerWait {
    /// The queue every SDK timer fires on: handlers only resume a continuation.
    static let queue = DispatchQueue(label: "accessenabler.timers")

    /// Waits `seconds` of real time; throws `CancellationError` when the task is cancelled first.
    static func wait(seconds: TimeInterval) async throws(CancellationError) {
        let state = TimerState()
        let completed: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // Cancelled already: the continuation is resumed and no timer is made.
                guard state.install(continuation) else { return }
                let timer = DispatchSource.makeTimerSource(queue: queue)
                // Clamped: a huge wait ("never") must not overflow the nanosecond count, and
                // one that is not a number is none.
                let nanoseconds: Int = WholeNumber.clamped(
                    min(max(seconds.isNaN ? 0 : seconds, 0), 1_000_000_000) * 1_000_000_000)
                timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .milliseconds(1))
                timer.setEventHandler { state.finish(true) }
                timer.resume()
                state.attach(timer)
            }
        } onCancel: {
            state.finish(false)
        }
        if !completed { throw CancellationError() }
    }

    /// Resumes the continuation exactly once: timer fired (`true`) or cancelled (`false`),
    /// and cancels the timer (always a resumed one) once the wait has ended.
    private final class TimerState: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Bool, Never>?
        private var timer: DispatchSourceTimer?
        private var outcome: Bool?

        /// Keeps the continuation; `false` (having resumed it) when the wait already ended.
        func install(_ continuation: CheckedContinuation<Bool, Never>) -> Bool {
            let early: Bool? = lock.withLock {
                if let outcome { return outcome }
                self.continuation = continuation
                return nil
            }
            if let early {
                continuation.resume(returning: early)
                return false
            }
            return true
        }

        /// Keeps the running timer so the end of the wait can cancel it; cancels it at once
        /// when the wait ended while it was being made.
        func attach(_ timer: DispatchSourceTimer) {
            let ended: Bool = lock.withLock {
                if outcome != nil { return true }
                self.timer = timer
                return false
            }
            if ended { timer.cancel() }
        }

        func finish(_ fired: Bool) {
            let (continuation, timer): (CheckedContinuation<Bool, Never>?, DispatchSourceTimer?) = lock.withLock {
                guard outcome == nil else { return (nil, nil) }
                outcome = fired
                defer {
                    self.continuation = nil
                    self.timer = nil
                }
                return (self.continuation, self.timer)
            }
            timer?.cancel()
            continuation?.resume(returning: fired)
        }
    }
}

/// The waits registered on a clock that moves only when told to (``ManualTimeSource``, the
/// sandbox's manual clock): each is resumed when the clock is moved to or past its deadline.
///
/// Clocks call ``wait(until:now:)`` from their ``Sleeper`` conformance and ``fire(now:)``
/// after every move. Thread-safe.
package final class ClockAlarms: @unchecked Sendable {
    private struct Alarm {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let lock = NSLock()
    private var alarms: [Alarm] = []
    private var nextID: UInt64 = 0

    /// Creates an empty set of alarms.
    package init() {}

    /// The earliest deadline still waited for, if any.
    package var earliestDeadline: Date? { lock.withLock { alarms.map(\.deadline).min() } }

    /// How many waits are pending.
    package var count: Int { lock.withLock { alarms.count } }

    /// Waits until ``fire(now:)`` is called with an instant at or past `deadline`; `now`
    /// reads the clock. Throws `CancellationError` when the task is cancelled first.
    ///
    /// The clock is read again while the wait is registered: a clock moved past `deadline`
    /// between the first reading and the registration has already fired its alarms, so
    /// the wait would otherwise sleep until the next move.
    package func wait(until deadline: Date, now: @autoclosure () -> Date) async throws(CancellationError) {
        if deadline <= now() {
            if Task.isCancelled { throw CancellationError() }
            return
        }
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        let fired: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let early: Bool? = lock.withLock { () -> Bool? in
                    if Task.isCancelled { return false }
                    if deadline <= now() { return true }
                    alarms.append(Alarm(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            let alarm: Alarm? = lock.withLock {
                guard let index = alarms.firstIndex(where: { $0.id == id }) else { return nil }
                return alarms.remove(at: index)
            }
            alarm?.continuation.resume(returning: false)
        }
        if !fired { throw CancellationError() }
    }

    /// Resumes every wait whose deadline is at or before `now`, earliest first.
    package func fire(now: Date) {
        let due: [Alarm] = lock.withLock {
            let due = alarms.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            guard !due.isEmpty else { return [] }
            let ids = Set(due.map(\.id))
            alarms.removeAll { ids.contains($0.id) }
            return due
        }
        for alarm in due { alarm.continuation.resume(returning: true) }
    }
}
