import Dispatch
import Foundation

/// Runs `operation`, returning `fallback` if it has not finished after `seconds`. The
/// operation is cancelled then and its late answer dropped; unlike a task group, this
/// returns on time even when the operation ignores cancellation.
///
/// The operation runs in one task; the deadline is a dispatch timer (no sleeping task, no
/// thread held), cancelled as soon as the answer is in. When the timer fires it resumes the
/// caller directly, so a cooperative pool crowded with other work delays the fallback by
/// one scheduling turn, not by the turns a sleeping task would need to wake up and finish.
/// Cancelling the caller cancels the operation; the caller still gets its answer, or the
/// fallback at the deadline.
func withDeadline<T: Sendable>(seconds: TimeInterval, fallback: T, _ operation: @escaping @Sendable () async -> T) async -> T {
    let race = DeadlineRace<T>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            race.install(continuation)
            let work = Task {
                let value = await operation()
                race.finish(with: value)
            }
            race.arm(seconds: seconds, fallback: fallback, work: work)
        }
    } onCancel: {
        race.cancelWork()
    }
}

/// The race between an operation and its deadline timer: resumes the caller exactly once,
/// with whoever comes first, then cancels the timer (the answer came first) or the
/// operation (the deadline came first).
private final class DeadlineRace<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?
    private var result: T?
    private var timer: DispatchSourceTimer?
    private var work: Task<Void, Never>?
    private var workCancelled = false

    func install(_ continuation: CheckedContinuation<T, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Starts the deadline timer unless the answer is already in; keeps `work` to cancel.
    func arm(seconds: TimeInterval, fallback: T, work: Task<Void, Never>) {
        let (finished, cancelWork): (Bool, Bool) = lock.withLock {
            self.work = work
            return (result != nil, workCancelled)
        }
        if cancelWork { work.cancel() }
        if finished { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchTimerWait.queue)
        // Clamped: a huge timeout ("never") must not overflow the nanosecond count.
        let nanoseconds = Int(min(max(seconds, 0.001), 1_000_000_000) * 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .milliseconds(1))
        timer.setEventHandler { [self] in
            if finish(with: fallback) { self.cancelWork() }
        }
        let keep: Bool = lock.withLock {
            guard result == nil else { return false }
            self.timer = timer
            return true
        }
        if !keep {
            // The answer came in meanwhile: the timer is cancelled before it can fire, and
            // activated so it is released in a state dispatch accepts.
            timer.cancel()
        }
        timer.resume()
    }

    /// Resumes the caller with `value` if nobody has yet; returns whether this call did.
    @discardableResult
    func finish(with value: T) -> Bool {
        let (pending, timer): (CheckedContinuation<T, Never>?, DispatchSourceTimer?) = lock.withLock {
            guard result == nil else { return (nil, nil) }
            result = value
            defer {
                continuation = nil
                self.timer = nil
            }
            return (continuation, self.timer)
        }
        timer?.cancel()
        pending?.resume(returning: value)
        return pending != nil
    }

    /// Cancels the operation (now, or as soon as its task exists).
    func cancelWork() {
        let work: Task<Void, Never>? = lock.withLock {
            workCancelled = true
            return self.work
        }
        work?.cancel()
    }
}
