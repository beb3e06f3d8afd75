import Foundation

/// Holds each request at the ``ThrottleGate`` while its host is throttled and tells the
/// gate about every `429` that comes back. The `429` itself is passed up unchanged; the
/// caller sees it as ``RESTClientError/throttled(operation:retryAfter:)``.
///
/// A request is held at most ``patience`` (its request timeout): one whose host stays
/// throttled longer is not sent, and fails at once as throttled, with the time left as its
/// `retryAfter` — a back-off never holds a call longer than its timeout.
struct ThrottleGateMiddleware: RESTMiddleware {
    let gate: ThrottleGate
    /// The longest a request waits for its turn, in seconds.
    var patience: TimeInterval = .infinity

    func intercept(
        _ request: HTTPRequestMessage, operation: RESTOperation, next: @escaping RESTNext
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        let host = ThrottleGate.key(for: request.url)
        do {
            try await gate.waitForTurn(host: host, patience: patience)
        } catch .throttled(let remaining) {
            throw .throttled(operation: operation, retryAfter: remaining)
        } catch {
            throw .transport(operation: operation, .cancelled)
        }
        let response = try await next(request)
        if response.status == 429 {
            let arrival = gate.clock.now
            gate.recordThrottling(host: host, retryAfter: RetryAfter.delay(in: response, now: arrival), arrival: arrival)
        }
        return response
    }
}
