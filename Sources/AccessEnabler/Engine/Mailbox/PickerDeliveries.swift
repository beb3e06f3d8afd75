import Synchronization

/// Lets the partner sign-in wait until the app has heard that the system picker opened
/// (`presentTVProviderDialog`) before the partner framework is asked for the person's
/// choice, and that it closed (`dismissTVProviderDialog`) before the sign-in goes on — as
/// on tvOS, where the app is told before the picker shows.
///
/// The partner sign-in runs as a child task and only posts these events; the engine handles
/// them in turn. Without the wait, an answer at hand (a partner framework that answers at
/// once, a machine whose engine is busy) let the sign-in's requests, even its end, come
/// before the app had heard of the picker at all.
final class PickerDeliveries: Sendable {
    /// Which of a flow's picker events.
    enum Key: Hashable, Sendable {
        case presented(FlowID)
        case dismissed(FlowID)

        /// The picker event `event` is, if it is one.
        init?(_ event: EngineEvent) {
            switch event {
            case .pickerPresented(let flow, _): self = .presented(flow)
            case .pickerDismissed(let flow, _): self = .dismissed(flow)
            default: return nil
            }
        }
    }

    private struct State {
        /// Delivered before anybody waited.
        var delivered: Set<Key> = []
        var waiting: [Key: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// The callbacks of the event under `key` have reached the delegate (or the event called
    /// for none: the engine calls this after every picker event it handled).
    func delivered(_ key: Key) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard let waiter = state.waiting.removeValue(forKey: key) else {
                state.delivered.insert(key)
                return nil
            }
            return waiter
        }
        waiter?.resume()
    }

    /// Returns once ``delivered(_:)`` was called for `key` (at once when it already was), or
    /// when the task is cancelled.
    func waitUntilDelivered(_ key: Key) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = state.withLock { state in
                    if state.delivered.remove(key) != nil || Task.isCancelled { return true }
                    state.waiting[key] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiting.removeValue(forKey: key) }
            waiter?.resume()
        }
    }
}
