import Foundation

/// The engine's child tasks under way: the requests the state machine asked for (by
/// ticket), per interactive flow the partner sign-in, the session requests, the poll
/// timer and the poll in flight, and the quiet window of a round of authorizations. Each
/// counts as work under way for the ``ActivityTracker`` until its answer is handled or it
/// is cancelled; a cancelled child's late answer is dropped by the state machine.
struct EngineChildren: Sendable {
    /// What a child task does, and for whom.
    enum Key: Hashable, Sendable {
        case request(RequestTicket)
        /// The configuration an authentication flow waits for.
        case configuration(FlowID)
        /// The timer of a logout page (by the logout's ticket).
        case logoutPageTimer(RequestTicket)
        case partnerSignIn(FlowID)
        case session(FlowID)
        case pollTimer(FlowID)
        case pollFetch(FlowID)
        /// The quiet window of the authorizations being gathered.
        case quietWindow
    }

    /// A running child task and its activity token.
    struct Child: Sendable {
        let task: Task<Void, Never>
        let token: UInt64
        /// Whether the activity tracker counts it as a timer (else as a running child).
        let isTimer: Bool
    }

    private var running: [Key: Child] = [:]

    /// How many child tasks are under way.
    var count: Int { running.count }

    /// Whether a child other than a timer is under way: a request, or the partner
    /// framework's sign-in, whose answer comes back as an event.
    var hasWorkUnderWay: Bool { running.values.contains { !$0.isTimer } }

    /// Records `child` under `key`; returns the one it replaced (to cancel).
    mutating func started(_ child: Child, as key: Key) -> Child? {
        running.updateValue(child, forKey: key)
    }

    /// The child whose answer `event` is has ended.
    mutating func answered(_ event: EngineEvent) {
        guard let key = Self.key(answeredBy: event) else { return }
        running[key] = nil
    }

    /// Cancels the child under `key`, if any; it stops counting as work under way at once.
    mutating func cancel(_ key: Key, activity: ActivityTracker) {
        guard let child = running.removeValue(forKey: key) else { return }
        Self.cancel(child, activity: activity)
    }

    /// Cancels every child: nothing will read their answers.
    mutating func cancelAll(activity: ActivityTracker) {
        for child in running.values { Self.cancel(child, activity: activity) }
        running = [:]
    }

    /// Cancels `child`; it stops counting as work under way at once.
    static func cancel(_ child: Child, activity: ActivityTracker) {
        child.task.cancel()
        if child.isTimer { activity.timerEnded(child.token) } else { activity.childEnded(child.token) }
    }

    /// The child an event answers for, if it is a child's answer.
    static func key(answeredBy event: EngineEvent) -> Key? {
        switch event {
        case .requestorLoaded(let ticket, _), .partnerAnswered(let ticket, _), .silentSignInFinished(let ticket, _),
            .configurationFetched(let ticket, _), .decisionsAnswered(let ticket, _), .logoutAnswered(let ticket, _):
            .request(ticket)
        case .flowConfigurationFetched(let flow, _): .configuration(flow)
        case .logoutPageTimedOut(let ticket): .logoutPageTimer(ticket)
        case .partnerSignInFinished(let flow, _): .partnerSignIn(flow)
        case .sessionAnswered(let flow, _), .sessionProfileAnswered(let flow, _): .session(flow)
        case .pollDue(let flow): .pollTimer(flow)
        case .pollAnswered(let flow, _): .pollFetch(flow)
        case .quietWindowElapsed: .quietWindow
        case .command, .pickerPresented, .pickerDismissed, .signedOutByNewRegistration, .mailboxDrained, .released: nil
        }
    }
}
