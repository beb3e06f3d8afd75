import Foundation

/// Applies ``BackOffPolicy`` to every answer: sends a request again when the policy says
/// so, after waiting on the gate's clock (so tests and scenarios move time instead of
/// waiting), and delivers everything else unchanged.
struct BackOffMiddleware: RESTMiddleware {
    let policy: BackOffPolicy
    /// Gives the clock the waits are measured on and the sleeper that waits.
    let gate: ThrottleGate

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
            switch policy.next(outcome, attempt: attempt, now: now) {
            case .deliver, .giveUp:
                return response
            case .retry(let date):
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
