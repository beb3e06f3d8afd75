import Foundation

/// Delivers ``DelegateCall``s on the configured queue, in order, to the delegates the
/// facade holds weakly, and lets observers (transcripts, test rigs) see each one.
///
/// The delegates are the app's objects, not `Sendable`: they are set and read under a lock
/// and called only on the callback queue (a `Mutex` cannot hold what is not `Sendable`).
final class CallbackDispatcher: @unchecked Sendable {
    private let queue: DispatchQueue
    private let lock = NSLock()
    private weak var delegate: EntitlementDelegate?
    private weak var statusDelegate: EntitlementStatus?
    /// Sees every callback after the delegates, with the calls it belongs to (the async API).
    private var observer: (@Sendable (DelegateCall, [CallID]) -> Void)?

    /// The app's diagnostics handler, if any.
    private let diagnostics: (@Sendable (Diagnostic) -> Void)?
    /// The same handler, as bound around each delivery for a delegate missing a terminal callback.
    private let deliveryHandler: CallbackDiagnostics.Handler?

    /// Runs tasks on the callback queue: a task that ends in callbacks (a checkAuthentication
    /// answered outside the engine) delivers them where it stands, with no hop of their own.
    let executor: CallbackQueueExecutor

    init(queue: DispatchQueue, diagnostics: (@Sendable (Diagnostic) -> Void)? = nil) {
        self.queue = queue
        self.diagnostics = diagnostics
        deliveryHandler = diagnostics.map(CallbackDiagnostics.Handler.init)
        executor = CallbackQueueExecutor(queue: queue)
    }

    func setDelegate(_ delegate: EntitlementDelegate?) { lock.withLock { self.delegate = delegate } }
    func setStatusDelegate(_ delegate: EntitlementStatus?) { lock.withLock { self.statusDelegate = delegate } }
    var currentDelegate: EntitlementDelegate? { lock.withLock { delegate } }
    var currentStatusDelegate: EntitlementStatus? { lock.withLock { statusDelegate } }

    /// Installs the observer that sees every callback after the delegates, with the facade
    /// calls it belongs to (none, one, or several when it ends calls a flow was carried on from).
    func setObserver(_ observer: @escaping @Sendable (DelegateCall, [CallID]) -> Void) { lock.withLock { self.observer = observer } }

    /// Queues `call` for delivery after every call queued before it; `owner` is the facade
    /// call it belongs to, and `others` the calls it also ends (the delegate receives it once).
    func dispatch(_ call: DelegateCall, for owner: CallID? = nil, alsoEnding others: [CallID] = []) {
        let owners = (owner.map { [$0] } ?? []) + others
        queue.async { [self] in deliver(call, for: owners) }
    }

    /// Queues `calls` for delivery, in order, after every call queued before them: one trip
    /// to the callback queue for all of them. `then` runs on the callback queue once they
    /// are delivered.
    func dispatch(_ calls: [DelegateCall], for owner: CallID? = nil, then delivered: (@Sendable () -> Void)? = nil) {
        let owners = owner.map { [$0] } ?? []
        queue.async { [self] in
            for call in calls { deliver(call, for: owners) }
            delivered?()
        }
    }

    /// Delivers `calls` now, in order. Only on the callback queue (a task running on
    /// ``executor``), after everything queued before the task; what is queued meanwhile
    /// waits for the task, so order holds.
    func deliverOnCallbackQueue(_ calls: [DelegateCall], for owner: CallID? = nil) {
        dispatchPrecondition(condition: .onQueue(queue))
        for call in calls { deliver(call, for: owner.map { [$0] } ?? []) }
    }

    /// Delivers one call to the delegates, then the observer. Runs on the callback queue.
    private func deliver(_ call: DelegateCall, for owners: [CallID]) {
        let (delegate, statusDelegate, observer) = lock.withLock { (self.delegate, self.statusDelegate, self.observer) }
        if let diagnostics {
            if case .status(let status) = call { diagnostics(.status(status)) }
            // A delegate missing a terminal callback is reported to this instance's handler.
            CallbackDiagnostics.$currentHandler.withValue(deliveryHandler) {
                call.deliver(to: delegate, statusDelegate: statusDelegate)
            }
        } else {
            call.deliver(to: delegate, statusDelegate: statusDelegate)
        }
        observer?(call, owners)
    }

    /// Returns once every call dispatched so far has been delivered, and every other block
    /// queued on the callback queue before it has run (test rigs record there too).
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
