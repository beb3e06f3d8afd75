import Foundation
import Synchronization

/// How far this device's clock is from Adobe Pass's, measured from the `Date` header of
/// every answer. Adobe's timestamps (a profile's `notAfter`, a session's end) are judged
/// with the difference once it is large enough to matter, and the app is told once
/// (status CFG100: "the client machine date / time is not set correctly").
final class ServerClock: Sendable {
    /// Differences under this are ordinary drift and the time a request takes.
    static let significantOffset: TimeInterval = 300

    private struct State {
        var measured: TimeInterval?
        var reported = false
    }

    private let state = Mutex(State())

    /// Records one answer's `Date`, read when the device clock said `deviceNow`.
    func record(serverDate: Date, deviceNow: Date) {
        state.withLock { $0.measured = serverDate.timeIntervalSince(deviceNow) }
    }

    /// Seconds to add to the device clock to get Adobe Pass's time, when the difference is
    /// significant; 0 otherwise.
    var correction: TimeInterval {
        state.withLock { state in
            guard let measured = state.measured, abs(measured) >= Self.significantOffset else { return 0 }
            return measured
        }
    }

    /// The measured difference ``correction`` leaves out (under ``significantOffset``): Adobe's
    /// time is the device clock corrected by both. `nil` while no answer has told Adobe's time.
    var uncorrectedOffset: TimeInterval? {
        state.withLock { state in state.measured.map { abs($0) >= Self.significantOffset ? 0 : $0 } }
    }

    /// The significant difference, until it has been reported (so the app hears of it once).
    var unreportedOffset: TimeInterval? {
        state.withLock { state in
            guard !state.reported, let measured = state.measured, abs(measured) >= Self.significantOffset else { return nil }
            return measured
        }
    }

    /// The difference was reported to the app.
    func markReported() {
        state.withLock { $0.reported = true }
    }
}
