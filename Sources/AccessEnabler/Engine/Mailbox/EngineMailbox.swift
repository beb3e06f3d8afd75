import Foundation
import Synchronization

/// The engine's inbox: the facade's calls and the child tasks' answers, in arrival order.
/// Every event posted is counted by the ``ActivityTracker`` until the engine has handled it.
///
/// A queue under a mutex with one parked reader (the engine's loop), rather than an
/// `AsyncStream`: posting to an idle engine hands the event straight to the parked loop,
/// and a loop that finds an event waiting takes it without suspending.
///
/// The facade may also *claim* the engine's turn while the engine is idle (``claimIfIdle()``),
/// to answer a call outside the engine — a checkAuthentication that only needs the partner
/// framework's answer. Events posted meanwhile wait in the queue until the claim is released,
/// so calls still run, and their callbacks arrive, in the order they were made. The engine
/// *holds* its turn (``holdTurn(_:)``) while work of an earlier call waits for an answer, so
/// no claim overtakes it.
final class EngineMailbox: Sendable {
    let activity: ActivityTracker

    private struct State {
        /// Events not yet taken, oldest first from `head`.
        var queue: [EngineEvent] = []
        var head = 0
        /// The engine's loop, waiting for the next event.
        var parked: CheckedContinuation<EngineEvent?, Never>?
        /// The loop is handling an event it took.
        var handling = false
        /// The facade holds the engine's turn.
        var claimed = false
        /// The engine holds its turn: work of an earlier call is under way.
        var held = false
        var closed = false

        /// `.some(event)` to hand out now, `.some(nil)` when closed and drained, `nil` to wait.
        mutating func takeIfReady() -> EngineEvent?? {
            guard !claimed else { return nil }
            if head < queue.count {
                let event = queue[head]
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: queue.count <= 64)
                    head = 0
                }
                handling = true
                return .some(event)
            }
            return closed ? .some(nil) : nil
        }
    }

    private let state = Mutex(State())

    init(activity: ActivityTracker) {
        self.activity = activity
    }

    /// Queues `event` behind everything posted before it.
    func post(_ event: EngineEvent) {
        activity.eventPosted()
        enqueue(event)
    }

    /// Queues `event` that the caller has already counted (a timer that fired: the count
    /// and the timer's end happen under one lock).
    func postCounted(_ event: EngineEvent) {
        enqueue(event)
    }

    private func enqueue(_ event: EngineEvent) {
        let reader: CheckedContinuation<EngineEvent?, Never>? = state.withLock { state in
            // A parked loop with no claim in the way has taken everything queued before.
            if let parked = state.parked, !state.claimed {
                state.parked = nil
                state.handling = true
                return parked
            }
            state.queue.append(event)
            return nil
        }
        reader?.resume(returning: event)
    }

    /// The next event, once one is queued and no claim holds it back; `nil` once the
    /// mailbox is closed and drained. Runs on the caller's actor (the engine), so taking an
    /// event that is already there costs no hop. Only the engine's loop calls it, and it
    /// calls ``finishedEvent()`` after handling each event.
    func next(isolation: isolated (any Actor)? = #isolation) async -> EngineEvent? {
        if let ready = state.withLock({ $0.takeIfReady() }) { return ready }
        return await withCheckedContinuation(isolation: isolation) {
            (continuation: CheckedContinuation<EngineEvent?, Never>) in
            let ready: EngineEvent?? = state.withLock { state in
                if let ready = state.takeIfReady() { return ready }
                state.parked = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The loop has handled the event it took last.
    func finishedEvent() {
        state.withLock { $0.handling = false }
    }

    /// Whether events wait to be taken (the engine gathers a burst of calls until none do).
    var hasWaitingEvents: Bool {
        state.withLock { $0.head < $0.queue.count }
    }

    /// The engine keeps its turn (`true`) while work of an earlier call waits for an answer,
    /// or gives it back: no claim succeeds while it is held.
    func holdTurn(_ hold: Bool) {
        state.withLock { $0.held = hold }
    }

    /// Takes the engine's turn when the engine is idle — no event queued or being handled,
    /// no work under way, no other claim — and counts it as an event under way. Returns
    /// `false` otherwise: then post the call instead.
    func claimIfIdle() -> Bool {
        let claimedNow: Bool = state.withLock { state in
            guard !state.handling, !state.claimed, !state.held, !state.closed, state.head == state.queue.count else {
                return false
            }
            state.claimed = true
            return true
        }
        if claimedNow { activity.eventPosted() }
        return claimedNow
    }

    /// Takes the engine's turn once it is free (as ``claimIfIdle()`` defines it), waiting
    /// for the work under way to change while it is not; `false` once the mailbox is closed.
    func claimWhenFree() async -> Bool {
        while true {
            // Read before trying, so a change between the two is not waited for in vain:
            // every state that refuses a claim ends with a change of the work under way.
            let seen = activity.progress
            if claimIfIdle() { return true }
            guard !isClosed else { return false }
            await activity.waitForChange(since: seen)
        }
    }

    /// Gives the turn back after `deliver` has queued the claim's callbacks: events posted
    /// meanwhile go to the engine, in order. `deliver` runs under the mailbox's lock (it
    /// only queues), so no later call's callbacks can be queued before it — and a later
    /// call that finds the engine idle can take the turn again as soon as it returns. The
    /// claim counts as work under way until `deliver` calls the closure it is given (once
    /// the callbacks have reached the delegate).
    func releaseClaim(delivering deliver: (_ delivered: @escaping @Sendable () -> Void) -> Void) {
        let activity = activity
        let handOver: (CheckedContinuation<EngineEvent?, Never>, EngineEvent?)? = state.withLock { state in
            deliver { activity.eventHandled() }
            state.claimed = false
            guard let parked = state.parked, let ready = state.takeIfReady() else { return nil }
            state.parked = nil
            return (parked, ready)
        }
        if let (reader, event) = handOver { reader.resume(returning: event) }
    }

    /// Whether ``close()`` was called (the AccessEnabler was released).
    var isClosed: Bool {
        state.withLock { $0.closed }
    }

    /// No more events: the engine's loop ends once the queue is drained.
    func close() {
        let reader: CheckedContinuation<EngineEvent?, Never>? = state.withLock { state in
            state.closed = true
            guard !state.claimed, state.head == state.queue.count, let parked = state.parked else { return nil }
            state.parked = nil
            return parked
        }
        reader?.resume(returning: nil)
        // A claim waiting for the turn (``claimWhenFree()``) looks again and gives up.
        activity.mailboxClosed()
    }
}
