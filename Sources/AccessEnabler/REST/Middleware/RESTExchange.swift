import Foundation

/// Sends one prepared request through the middleware chain and the transport, mapping
/// transport failures onto ``RESTClientError/transport(operation:_:)``.
///
/// Every REST API V2 and DCR request of the SDK goes through one chain, outermost first:
///
/// 1. the caller's own middlewares (``AccessTokenMiddleware`` for `/api/v2` requests: signs
///    the request, renews the token once after a `401`);
/// 2. ``BackOffMiddleware``: an enhanced error whose `action` is `retry` is sent once more
///    after the throttle wait, as ``BackOffPolicy`` decides;
/// 3. ``ThrottleGateMiddleware``: waits while the host is throttled (after a `429`), and
///    notes every new `429`;
/// 4. ``RequestTimeoutMiddleware``: the request-timeout backstop around the transport (none
///    for a transport that keeps its own deadline).
///
/// A throttle wait or a back-off wait is not part of the request timeout: the timeout
/// bounds each exchange with the server. Each wait is bounded by the timeout too: a request
/// whose wait would be longer is not sent (throttled, with the time left), and a retry that
/// would wait longer is not made.
struct RESTExchange: Sendable {
    let transport: any HTTPTransport
    let timeout: TimeInterval
    /// The throttle state shared with the other clients of the same AccessEnabler; its
    /// clock and sleeper time every wait of the chain, and its ``BackOffPolicy`` decides them.
    let gate: ThrottleGate
    /// The middlewares after the caller's own, outermost first.
    let middlewares: [any RESTMiddleware]

    /// Creates the standard chain over `transport`.
    ///
    /// - Parameters:
    ///   - timeout: seconds one exchange with the server may take.
    ///   - gate: the throttle state and back-off policy; by default one of its own on the
    ///     wall clock.
    init(transport: any HTTPTransport, timeout: TimeInterval, gate: ThrottleGate = ThrottleGate()) {
        self.transport = transport
        self.timeout = timeout
        self.gate = gate
        self.middlewares = [
            BackOffMiddleware(policy: gate.policy, gate: gate, patience: Self.patience(timeout)),
            ThrottleGateMiddleware(gate: gate, patience: Self.patience(timeout)),
            RequestTimeoutMiddleware(timeout: timeout, transport: transport),
        ]
    }

    /// The longest a back-off may hold a request: its timeout (none when the timeout is
    /// not a positive number of seconds).
    static func patience(_ timeout: TimeInterval) -> TimeInterval {
        timeout > 0 ? timeout : .infinity
    }

    /// Sends `request` through `outer` (outermost first), then the standard chain, then the
    /// transport.
    func send(
        _ request: HTTPRequestMessage, operation: RESTOperation, through outer: [any RESTMiddleware] = []
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        let chain = outer.isEmpty ? middlewares : outer + middlewares
        return try await run(chain, from: 0, request, operation)
    }

    private func run(
        _ chain: [any RESTMiddleware], from index: Int, _ request: HTTPRequestMessage, _ operation: RESTOperation
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        guard index < chain.count else {
            // A cancelled task's request is not sent: nobody would read its answer (the
            // flow was abandoned, or the app released its AccessEnabler). A child task
            // cancelled before it first ran gets this far without any wait noticing.
            guard !Task.isCancelled else { throw .transport(operation: operation, .cancelled) }
            do {
                return try await transport.send(request, timeout: timeout)
            } catch .responseTooLarge(let limit) {
                // An answer, but not one the SDK will read: reported as a body that is not the documented JSON.
                throw .malformedBody(operation: operation, reason: TransportFailure.responseTooLarge(limit: limit).sentence.dropLast().description)
            } catch {
                throw .transport(operation: operation, error)
            }
        }
        return try await chain[index].intercept(request, operation: operation) { [self] (next: HTTPRequestMessage) async throws(RESTClientError) -> HTTPResponseMessage in
            try await run(chain, from: index + 1, next, operation)
        }
    }
}
