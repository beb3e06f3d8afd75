import Dispatch
import Foundation

/// Runs `operation`, returning `fallback` if it has not finished after `seconds`. The
/// operation is cancelled then and its late answer dropped; unlike a task group, this
/// returns on time even when the operation ignores cancellation.
///
/// The operation runs in one task; the deadline is an entry on the process's
/// ``DeadlineWatchdog`` (no sleeping task, no thread held, no timer of its own), cancelled
/// as soon as the answer is in. When the deadline passes, the watchdog resumes the caller
/// directly, so a cooperative pool crowded with other work delays the fallback by one
/// scheduling turn, not by the turns a sleeping task would need to wake up and finish.
/// Cancelling the caller cancels the operation; the caller still gets its answer, or the
/// fallback at the deadline.
func withDeadline<T: Sendable>(seconds: TimeInterval, fallback: T, _ operation: @escaping @Sendable () async -> T) async -> T {
    let race = DeadlineRace<T>(fallback: fallback)
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            race.install(continuation)
            let work = Task {
                let value = await operation()
                race.finish(with: value)
            }
            race.arm(seconds: seconds, work: work)
        }
    } onCancel: {
        race.cancelWork()
    }
}

/// The race between an operation and its deadline: resumes the caller exactly once, with
/// whoever comes first, then cancels the deadline (the answer came first) or the operation
/// (the deadline came first).
private final class DeadlineRace<T: Sendable>: DeadlineExpiring, @unchecked Sendable {
    private let lock = NSLock()
    private let fallback: T
    private var continuation: CheckedContinuation<T, Never>?
    private var finished = false
    private var ticket: DeadlineWatchdog.Ticket?
    private var work: Task<Void, Never>?
    private var workCancelled = false

    init(fallback: T) { self.fallback = fallback }

    func install(_ continuation: CheckedContinuation<T, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Sets the deadline unless the answer is already in; keeps `work` to cancel.
    func arm(seconds: TimeInterval, work: Task<Void, Never>) {
        let (finished, cancelWork): (Bool, Bool) = lock.withLock {
            self.work = work
            return (self.finished, workCancelled)
        }
        if cancelWork { work.cancel() }
        if finished { return }
        let ticket = DeadlineWatchdog.shared.schedule(after: seconds, self)
        let keep: Bool = lock.withLock {
            guard !self.finished else { return false }
            self.ticket = ticket
            return true
        }
        // The answer came in meanwhile: the deadline goes.
        if !keep { DeadlineWatchdog.shared.cancel(ticket) }
    }

    func deadlinePassed() {
        if finish(with: fallback) { cancelWork() }
    }

    /// Resumes the caller with `value` if nobody has yet; returns whether this call did.
    @discardableResult
    func finish(with value: T) -> Bool {
        let (pending, ticket): (CheckedContinuation<T, Never>?, DeadlineWatchdog.Ticket?) = lock.withLock {
            guard !finished else { return (nil, nil) }
            finished = true
            defer {
                continuation = nil
                self.ticket = nil
            }
            return (continuation, self.ticket)
        }
        if let ticket { DeadlineWatchdog.shared.cancel(ticket) }
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
