import Foundation

/// The engine's inbox: the facade's calls and the child tasks' answers, in arrival order.
/// Every event posted is counted by the ``ActivityTracker`` until the engine has handled it.
final class EngineMailbox: Sendable {
    let activity: ActivityTracker
    private let continuation: AsyncStream<EngineEvent>.Continuation
    /// The events, for the engine's loop.
    let events: AsyncStream<EngineEvent>

    init(activity: ActivityTracker) {
        self.activity = activity
        (events, continuation) = AsyncStream<EngineEvent>.makeStream()
    }

    /// Queues `event` behind everything posted before it.
    func post(_ event: EngineEvent) {
        activity.eventPosted()
        continuation.yield(event)
    }

    /// Queues `event` that the caller has already counted (a timer that fired: the count
    /// and the timer's end happen under one lock).
    func postCounted(_ event: EngineEvent) {
        continuation.yield(event)
    }

    /// No more events: the engine's loop ends once the queue is drained.
    func close() { continuation.finish() }
}
