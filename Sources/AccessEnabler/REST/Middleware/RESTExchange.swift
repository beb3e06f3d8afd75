import Foundation

/// Sends one prepared request through the transport and maps transport failures onto
/// ``RESTClientError/transport(operation:_:)``.
///
/// The request timeout is enforced here as well as by the transport: a transport that
/// ignores its `timeout` argument (an in-process one, a custom one) still cannot hold a
/// flow much longer than the configured time, so every facade call ends. The backstop
/// fires a little after the timeout, so a transport that keeps its own deadline reports
/// it first (and decorators around it see their call end before the flow moves on).
struct RESTExchange: Sendable {
    let transport: any HTTPTransport
    let timeout: TimeInterval

    /// How long after `timeout` the backstop gives up on the transport.
    static let backstopGrace: TimeInterval = 0.25

    func send(_ request: HTTPRequestMessage, operation: RESTOperation) async throws(RESTClientError) -> HTTPResponseMessage {
        let result: Result<HTTPResponseMessage, TransportFailure>
        if timeout.isFinite, timeout > 0 {
            result = await withDeadline(seconds: timeout + Self.backstopGrace, fallback: .failure(.timedOut)) { [transport, timeout] in
                do throws(TransportFailure) { return .success(try await transport.send(request, timeout: timeout)) } catch { return .failure(error) }
            }
        } else {
            do { result = .success(try await transport.send(request, timeout: timeout)) } catch { result = .failure(error) }
        }
        switch result {
        case .success(let response): return response
        case .failure(let failure): throw .transport(operation: operation, failure)
        }
    }
}
