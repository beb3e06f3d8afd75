import Foundation

/// Lets a test rig follow every facade call to its end: it is told of each call as it is
/// made, with the id its callbacks will carry, and of every callback as it is delivered,
/// with the call it belongs to — so it can check that each call ends in exactly one
/// terminal callback. Nothing is installed in an app; each report then costs one
/// uncontended lock.
final class CallMonitor: @unchecked Sendable {
    /// Told of each call: its id and what it asks.
    typealias CallObserver = @Sendable (CallID, Command) -> Void
    /// Told of each callback delivered: the callback and the call it belongs to.
    typealias CallbackObserver = @Sendable (DelegateCall, CallID?) -> Void

    private let lock = NSLock()
    private var calls: CallObserver?
    private var callbacks: CallbackObserver?

    /// From now on, calls go to `calls` and callbacks to `callbacks`.
    func install(calls: @escaping CallObserver, callbacks: @escaping CallbackObserver) {
        lock.withLock {
            self.calls = calls
            self.callbacks = callbacks
        }
    }

    func callMade(_ call: CallID, _ command: Command) {
        lock.withLock { calls }?(call, command)
    }

    func delivered(_ callback: DelegateCall, for call: CallID?) {
        lock.withLock { callbacks }?(callback, call)
    }
}
