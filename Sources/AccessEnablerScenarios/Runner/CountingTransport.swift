import AccessEnabler
import Foundation

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
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        lock.withLock { calls.append("\(request.method) \(request.url.path)") }
        return try await inner.send(request, timeout: timeout)
    }
}
