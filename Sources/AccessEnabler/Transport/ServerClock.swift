import Foundation

/// How far this device's clock is from Adobe Pass's, measured from the `Date` header of
/// every answer. Adobe's timestamps (a profile's `notAfter`, a session's end) are judged
/// with the difference once it is large enough to matter, and the app is told once
/// (status CFG100: "the client machine date / time is not set correctly").
final class ServerClock: @unchecked Sendable {
    /// Differences under this are ordinary drift and the time a request takes.
    static let significantOffset: TimeInterval = 300

    private let lock = NSLock()
    private var measured: TimeInterval?
    private var reported = false

    /// Records one answer's `Date`, read when the device clock said `deviceNow`.
    func record(serverDate: Date, deviceNow: Date) {
        lock.withLock { measured = serverDate.timeIntervalSince(deviceNow) }
    }

    /// Seconds to add to the device clock to get Adobe Pass's time, when the difference is
    /// significant; 0 otherwise.
    var correction: TimeInterval {
        lock.withLock {
            guard let measured, abs(measured) >= Self.significantOffset else { return 0 }
            return measured
        }
    }

    /// The significant difference, until it has been reported (so the app hears of it once).
    var unreportedOffset: TimeInterval? {
        lock.withLock {
            guard !reported, let measured, abs(measured) >= Self.significantOffset else { return nil }
            return measured
        }
    }

    /// The difference was reported to the app.
    func markReported() {
        lock.withLock { reported = true }
    }
}
