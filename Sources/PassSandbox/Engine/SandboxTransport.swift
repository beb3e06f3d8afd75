import AccessEnabler
import Foundation

/// An in-process `HTTPTransport` to a ``PassSandbox`` that, unlike the closure-based
/// `InProcessTransport`, honours the request timeout: a latency fault longer than the
/// timeout ends in `TransportFailure.timedOut`, as it would over a socket.
public struct SandboxTransport: HTTPTransport {
    private let sandbox: PassSandbox

    /// A transport answering with `sandbox`.
    public init(sandbox: PassSandbox) { self.sandbox = sandbox }

    /// Answers `request` in-process, failing with `.timedOut` after `timeout` seconds.
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let sandbox = self.sandbox
        let outcome: Result<HTTPResponseMessage, TransportFailure> = await withTaskGroup(
            of: Result<HTTPResponseMessage, TransportFailure>?.self
        ) { group in
            group.addTask {
                let response = await sandbox.respond(to: SandboxRequest(message: request))
                if response.dropConnection { return .failure(.connectionLost("The sandbox dropped the connection.")) }
                // The answer to a HEAD has no body, as over HTTP.
                let body = request.method == "HEAD" ? Data() : Data(response.body)
                return .success(HTTPResponseMessage(status: response.status, headers: response.headers, body: body))
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(min(max(timeout, 0), 86_400) * 1_000_000_000))
                return Task.isCancelled ? nil : .failure(.timedOut)
            }
            var first: Result<HTTPResponseMessage, TransportFailure> = .failure(.cancelled)
            for await result in group {
                if let result {
                    first = result
                    break
                }
            }
            group.cancelAll()
            return first
        }
        return try outcome.get()
    }
}

extension PassSandbox {
    /// An in-process transport that honours request timeouts (see ``SandboxTransport``).
    public var transport: SandboxTransport { SandboxTransport(sandbox: self) }
}
