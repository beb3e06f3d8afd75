import Foundation

/// What the SDK does with one answer of Adobe Pass: hand it to the caller, send the request
/// again later, or stop retrying. A pure value: no I/O, no clock of its own.
///
/// - A `429 Too Many Requests` is delivered (it becomes ``RESTClientError/throttled(operation:retryAfter:)``):
///   the caller decides what to do, and ``ThrottleGate`` makes the next request to that host
///   wait.
/// - An enhanced error that ``ServerAdvice`` reads as ``ServerAdvice/transient`` (for example
///   `network_connection_timeout`, or any code with the action `retry`) is sent again
///   ``retryBudget`` times (twice), on the ``RetrySchedule``: after 1 s, then 2 s, each
///   jittered, longer when the answer's `Retry-After` says so. When the budget is spent the
///   answer is given up on and delivered as the error it is.
/// - A `401` is delivered whatever its action says: ``AccessTokenSigning`` renews the
///   token for it.
/// - Anything else (a success, another error, a transport failure) is delivered.
struct BackOffPolicy: Sendable, Equatable {
    /// What came back from one attempt, as far as the policy needs to know.
    enum Outcome: Sendable, Equatable {
        /// A response: its status, what the enhanced error advises when the body held one,
        /// and the `Retry-After` delay in seconds when the header was there.
        case response(status: Int, advice: ServerAdvice?, retryAfter: TimeInterval?)
        /// No response: the transport failed.
        case transportFailure(TransportFailure)
    }

    /// The policy's answer.
    enum Decision: Sendable, Equatable {
        /// Hand the outcome to the caller.
        case deliver
        /// Send the same request again once the clock reads the date.
        case retry(after: Date)
        /// The outcome asked for a retry but the budget is spent: hand it to the caller as final.
        case giveUp
    }

    /// The shortest wait before any request that follows a throttling or retry answer:
    /// Adobe Pass throttling lasts one second after the first `429`.
    var minimumWait: TimeInterval = 1
    /// The longest wait a `Retry-After` header can impose, so a broken header cannot stall
    /// the SDK for good (``RetryAfter/longestHonoured``).
    var maximumWait: TimeInterval = RetryAfter.longestHonoured
    /// How many times an answer with the `retry` action is sent again.
    var retryBudget = RetrySchedule.limit

    /// How long to wait after an answer that asked for a wait: ``minimumWait``, or the
    /// `Retry-After` delay when longer, capped at ``maximumWait``.
    func wait(retryAfter: TimeInterval?) -> TimeInterval {
        min(maximumWait, max(minimumWait, retryAfter ?? 0))
    }

    /// The decision for `outcome`, the answer to attempt number `attempt` (1 for the first
    /// send), received when the clock read `now`. `jitter` multiplies the schedule's wait
    /// (``RetryJitter``; 1: none).
    func next(_ outcome: Outcome, attempt: Int, now: Date, jitter: Double = 1) -> Decision {
        guard case .response(let status, let advice, let retryAfter) = outcome else { return .deliver }
        if status == 429 || status == 401 || (200...299).contains(status) { return .deliver }
        guard advice?.isTransient == true else { return .deliver }
        guard attempt <= retryBudget else { return .giveUp }
        let scheduled = RetrySchedule.nominalWait(retry: attempt) * jitter
        return .retry(after: now.addingTimeInterval(min(maximumWait, max(scheduled, retryAfter ?? 0))))
    }
}
