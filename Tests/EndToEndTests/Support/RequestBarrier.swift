import AccessEnabler
import Foundation

/// Holds the requests whose path ends with `pathSuffix` until `count` of them wait at once,
/// then lets them all go (and every later one straight through): proof that the SDK sends
/// them concurrently, whatever the machine's load. Sent one after another, the first would
/// wait for the others for ever; after ``stallBound`` the barrier lets go and
/// ``metTogether`` stays `false`.
final class RequestBarrier: @unchecked Sendable {
    private let pathSuffix: String
    private let count: Int
    private let gate = OneWayGate()
    private let lock = NSLock()
    private var arrivals = 0
    private var met = false

    init(pathSuffix: String, count: Int) {
        self.pathSuffix = pathSuffix
        self.count = count
    }

    /// Whether `count` requests waited at the barrier at once.
    var metTogether: Bool { lock.withLock { met } }

    /// `inner` with this barrier in front of it.
    func over(_ inner: any HTTPTransport) -> any HTTPTransport { Holding(inner: inner, barrier: self) }

    fileprivate func arrive(_ request: HTTPRequestMessage) async {
        guard request.url.path.hasSuffix(pathSuffix) else { return }
        let isLast: Bool = lock.withLock {
            arrivals += 1
            return arrivals == count
        }
        // Opened by the bound first, it was not met.
        if isLast, gate.open() { lock.withLock { met = true } }
        await gate.pass()
    }

    private struct Holding: HTTPTransport {
        let inner: any HTTPTransport
        let barrier: RequestBarrier

        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            await barrier.arrive(request)
            return try await inner.send(request, timeout: timeout)
        }
    }
}
