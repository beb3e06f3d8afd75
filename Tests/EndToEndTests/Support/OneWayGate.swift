import Foundation

/// A gate that opens once and stays open: whoever waits at it goes on when it opens. The
/// first wait starts a bound on a hang: after ``stallBound`` the gate opens by itself, so a
/// test whose condition never comes fails on its expectations instead of hanging.
final class OneWayGate: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    private var bounded = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Whether the gate is open.
    var isOpen: Bool { lock.withLock { opened } }

    /// Waits until the gate is open.
    func pass() async {
        let startsBound: Bool = lock.withLock {
            defer { bounded = true }
            return !opened && !bounded
        }
        if startsBound {
            Task {
                try? await Task.sleep(nanoseconds: UInt64(stallBound * 1_000_000_000))
                self.open()
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goes: Bool = lock.withLock {
                if opened { return true }
                waiting.append(continuation)
                return false
            }
            if goes { continuation.resume() }
        }
    }

    /// Opens the gate; `true` when this call opened it (`false`: it was open already).
    @discardableResult
    func open() -> Bool {
        let released: [CheckedContinuation<Void, Never>]? = lock.withLock {
            guard !opened else { return nil }
            opened = true
            defer { waiting = [] }
            return waiting
        }
        released?.forEach { $0.resume() }
        return released != nil
    }
}
