import Foundation

/// Runs `operation`, returning `fallback` if it has not finished after `seconds`. The
/// operation is cancelled then and its late answer dropped; unlike a task group, this
/// returns on time even when the operation ignores cancellation.
///
/// The deadline is a sleeping task that the answer cancels, so nothing waits out the rest
/// of the timeout once the answer is in.
func withDeadline<T: Sendable>(seconds: TimeInterval, fallback: T, _ operation: @escaping @Sendable () async -> T) async -> T {
    let gate = OnceGate<T>()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        gate.install(continuation)
        let work = Task {
            let value = await operation()
            gate.resume(with: value)
        }
        let timer = Task {
            // Clamped: a huge timeout ("never") must not overflow the conversion.
            try? await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0.001), 1_000_000_000) * 1_000_000_000))
            if !Task.isCancelled, gate.resume(with: fallback) { work.cancel() }
        }
        gate.attach(timer)
    }
}

/// Resumes a continuation exactly once, whoever comes first, and then cancels the
/// deadline's timer.
private final class OnceGate<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?
    private var resumed = false
    private var timer: Task<Void, Never>?

    func install(_ continuation: CheckedContinuation<T, Never>) { lock.withLock { self.continuation = continuation } }

    /// Keeps `timer` to cancel on resumption (cancels it at once if that already happened).
    func attach(_ timer: Task<Void, Never>) {
        let cancelNow: Bool = lock.withLock {
            if resumed { return true }
            self.timer = timer
            return false
        }
        if cancelNow { timer.cancel() }
    }

    /// Resumes with `value` if nobody has yet; returns whether this call did.
    @discardableResult
    func resume(with value: T) -> Bool {
        let (pending, timer): (CheckedContinuation<T, Never>?, Task<Void, Never>?) = lock.withLock {
            guard !resumed else { return (nil, nil) }
            resumed = true
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
}
