import Foundation

/// Applies ``BackOffPolicy`` to an answer: whether ``RESTExchange`` sends the request again,
/// and when, on the gate's clock (so tests and scenarios move time instead of waiting). A
/// retry that would wait longer than ``patience`` (the request timeout) is not made: the
/// answer is delivered as it came. Pure, but for the jitter it draws.
struct BackOffRetry: Sendable {
    let policy: BackOffPolicy
    /// Gives the clock the waits are measured on, and the jitter.
    let gate: ThrottleGate
    /// The longest a retry may wait, in seconds.
    var patience: TimeInterval = .infinity

    /// When to send the request again after `response`, the `attempt`th answer, arrived at
    /// `now`; `nil` to deliver it.
    func retryDate(after response: HTTPResponseMessage, attempt: Int, now: Date) -> Date? {
        let outcome = BackOffPolicy.Outcome.response(
            status: response.status,
            advice: Self.isError(response.status)
                ? RESTResponseClassifier.enhancedError(in: response.body)?.advice : nil,
            retryAfter: RetryAfter.delay(in: response, now: now))
        switch policy.next(outcome, attempt: attempt, now: now, jitter: gate.jitter.factor()) {
        case .deliver, .giveUp:
            return nil
        case .retry(let date):
            // Written so that a patience that is not a number allows no wait at all.
            return date.timeIntervalSince(now) <= patience ? date : nil
        }
    }

    /// Only error bodies can hold an enhanced error worth reading.
    private static func isError(_ status: Int) -> Bool { status >= 400 && status != 429 && status != 401 }
}
