import Dispatch
import Foundation
import Synchronization

/// Runs `operation`, returning `fallback` if it has not finished after `seconds`. The
/// operation is cancelled then and its late answer dropped; unlike a task group, this
/// returns on time even when the operation ignores cancellation.
///
/// The operation runs in one task, started on the calling thread (`Task.immediate`): an
/// operation that answers without suspending (a partner framework whose answer is at hand)
/// has finished before any deadline is set, so it costs no hop and no deadline. Otherwise
/// the deadline is an entry on the process's ``DeadlineWatchdog`` (no sleeping task, no
/// thread held, no timer of its own), cancelled as soon as the answer is in. When the deadline passes, the watchdog resumes the caller
/// directly, so a cooperative pool crowded with other work delays the fallback by one
/// scheduling turn, not by the turns a sleeping task would need to wake up and finish.
/// Cancelling the caller cancels the operation; the caller still gets its answer, or the
/// fallback at the deadline. A caller already cancelled starts the operation cancelled (in
/// a task of its own, not on the calling thread).
func withDeadline<T: Sendable>(seconds: TimeInterval, fallback: T, _ operation: @escaping @Sendable () async -> T) async
    -> T
{
    let race = DeadlineRace<T>(fallback: fallback)
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            race.install(continuation)
            let answer: @Sendable () async -> Void = { race.finish(with: await operation()) }
            let work: Task<Void, Never>
            if Task.isCancelled {
                // An immediate task would run the operation, uncancelled, up to its first
                // suspension (a request would be sent): this one starts cancelled.
                work = Task { await answer() }
                work.cancel()
            } else {
                work = Task.immediate { await answer() }
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
private final class DeadlineRace<T: Sendable>: DeadlineExpiring, Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, Never>?
        var finished = false
        var ticket: DeadlineWatchdog.Ticket?
        var work: Task<Void, Never>?
        var workCancelled = false
    }

    private let fallback: T
    private let state = Mutex(State())

    init(fallback: T) { self.fallback = fallback }

    func install(_ continuation: CheckedContinuation<T, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Sets the deadline unless the answer is already in; keeps `work` to cancel.
    func arm(seconds: TimeInterval, work: Task<Void, Never>) {
        let (finished, cancelWork): (Bool, Bool) = state.withLock {
            $0.work = work
            return ($0.finished, $0.workCancelled)
        }
        if cancelWork { work.cancel() }
        if finished { return }
        let ticket = DeadlineWatchdog.shared.schedule(after: seconds, self)
        let keep: Bool = state.withLock {
            guard !$0.finished else { return false }
            $0.ticket = ticket
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
        let (pending, ticket): (CheckedContinuation<T, Never>?, DeadlineWatchdog.Ticket?) = state.withLock { state in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            defer {
                state.continuation = nil
                state.ticket = nil
            }
            return (state.continuation, state.ticket)
        }
        if let ticket { DeadlineWatchdog.shared.cancel(ticket) }
        pending?.resume(returning: value)
        return pending != nil
    }

    /// Cancels the operation (now, or as soon as its task exists).
    func cancelWork() {
        let work: Task<Void, Never>? = state.withLock {
            $0.workCancelled = true
            return $0.work
        }
        work?.cancel()
    }
}
