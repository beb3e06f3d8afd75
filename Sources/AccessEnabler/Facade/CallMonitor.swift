import Foundation
import Synchronization

/// Lets a test rig follow every facade call to its end: it is told of each call as it is
/// made, with the id its callbacks will carry, and of every callback as it is delivered,
/// with the call it belongs to — so it can check that each call ends in exactly one
/// terminal callback. Nothing is installed in an app; each report then costs one atomic
/// load.
final class CallMonitor: Sendable {
    /// Told of each call: its id and what it asks.
    typealias CallObserver = @Sendable (CallID, Command) -> Void
    /// Told of each callback delivered: the callback and the call it belongs to.
    typealias CallbackObserver = @Sendable (DelegateCall, CallID?) -> Void

    /// Told when a call takes over the flow another call started: what ends the flow now
    /// comes under the new call's id.
    typealias TakeoverObserver = @Sendable (_ old: CallID, _ new: CallID) -> Void

    private struct Observers {
        var calls: CallObserver
        var callbacks: CallbackObserver
        var takeovers: TakeoverObserver
    }

    private let observers = Mutex<Observers?>(nil)
    /// Whether observers are installed: without them (an app) a report is one atomic load.
    private let installed = Atomic<Bool>(false)

    /// From now on, calls go to `calls`, callbacks to `callbacks` and takeovers to `takeovers`.
    func install(
        calls: @escaping CallObserver, callbacks: @escaping CallbackObserver,
        takeovers: @escaping TakeoverObserver = { _, _ in }
    ) {
        observers.withLock { $0 = Observers(calls: calls, callbacks: callbacks, takeovers: takeovers) }
        installed.store(true, ordering: .releasing)
    }

    /// Whether a rig installed observers.
    var isInstalled: Bool { installed.load(ordering: .acquiring) }

    func flowTakenOver(_ old: CallID, by new: CallID) {
        guard installed.load(ordering: .acquiring) else { return }
        observers.withLock { $0?.takeovers }?(old, new)
    }

    func callMade(_ call: CallID, _ command: Command) {
        guard installed.load(ordering: .acquiring) else { return }
        observers.withLock { $0?.calls }?(call, command)
    }

    func delivered(_ callback: DelegateCall, for call: CallID?) {
        guard installed.load(ordering: .acquiring) else { return }
        observers.withLock { $0?.callbacks }?(callback, call)
    }
}
