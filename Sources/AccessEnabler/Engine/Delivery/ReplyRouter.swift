import Foundation
import Synchronization

/// Hands each async facade call the callbacks of its own call: it sees every callback the
/// dispatcher delivers, with the call it belongs to, collects them per call, and resumes
/// the call's waiter at its terminal callback.
///
/// A waiter is registered before its command is submitted, so nothing can arrive unseen;
/// a reply that is complete before anyone awaits it is kept until it is taken. A call whose
/// reply is a hand-over that the SDK itself carries on (a second-screen code) gets a next
/// stage at once, so its later callbacks are collected too.
final class ReplyRouter: Sendable {
    /// What a callback means for the call waiting for it.
    enum Disposition: Sendable {
        /// Not the end: keep collecting.
        case more
        /// The call's terminal callback.
        case terminal
        /// A hand-over that ends this stage; the SDK carries the call on, and the next
        /// stage ends at a callback satisfying the given test.
        case handOver(next: @Sendable (DelegateCall) -> Disposition)
    }

    /// One stage of one call's reply.
    struct Key: Hashable, Sendable {
        var call: CallID
        var stage: Int
    }

    /// What one call produced, up to and including its terminal callback.
    struct Reply: Sendable {
        /// Every callback of the call, in delivery order.
        var callbacks: [DelegateCall] = []
        /// `true` when the wait was cancelled before the terminal callback.
        var cancelled = false

        /// The terminal callback (the last one), unless cancelled.
        var terminal: DelegateCall? { cancelled ? nil : callbacks.last }

        /// The advanced statuses of the call.
        var statuses: [AdvancedStatus] {
            callbacks.compactMap { if case .status(let status) = $0 { status } else { nil } }
        }
    }

    private struct Pending {
        var isTerminal: @Sendable (DelegateCall) -> Disposition
        var reply = Reply()
        var done = false
        var continuation: CheckedContinuation<Reply, Never>?
    }

    private struct State {
        var counter: UInt64 = 0
        var pending: [Key: Pending] = [:]
    }

    private let state = Mutex(State())
    /// How many stages are registered, kept beside the state so a callback nobody waits for
    /// (an app that uses the delegate only) costs one atomic load and no lock.
    private let registered = Atomic<Int>(0)

    /// Runs `body` under the lock, then records how many stages are registered.
    private func changing<T>(_ body: (inout State) -> T) -> T {
        state.withLock { state in
            defer { registered.store(state.pending.count, ordering: .releasing) }
            return body(&state)
        }
    }

    /// Whether a call's reply is being collected (an async call waits, or will wait).
    var isCollecting: Bool { registered.load(ordering: .acquiring) > 0 }

    /// A new call id.
    func newCall() -> CallID {
        state.withLock {
            $0.counter += 1
            return CallID(value: $0.counter)
        }
    }

    /// Starts collecting the callbacks of `call` until `disposition` says one ends it.
    func expect(_ call: CallID, until disposition: @escaping @Sendable (DelegateCall) -> Disposition) {
        changing { $0.pending[Key(call: call, stage: 0)] = Pending(isTerminal: disposition) }
    }

    /// Waits for the reply of `call` (registered with ``expect(_:until:)``); a cancelled
    /// task gets what was collected so far, marked cancelled.
    func reply(for call: CallID, stage: Int = 0) async -> Reply {
        let call = Key(call: call, stage: stage)
        return await waitForReply(call)
    }

    /// How many stages of calls are registered and not yet taken (waited for or complete).
    var pendingCount: Int {
        state.withLock { $0.pending.count }
    }

    /// How many registered stages have a caller waiting for them.
    var waitingCount: Int {
        state.withLock { $0.pending.values.filter { $0.continuation != nil }.count }
    }

    /// Whether a stage of `call` is registered (a hand-over left the call going on).
    func hasStage(_ stage: Int, of call: CallID) -> Bool {
        state.withLock { $0.pending[Key(call: call, stage: stage)] != nil }
    }

    private func waitForReply(_ call: Key) async -> Reply {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
                let ready: Reply? = changing { state in
                    guard var entry = state.pending[call] else { return Reply(cancelled: true) }
                    if entry.done {
                        state.pending[call] = nil
                        return entry.reply
                    }
                    entry.continuation = continuation
                    state.pending[call] = entry
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel(call)
        }
    }

    /// Stops waiting for `call`.
    private func cancel(_ call: Key) {
        let waiter: (CheckedContinuation<Reply, Never>, Reply)? = changing { state in
            guard let entry = state.pending.removeValue(forKey: call) else { return nil }
            var reply = entry.reply
            reply.cancelled = true
            return entry.continuation.map { ($0, reply) }
        }
        waiter.map { $0.0.resume(returning: $0.1) }
    }

    /// A callback was delivered for `owner`.
    func deliver(_ callback: DelegateCall, for call: CallID?) {
        // Nobody waits for any reply (an app that uses the delegate only): nothing to do. A
        // stage is registered before its call is submitted, so it is seen here.
        guard let call, registered.load(ordering: .acquiring) > 0 else { return }
        let resumed: (CheckedContinuation<Reply, Never>, Reply)? = changing { state in
            // The open stage of the call: the highest one not done yet.
            var open: Key?
            for (key, pending) in state.pending
            where key.call == call && !pending.done && key.stage >= (open?.stage ?? 0) { open = key }
            guard let owner = open, var entry = state.pending[owner] else { return nil }
            entry.reply.callbacks.append(callback)
            switch entry.isTerminal(callback) {
            case .more:
                state.pending[owner] = entry
                return nil
            case .terminal:
                break
            case .handOver(let next):
                state.pending[Key(call: call, stage: owner.stage + 1)] = Pending(isTerminal: next)
            }
            entry.done = true
            if let continuation = entry.continuation {
                state.pending[owner] = nil
                return (continuation, entry.reply)
            }
            state.pending[owner] = entry
            return nil
        }
        resumed.map { $0.0.resume(returning: $0.1) }
    }
}
