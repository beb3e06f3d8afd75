import AccessEnabler
import Foundation

/// A transport that counts the requests it passes on to another one: how many requests a
/// flow made, without a meter inside the SDK.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var sent = 0

    init(_ inner: any HTTPTransport) { self.inner = inner }

    /// Requests sent since the last ``reset()``.
    var count: Int { lock.withLock { sent } }

    func reset() { lock.withLock { sent = 0 } }

    var keepsItsDeadline: Bool { inner.keepsItsDeadline }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        lock.withLock { sent += 1 }
        return try await inner.send(request, timeout: timeout)
    }
}
