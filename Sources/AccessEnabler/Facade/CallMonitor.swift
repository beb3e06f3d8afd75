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

    /// Told when a call takes over the flow another call started: what ends the flow now
    /// comes under the new call's id.
    typealias TakeoverObserver = @Sendable (_ old: CallID, _ new: CallID) -> Void

    private let lock = NSLock()
    private var calls: CallObserver?
    private var callbacks: CallbackObserver?
    private var takeovers: TakeoverObserver?

    /// From now on, calls go to `calls`, callbacks to `callbacks` and takeovers to `takeovers`.
    func install(calls: @escaping CallObserver, callbacks: @escaping CallbackObserver, takeovers: @escaping TakeoverObserver = { _, _ in }) {
        lock.withLock {
            self.calls = calls
            self.callbacks = callbacks
            self.takeovers = takeovers
        }
    }

    func flowTakenOver(_ old: CallID, by new: CallID) {
        lock.withLock { takeovers }?(old, new)
    }

    func callMade(_ call: CallID, _ command: Command) {
        lock.withLock { calls }?(call, command)
    }

    func delivered(_ callback: DelegateCall, for call: CallID?) {
        lock.withLock { callbacks }?(callback, call)
    }
}
