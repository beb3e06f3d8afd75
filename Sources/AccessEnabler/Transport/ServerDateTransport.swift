import Foundation

/// A transport decorator that reads the `Date` header of every answer into a
/// ``ServerClock``.
struct ServerDateTransport: HTTPTransport {
    let inner: any HTTPTransport
    let clock: any TimeSource
    let serverClock: ServerClock

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure) -> HTTPResponseMessage {
        let response = try await inner.send(request, timeout: timeout)
        if let header = response.header("Date"), let date = HTTPDate.parse(header) {
            serverClock.record(serverDate: date, deviceNow: clock.now)
        }
        return response
    }
}

/// The HTTP date format (RFC 7231 IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`), read
/// without a formatter so it is cheap and thread-safe.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or `nil` when it is not an IMF-fixdate.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
              let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 })
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(secondsFromGMT: 0)
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (time[0], time[1], time[2])
        return components.date
    }
}
