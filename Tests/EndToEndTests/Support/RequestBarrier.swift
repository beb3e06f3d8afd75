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
    private let lock = NSLock()
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var opened = false
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
        let isFirst = lock.withLock { !opened && waiting.isEmpty }
        if isFirst {
            // Only a bound on a hang: a barrier that is never met opens after it.
            Task {
                try? await Task.sleep(nanoseconds: UInt64(stallBound * 1_000_000_000))
                self.open(met: false)
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passes: Bool = lock.withLock {
                if opened { return true }
                waiting.append(continuation)
                return false
            }
            if passes {
                continuation.resume()
            } else if lock.withLock({ waiting.count >= count }) {
                open(met: true)
            }
        }
    }

    private func open(met wasMet: Bool) {
        let released: [CheckedContinuation<Void, Never>] = lock.withLock {
            guard !opened else { return [] }
            opened = true
            met = wasMet
            defer { waiting = [] }
            return waiting
        }
        released.forEach { $0.resume() }
    }

    private struct Holding: HTTPTransport {
        let inner: any HTTPTransport
        let barrier: RequestBarrier

        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure) -> HTTPResponseMessage {
            await barrier.arrive(request)
            return try await inner.send(request, timeout: timeout)
        }
    }
}
