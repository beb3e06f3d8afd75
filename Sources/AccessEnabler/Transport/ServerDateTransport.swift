import Foundation

/// A transport decorator that reads the `Date` header of every answer into a
/// ``ServerClock``.
struct ServerDateTransport: HTTPTransport {
    let inner: any HTTPTransport
    let clock: any TimeSource
    let serverClock: ServerClock

    var keepsItsDeadline: Bool { inner.keepsItsDeadline }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let response = try await inner.send(request, timeout: timeout)
        if let header = response.header("Date"), let date = HTTPDate.parse(header) {
            serverClock.record(serverDate: date, deviceNow: clock.now, monotonic: clock.monotonicSeconds)
        }
        return response
    }
}
