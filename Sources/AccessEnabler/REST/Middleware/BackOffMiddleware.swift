import Foundation

/// Applies ``BackOffPolicy`` to every answer: sends a request again when the policy says
/// so, after waiting on the gate's clock (so tests and scenarios move time instead of
/// waiting), and delivers everything else unchanged. A retry that would wait longer than
/// ``patience`` (the request timeout) is not made: the answer is delivered as it came.
struct BackOffMiddleware: RESTMiddleware {
    let policy: BackOffPolicy
    /// Gives the clock the waits are measured on and the sleeper that waits.
    let gate: ThrottleGate
    /// The longest a retry may wait, in seconds.
    var patience: TimeInterval = .infinity

    func intercept(
        _ request: HTTPRequestMessage, operation: RESTOperation, next: @escaping RESTNext
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        var attempt = 1
        while true {
            let response = try await next(request)
            let now = gate.clock.now
            let outcome = BackOffPolicy.Outcome.response(
                status: response.status,
                advice: Self.isError(response.status) ? RESTResponseClassifier.enhancedError(in: response.body)?.advice : nil,
                retryAfter: RetryAfter.delay(in: response, now: now))
            switch policy.next(outcome, attempt: attempt, now: now, jitter: gate.jitter.factor()) {
            case .deliver, .giveUp:
                return response
            case .retry(let date):
                // Written so that a patience that is not a number allows no wait at all.
                guard date.timeIntervalSince(now) <= patience else { return response }
                do {
                    try await gate.sleeper.sleep(until: date)
                } catch {
                    throw .transport(operation: operation, .cancelled)
                }
                attempt += 1
            }
        }
    }

    /// Only error bodies can hold an enhanced error worth reading.
    private static func isError(_ status: Int) -> Bool { status >= 400 && status != 429 && status != 401 }
}
