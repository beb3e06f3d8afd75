import Foundation

/// Counts commands submitted but not yet run, and wakes waiters when the count is zero.
final class IdleTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var outstanding = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func begin() { lock.withLock { outstanding += 1 } }

    func finish() {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            outstanding -= 1
            guard outstanding == 0 else { return [] }
            defer { waiters.removeAll() }
            return waiters
        }
        ready.forEach { $0.resume() }
    }

    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idleNow = lock.withLock { () -> Bool in
                if outstanding == 0 { return true }
                waiters.append(continuation)
                return false
            }
            if idleNow { continuation.resume() }
        }
    }
}
