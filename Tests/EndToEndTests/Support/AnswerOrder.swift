import AccessEnabler
import Foundation

/// Makes one server answer a request before another, whatever the machine's load. Once
/// ``keep(first:before:pathSuffix:)`` has armed it, the next request to `later` whose path
/// ends with `pathSuffix` leaves only once one to `first` has been answered, and a second
/// after that. The SDK ranks answers by when its transport returned them, which this
/// wrapper's return precedes by a few steps with no wait between them; the second covers
/// those steps on a thread the system has descheduled, and is not a wait for a server.
final class AnswerOrder: @unchecked Sendable {
    private struct Armed {
        var first: String
        var later: String
        var pathSuffix: String
        var laterHeld = false
    }

    private let lock = NSLock()
    private var armed: Armed?
    private let firstAnswered = OneWayGate()

    /// `inner` with this order kept in front of it (nothing is held until it is armed).
    func over(_ inner: any HTTPTransport) -> any HTTPTransport { Ordering(inner: inner, order: self) }

    /// From now on, the next request to `later` ending with `pathSuffix` waits for one to `first`.
    func keep(first: URL, before later: URL, pathSuffix: String) {
        lock.withLock {
            armed = Armed(first: first.absoluteString, later: later.absoluteString, pathSuffix: pathSuffix)
        }
    }

    private static func matches(_ request: HTTPRequestMessage, _ base: String, _ pathSuffix: String) -> Bool {
        request.url.absoluteString.hasPrefix(base) && request.url.path.hasSuffix(pathSuffix)
    }

    /// Waits, for the later server's first matching request, until the first server answered.
    fileprivate func before(_ request: HTTPRequestMessage) async {
        let holds: Bool = lock.withLock {
            guard var order = armed, !order.laterHeld, Self.matches(request, order.later, order.pathSuffix) else {
                return false
            }
            order.laterHeld = true
            armed = order
            return true
        }
        guard holds, !firstAnswered.isOpen else { return }
        await firstAnswered.pass()
        try? await Task.sleep(nanoseconds: UInt64(SanitizerTiming.scaled(1) * 1_000_000_000))
    }

    fileprivate func after(_ request: HTTPRequestMessage) {
        let isFirst = lock.withLock { armed.map { Self.matches(request, $0.first, $0.pathSuffix) } ?? false }
        if isFirst { firstAnswered.open() }
    }

    private struct Ordering: HTTPTransport {
        let inner: any HTTPTransport
        let order: AnswerOrder

        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            await order.before(request)
            defer { order.after(request) }
            return try await inner.send(request, timeout: timeout)
        }
    }
}
