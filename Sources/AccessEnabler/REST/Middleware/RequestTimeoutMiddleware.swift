import Foundation

/// The request-timeout backstop: the exchange below it fails with
/// ``TransportFailure/timedOut`` shortly after the request timeout, whatever the transport
/// does.
///
/// A transport that ignores its `timeout` argument (an in-process one, a custom one) still
/// cannot hold a flow much longer than the configured time, so every facade call ends. The
/// backstop fires ``grace`` after the timeout, so a transport that keeps its own deadline
/// reports it first (and decorators around it see their call end before the flow moves on).
/// The deadline is an entry on the process's deadline watchdog, cancelled as soon as the
/// answer is in (see ``withDeadline(seconds:fallback:_:)``). A transport that keeps its own
/// deadline (``HTTPTransport/keepsItsDeadline``) gets no backstop.
struct RequestTimeoutMiddleware: RESTMiddleware {
    /// How long after the timeout the backstop gives up on the transport.
    static let grace: TimeInterval = 0.25

    /// Seconds one exchange may take; zero, negative or infinite means no backstop.
    let timeout: TimeInterval

    /// A backstop of `timeout` for `transport`, or none when the transport keeps its own
    /// deadline (``HTTPTransport/keepsItsDeadline``).
    init(timeout: TimeInterval, transport: any HTTPTransport) {
        self.timeout = transport.keepsItsDeadline ? 0 : timeout
    }

    func intercept(
        _ request: HTTPRequestMessage, operation: RESTOperation, next: @escaping RESTNext
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        guard timeout.isFinite, timeout > 0 else { return try await next(request) }
        let result: Result<HTTPResponseMessage, RESTClientError> = await withDeadline(
            seconds: timeout + Self.grace, fallback: .failure(.transport(operation: operation, .timedOut))
        ) {
            do throws(RESTClientError) { return .success(try await next(request)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
