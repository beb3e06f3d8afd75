import Foundation

/// The child tasks of the flow the engine is driving: the partner sign-in (which may hold
/// the system picker for minutes), the poll timer and the poll in flight. Each belongs to a
/// ``FlowID``; cancelling a flow cancels its tasks, and their late answers are dropped by
/// the state machine.
struct FlowChildren: Sendable {
    private var partnerSignIn: (flow: FlowID, task: Task<Void, Never>)?
    private var pollTimer: (flow: FlowID, task: Task<Void, Never>, token: UInt64)?
    private var pollFetch: (flow: FlowID, task: Task<Void, Never>)?

    mutating func startedPartnerSignIn(_ flow: FlowID, _ task: Task<Void, Never>) {
        partnerSignIn?.task.cancel()
        partnerSignIn = (flow, task)
    }

    mutating func partnerSignInEnded(_ flow: FlowID) {
        if partnerSignIn?.flow == flow { partnerSignIn = nil }
    }

    mutating func cancelPartnerSignIn(_ flow: FlowID) {
        guard partnerSignIn?.flow == flow else { return }
        partnerSignIn?.task.cancel()
        partnerSignIn = nil
    }

    /// Replaces the poll timer; returns the one it replaced (to cancel).
    mutating func setPollTimer(_ flow: FlowID, _ task: Task<Void, Never>, token: UInt64) -> (task: Task<Void, Never>, token: UInt64)? {
        defer { pollTimer = (flow, task, token) }
        return pollTimer.map { ($0.task, $0.token) }
    }

    mutating func pollTimerFired(_ flow: FlowID) {
        if pollTimer?.flow == flow { pollTimer = nil }
    }

    mutating func startedPollFetch(_ flow: FlowID, _ task: Task<Void, Never>) {
        pollFetch?.task.cancel()
        pollFetch = (flow, task)
    }

    mutating func pollFetchEnded(_ flow: FlowID) {
        if pollFetch?.flow == flow { pollFetch = nil }
    }

    /// Stops the poll timer and any poll in flight of `flow`; returns the timer's token.
    mutating func stopPolling(_ flow: FlowID) -> UInt64? {
        var token: UInt64?
        if let timer = pollTimer, timer.flow == flow {
            timer.task.cancel()
            token = timer.token
            pollTimer = nil
        }
        if let fetch = pollFetch, fetch.flow == flow {
            fetch.task.cancel()
            pollFetch = nil
        }
        return token
    }
}
