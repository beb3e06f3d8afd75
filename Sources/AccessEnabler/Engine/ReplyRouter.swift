import Foundation

/// Hands each async facade call the callbacks of its own call: it sees every callback the
/// dispatcher delivers, with the call it belongs to, collects them per call, and resumes
/// the call's waiter at its terminal callback.
///
/// A waiter is registered before its command is submitted, so nothing can arrive unseen;
/// a reply that is complete before anyone awaits it is kept until it is taken. A call whose
/// reply is a hand-over that the SDK itself carries on (a second-screen code) gets a next
/// stage at once, so its later callbacks are collected too.
final class ReplyRouter: @unchecked Sendable {
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

    private let lock = NSLock()
    private var counter: UInt64 = 0
    private var pending: [Key: Pending] = [:]
    /// Per call, the calls whose open stage ends with its callbacks: another call took over
    /// the flow they waited on (see ``takeOver(_:by:)``).
    private var followers: [CallID: [CallID]] = [:]

    /// A new call id.
    func newCall() -> CallID {
        lock.withLock {
            counter += 1
            return CallID(value: counter)
        }
    }

    /// Starts collecting the callbacks of `call` until `disposition` says one ends it.
    func expect(_ call: CallID, until disposition: @escaping @Sendable (DelegateCall) -> Disposition) {
        lock.withLock { pending[Key(call: call, stage: 0)] = Pending(isTerminal: disposition) }
    }

    /// Waits for the reply of `call` (registered with ``expect(_:until:)``); a cancelled
    /// task gets what was collected so far, marked cancelled.
    func reply(for call: CallID, stage: Int = 0) async -> Reply {
        let call = Key(call: call, stage: stage)
        return await waitForReply(call)
    }

    /// Whether a stage of `call` is registered (a hand-over left the call going on).
    func hasStage(_ stage: Int, of call: CallID) -> Bool {
        lock.withLock { pending[Key(call: call, stage: stage)] != nil }
    }

    private func waitForReply(_ call: Key) async -> Reply {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
                let ready: Reply? = lock.withLock {
                    guard var entry = pending[call] else { return Reply(cancelled: true) }
                    if entry.done {
                        pending[call] = nil
                        return entry.reply
                    }
                    entry.continuation = continuation
                    pending[call] = entry
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
        let waiter: (CheckedContinuation<Reply, Never>, Reply)? = lock.withLock {
            guard let entry = pending.removeValue(forKey: call) else { return nil }
            var reply = entry.reply
            reply.cancelled = true
            return entry.continuation.map { ($0, reply) }
        }
        waiter.map { $0.0.resume(returning: $0.1) }
    }

    /// The flow `old` waited on was taken over by the call `new` (a setRequestor ending a
    /// partner sign-in or a second-screen wait, a logout ending it, a new provider choice):
    /// the callback that ends the flow now belongs to `new`, so whatever `old` still waits
    /// for is ended by `new`'s callbacks instead — an async call never waits for a callback
    /// that will come under another call's name.
    func takeOver(_ old: CallID, by new: CallID) {
        lock.withLock {
            guard old != new else { return }
            let moved = followers.removeValue(forKey: old) ?? []
            let waits = pending.contains { $0.key.call == old && !$0.value.done }
            let taken = (waits ? [old] : []) + moved
            if !taken.isEmpty { followers[new, default: []].append(contentsOf: taken) }
        }
    }

    /// A callback was delivered for `owner`.
    func deliver(_ callback: DelegateCall, for call: CallID?) {
        guard let call else { return }
        let resumed: [(CheckedContinuation<Reply, Never>, Reply)] = lock.withLock {
            var resumed: [(CheckedContinuation<Reply, Never>, Reply)] = []
            if let ready = feed(callback, to: call) { resumed.append(ready) }
            guard let waiting = followers[call] else { return resumed }
            var still: [CallID] = []
            for follower in waiting {
                if let ready = feed(callback, to: follower) { resumed.append(ready) }
                if pending.contains(where: { $0.key.call == follower && !$0.value.done }) { still.append(follower) }
            }
            followers[call] = still.isEmpty ? nil : still
            return resumed
        }
        for (continuation, reply) in resumed { continuation.resume(returning: reply) }
    }

    /// Adds `callback` to the open stage of `call`; the waiter to resume when it ended the
    /// stage and someone waits. Must be called with `lock` held.
    private func feed(_ callback: DelegateCall, to call: CallID) -> (CheckedContinuation<Reply, Never>, Reply)? {
        // The open stage of the call: the highest one not done yet.
        guard let owner = pending.keys.filter({ $0.call == call && pending[$0]?.done == false }).max(by: { $0.stage < $1.stage }),
              var entry = pending[owner]
        else { return nil }
        entry.reply.callbacks.append(callback)
        switch entry.isTerminal(callback) {
        case .more:
            pending[owner] = entry
            return nil
        case .terminal:
            break
        case .handOver(let next):
            pending[Key(call: call, stage: owner.stage + 1)] = Pending(isTerminal: next)
        }
        entry.done = true
        if let continuation = entry.continuation {
            pending[owner] = nil
            return (continuation, entry.reply)
        }
        pending[owner] = entry
        return nil
    }
}
