import Foundation

/// Delivers ``DelegateCall``s on the configured queue, in order, to the delegates the
/// facade holds weakly, and lets observers (transcripts, test rigs) see each one.
final class CallbackDispatcher: @unchecked Sendable {
    private let queue: DispatchQueue
    private let lock = NSLock()
    private weak var delegate: EntitlementDelegate?
    private weak var statusDelegate: EntitlementStatus?

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func setDelegate(_ delegate: EntitlementDelegate?) { lock.withLock { self.delegate = delegate } }
    func setStatusDelegate(_ delegate: EntitlementStatus?) { lock.withLock { self.statusDelegate = delegate } }
    var currentDelegate: EntitlementDelegate? { lock.withLock { delegate } }
    var currentStatusDelegate: EntitlementStatus? { lock.withLock { statusDelegate } }

    /// Queues `call` for delivery after every call queued before it.
    func dispatch(_ call: DelegateCall) {
        queue.async { [self] in
            call.deliver(to: currentDelegate, statusDelegate: currentStatusDelegate)
        }
    }

    /// Returns once every call dispatched so far has been delivered.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
