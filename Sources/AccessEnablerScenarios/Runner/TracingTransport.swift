import AccessEnabler
import Foundation

/// A transport decorator that reports each completed REST/DCR call (method, path without
/// query, status) — the `--trace-http` lines. It never sees or prints headers or bodies,
/// so no secret can leak through it.
public struct TracingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let report: @Sendable (_ method: String, _ path: String, _ status: Int?) -> Void

    /// Wraps `inner`, calling `report` as each call completes (`status` nil on a transport failure).
    public init(_ inner: any HTTPTransport, report: @escaping @Sendable (_ method: String, _ path: String, _ status: Int?) -> Void) {
        self.inner = inner
        self.report = report
    }

    /// Sends through the wrapped transport and reports the call once it completes.
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure) -> HTTPResponseMessage {
        let path = request.url.path.isEmpty ? "/" : request.url.path
        do {
            let response = try await inner.send(request, timeout: timeout)
            report(request.method, path, response.status)
            return response
        } catch {
            report(request.method, path, nil)
            throw error
        }
    }
}

/// A transport decorator that counts calls: the benchmark's and the tests' round-trip meter.
public final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var calls: [String] = []

    /// Wraps `inner`.
    public init(_ inner: any HTTPTransport) { self.inner = inner }

    /// `"METHOD /path"` of every call so far, in order.
    public var requests: [String] { lock.withLock { calls } }

    /// Forgets the calls counted so far.
    public func reset() { lock.withLock { calls.removeAll() } }

    /// Counts the call, then sends it through the wrapped transport.
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure) -> HTTPResponseMessage {
        lock.withLock { calls.append("\(request.method) \(request.url.path)") }
        return try await inner.send(request, timeout: timeout)
    }
}
