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
    private var observer: (any CallbackObserver)?

    /// The app's diagnostics handler, if any.
    private let diagnostics: (@Sendable (Diagnostic) -> Void)?
    /// The same handler, as bound around each delivery for a delegate missing a terminal callback.
    private let deliveryHandler: CallbackDiagnostics.Handler?

    init(queue: DispatchQueue, diagnostics: (@Sendable (Diagnostic) -> Void)? = nil) {
        self.queue = queue
        self.diagnostics = diagnostics
        deliveryHandler = diagnostics.map(CallbackDiagnostics.Handler.init)
    }

    func setDelegate(_ delegate: EntitlementDelegate?) { lock.withLock { self.delegate = delegate } }
    func setStatusDelegate(_ delegate: EntitlementStatus?) { lock.withLock { self.statusDelegate = delegate } }
    var currentDelegate: EntitlementDelegate? { lock.withLock { delegate } }
    var currentStatusDelegate: EntitlementStatus? { lock.withLock { statusDelegate } }
    /// The delegate, and whether there is a status delegate, read together.
    var currentDelegates: (delegate: EntitlementDelegate?, hasStatusDelegate: Bool) {
        lock.withLock { (delegate, statusDelegate != nil) }
    }

    /// Whether a tracking event would reach anyone: the observer listens, or the delegate's
    /// type was not found to implement `sendTrackingData` in neither spelling. A check
    /// answered outside the engine builds its tracking event only then.
    var wantsTrackingData: Bool {
        let (delegate, observer) = lock.withLock { (self.delegate, self.observer) }
        if observer?.isListening == true { return true }
        guard let delegate else { return false }
        return !SilentTrackingDelegates.contains(ObjectIdentifier(type(of: delegate)))
    }

    /// Installs the observer that sees every callback after the delegates, with the facade
    /// calls it belongs to (none, one, or several when it ends calls a flow was carried on from).
    func setObserver(_ observer: any CallbackObserver) { lock.withLock { self.observer = observer } }

    /// Installs `observer` as a closure that always listens (test rigs).
    func setObserver(_ observer: @escaping @Sendable (DelegateCall, [CallID]) -> Void) {
        setObserver(ClosureCallbackObserver(observer))
    }

    /// Queues `call` for delivery after every call queued before it; `owner` is the facade
    /// call it belongs to, and `others` the calls it also ends (the delegate receives it once).
    func dispatch(_ call: DelegateCall, for owner: CallID? = nil, alsoEnding others: [CallID] = []) {
        queue.async { [self] in
            let receivers = receivers
            deliver(call, to: receivers, owner: owner, others: others)
        }
    }

    /// Queues `calls` for delivery, in order, after every call queued before them: one trip
    /// to the callback queue for all of them, and one pass (the receivers are read once).
    /// `then` runs on the callback queue once they are delivered.
    func dispatch(_ calls: [DelegateCall], for owner: CallID? = nil, then delivered: (@Sendable () -> Void)? = nil) {
        queue.async { [self] in
            let receivers = receivers
            // Through the buffer: each call is borrowed, not copied.
            calls.withUnsafeBufferPointer { buffer in
                for index in buffer.indices { deliver(buffer[index], to: receivers, owner: owner, others: []) }
            }
            delivered?()
        }
    }

    /// Who receives callbacks now: the delegates, and the observer while it listens (an app
    /// that uses its delegate only has none).
    private var receivers: Receivers {
        let (delegate, statusDelegate, observer) = lock.withLock { (self.delegate, self.statusDelegate, self.observer) }
        return Receivers(
            delegate: delegate, statusDelegate: statusDelegate, observer: observer.flatMap { $0.isListening ? $0 : nil }
        )
    }

    private struct Receivers {
        var delegate: EntitlementDelegate?
        var statusDelegate: EntitlementStatus?
        var observer: (any CallbackObserver)?
    }

    /// Delivers one call to the delegates, then the observer. Runs on the callback queue.
    private func deliver(_ call: DelegateCall, to receivers: Receivers, owner: CallID?, others: [CallID]) {
        if let diagnostics {
            if case .status(let status) = call { diagnostics(.status(status)) }
            // A delegate missing a terminal callback is reported to this instance's handler.
            CallbackDiagnostics.$currentHandler.withValue(deliveryHandler) {
                call.deliver(to: receivers.delegate, statusDelegate: receivers.statusDelegate)
            }
        } else {
            call.deliver(to: receivers.delegate, statusDelegate: receivers.statusDelegate)
        }
        receivers.observer?.delivered(call, owner: owner, others: others)
    }

    /// Returns once every call dispatched so far has been delivered, and every other block
    /// queued on the callback queue before it has run (test rigs record there too).
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}

/// Sees every callback the dispatcher delivers, after the delegates, with the facade calls it
/// belongs to: the async API's replies, the event stream, a test rig's monitor.
protocol CallbackObserver: AnyObject, Sendable {
    /// Whether anything listens now; while nothing does, the dispatcher does not call
    /// ``delivered(_:for:)``.
    var isListening: Bool { get }

    /// `call` was delivered; it belongs to `owner` and also ends `others` (calls that
    /// carried its flow before the owner).
    func delivered(_ call: DelegateCall, owner: CallID?, others: [CallID])
}

/// A closure as an observer that always listens.
private final class ClosureCallbackObserver: CallbackObserver {
    private let observe: @Sendable (DelegateCall, [CallID]) -> Void

    init(_ observe: @escaping @Sendable (DelegateCall, [CallID]) -> Void) { self.observe = observe }

    var isListening: Bool { true }

    func delivered(_ call: DelegateCall, owner: CallID?, others: [CallID]) {
        observe(call, (owner.map { [$0] } ?? []) + others)
    }
}
