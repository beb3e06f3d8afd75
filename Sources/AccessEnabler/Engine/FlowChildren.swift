import Foundation

/// The child tasks of the flow the engine is driving: the partner sign-in (which may hold
/// the system picker for minutes), the poll timer and the poll in flight. Each belongs to a
/// ``FlowID``; cancelling a flow cancels its tasks, and their late answers are dropped by
/// the state machine.
struct FlowChildren: Sendable {
    /// A running child task: its flow, the task, and its activity token.
    struct Child: Sendable {
        let flow: FlowID
        let task: Task<Void, Never>
        let token: UInt64
    }

    private var partnerSignIn: Child?
    private var pollTimer: Child?
    private var pollFetch: Child?

    /// Records the partner sign-in; returns the one it replaced (to cancel).
    mutating func startedPartnerSignIn(_ child: Child) -> Child? {
        defer { partnerSignIn = child }
        return partnerSignIn
    }

    mutating func partnerSignInEnded(_ flow: FlowID) {
        if partnerSignIn?.flow == flow { partnerSignIn = nil }
    }

    /// Forgets the partner sign-in of `flow`; returns it (to cancel).
    mutating func cancelPartnerSignIn(_ flow: FlowID) -> Child? {
        guard let child = partnerSignIn, child.flow == flow else { return nil }
        partnerSignIn = nil
        return child
    }

    /// Replaces the poll timer; returns the one it replaced (to cancel).
    mutating func setPollTimer(_ child: Child) -> Child? {
        defer { pollTimer = child }
        return pollTimer
    }

    mutating func pollTimerFired(_ flow: FlowID) {
        if pollTimer?.flow == flow { pollTimer = nil }
    }

    /// Records the poll in flight; returns the one it replaced (to cancel).
    mutating func startedPollFetch(_ child: Child) -> Child? {
        defer { pollFetch = child }
        return pollFetch
    }

    mutating func pollFetchEnded(_ flow: FlowID) {
        if pollFetch?.flow == flow { pollFetch = nil }
    }

    /// Forgets the poll timer and any poll in flight of `flow`; returns them (to cancel).
    mutating func stopPolling(_ flow: FlowID) -> (timer: Child?, fetch: Child?) {
        var stopped: (timer: Child?, fetch: Child?) = (nil, nil)
        if let timer = pollTimer, timer.flow == flow {
            stopped.timer = timer
            pollTimer = nil
        }
        if let fetch = pollFetch, fetch.flow == flow {
            stopped.fetch = fetch
            pollFetch = nil
        }
        return stopped
    }
}
