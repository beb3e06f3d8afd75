import Foundation

/// Sends one prepared request to the transport under the SDK's policies, mapping transport
/// failures onto ``RESTClientError/transport(operation:_:)``.
///
/// Every REST API V2 and DCR request of the SDK goes through one loop, which applies, from
/// the outermost:
///
/// 1. ``AccessTokenSigning`` for `/api/v2` requests: signs the request, renews the token once
///    after a `401` and sends the request again (its retries start afresh);
/// 2. ``BackOffRetry``: an enhanced error whose `action` is `retry` is sent once more after
///    the throttle wait, as ``BackOffPolicy`` decides;
/// 3. the ``ThrottleGate``: waits while the host is throttled (after a `429`), and notes
///    every new `429`;
/// 4. ``RequestTimeoutBackstop``: the request-timeout backstop around the transport (none
///    for a transport that keeps its own deadline).
///
/// One loop rather than a chain of nested closures: a request that waits for its answer
/// keeps one suspended frame here instead of two per policy (an app with thousands of
/// devices waiting holds thousands of these).
///
/// A throttle wait or a back-off wait is not part of the request timeout: the timeout
/// bounds each exchange with the server. Each wait is bounded by the timeout too: a request
/// whose wait would be longer is not sent (throttled, with the time left), and a retry that
/// would wait longer is not made.
struct RESTExchange: Sendable {
    let transport: any HTTPTransport
    let timeout: TimeInterval
    /// The throttle state shared with the other clients of the same AccessEnabler; its
    /// clock and sleeper time every wait, and its ``BackOffPolicy`` decides them.
    let gate: ThrottleGate
    /// The enhanced-error retries.
    let backOff: BackOffRetry
    /// The longest a request waits for its turn at the gate, in seconds.
    let patience: TimeInterval
    /// The backstop's deadline around each exchange with the transport, if any.
    let backstop: TimeInterval?

    /// Creates the exchange over `transport`.
    ///
    /// - Parameters:
    ///   - timeout: seconds one exchange with the server may take.
    ///   - gate: the throttle state and back-off policy; by default one of its own on the
    ///     wall clock.
    init(transport: any HTTPTransport, timeout: TimeInterval, gate: ThrottleGate = ThrottleGate()) {
        self.transport = transport
        self.timeout = timeout
        self.gate = gate
        patience = Self.patience(timeout)
        backOff = BackOffRetry(policy: gate.policy, gate: gate, patience: patience)
        backstop = RequestTimeoutBackstop.seconds(timeout: timeout, transport: transport)
    }

    /// The longest a back-off may hold a request: its timeout (none when the timeout is
    /// not a positive number of seconds).
    static func patience(_ timeout: TimeInterval) -> TimeInterval {
        timeout > 0 ? timeout : .infinity
    }

    /// Sends `request`, signed by `signing` when given, until an answer is to be delivered.
    func send(
        _ request: HTTPRequestMessage, operation: RESTOperation, signedBy signing: AccessTokenSigning? = nil
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        let host = ThrottleGate.key(for: request.url)
        var token = try await signing?.token()
        var renewed = false
        var attempt = 1
        while true {
            let outgoing = token.map { AccessTokenSigning.signed(request, with: $0) } ?? request
            do {
                try await gate.waitForTurn(host: host, patience: patience)
            } catch .throttled(let remaining) {
                throw .throttled(operation: operation, retryAfter: remaining)
            } catch {
                throw .transport(operation: operation, .cancelled)
            }
            let response = try await exchange(outgoing, operation)
            let now = gate.clock.now
            if response.status == 429 {
                gate.recordThrottling(host: host, retryAfter: RetryAfter.delay(in: response, now: now), arrival: now)
            }
            if let date = backOff.retryDate(after: response, attempt: attempt, now: now) {
                do {
                    try await gate.sleeper.sleep(until: date)
                } catch {
                    throw .transport(operation: operation, .cancelled)
                }
                attempt += 1
                continue
            }
            if let signing, let used = token, response.status == 401, !renewed {
                token = try await signing.renewed(after: used)
                renewed = true
                attempt = 1
                continue
            }
            return response
        }
    }

    /// One exchange with the transport, under the backstop when there is one.
    private func exchange(
        _ request: HTTPRequestMessage, _ operation: RESTOperation
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        guard let backstop else { return try await Self.send(request, operation, over: transport, timeout: timeout) }
        let (transport, timeout) = (transport, timeout)
        let result: Result<HTTPResponseMessage, RESTClientError> = await withDeadline(
            seconds: backstop, fallback: .failure(.transport(operation: operation, .timedOut))
        ) {
            do throws(RESTClientError) {
                return .success(try await Self.send(request, operation, over: transport, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func send(
        _ request: HTTPRequestMessage, _ operation: RESTOperation, over transport: any HTTPTransport,
        timeout: TimeInterval
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        // A cancelled task's request is not sent: nobody would read its answer (the flow was
        // abandoned, or the app released its AccessEnabler). A child task cancelled before
        // it first ran gets this far without any wait noticing.
        guard !Task.isCancelled else { throw .transport(operation: operation, .cancelled) }
        do {
            var response = try await transport.send(request, timeout: timeout)
            response.arrival = .now
            return response
        } catch .responseTooLarge(let limit) {
            // An answer, but not one the SDK will read: reported as a body that is not the documented JSON.
            let reason = TransportFailure.responseTooLarge(limit: limit).sentence.dropLast().description
            throw .malformedBody(operation: operation, reason: reason)
        } catch {
            throw .transport(operation: operation, error)
        }
    }
}
