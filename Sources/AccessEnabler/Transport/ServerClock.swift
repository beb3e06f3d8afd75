import Foundation
import Synchronization

/// How far this device's clock is from Adobe Pass's, measured from the `Date` header of
/// every answer. Adobe's timestamps (a profile's `notAfter`, a session's end) are judged
/// with the difference once it is large enough to matter, and the app is told once
/// (status CFG100: "the client machine date / time is not set correctly").
///
/// Between two answers, Adobe's time moves with the clock's monotonic reading
/// (``TimeSource/monotonicSeconds``), not with its wall time: a wall clock set back a day or
/// forward a year while the app runs ends no valid session, and the next answer measures the
/// new difference (and reports it).
final class ServerClock: Sendable {
    /// Differences under this are ordinary drift and the time a request takes.
    static let significantOffset: TimeInterval = 300

    private struct State {
        var measured: TimeInterval?
        /// The device's wall time and monotonic reading when the difference was measured.
        var wallAtMeasure = Date.distantPast
        var monotonicAtMeasure: TimeInterval = 0
        var reported = false
    }

    private let state = Mutex(State())

    /// Records one answer's `Date`, read when the device clock said `deviceNow` and its
    /// monotonic reading was `monotonic`.
    func record(serverDate: Date, deviceNow: Date, monotonic: TimeInterval) {
        state.withLock { state in
            state.measured = serverDate.timeIntervalSince(deviceNow)
            state.wallAtMeasure = deviceNow
            state.monotonicAtMeasure = monotonic
        }
    }

    /// Adobe Pass's time as this device can tell it when `clock` reads what it reads: the
    /// wall time of the last answer advanced by the monotonic time since, corrected by the
    /// measured difference when it is significant; the wall time while no answer has come.
    func adobeNow(_ clock: any TimeSource) -> Date {
        adobeNow(deviceNow: clock.now, monotonic: clock.monotonicSeconds)
    }

    /// ``adobeNow(_:)`` from the two readings of the clock.
    func adobeNow(deviceNow: Date, monotonic: TimeInterval) -> Date {
        state.withLock { state in
            guard let measured = state.measured else { return deviceNow }
            // The wall clock as it would read had nobody touched it since the last answer.
            let elapsed = monotonic - state.monotonicAtMeasure
            let steady = elapsed.isFinite && elapsed >= 0 ? state.wallAtMeasure.addingTimeInterval(elapsed) : deviceNow
            return abs(measured) >= Self.significantOffset ? steady.addingTimeInterval(measured) : steady
        }
    }

    /// The measured difference ``adobeNow(_:)`` leaves out (under ``significantOffset``): Adobe's
    /// time is the device clock corrected by both. `nil` while no answer has told Adobe's time.
    var uncorrectedOffset: TimeInterval? {
        state.withLock { state in state.measured.map { abs($0) >= Self.significantOffset ? 0 : $0 } }
    }

    /// The significant difference, until it has been reported (so the app hears of it once).
    var unreportedOffset: TimeInterval? {
        state.withLock { state in
            guard !state.reported, let measured = state.measured, abs(measured) >= Self.significantOffset else {
                return nil
            }
            return measured
        }
    }

    /// The difference was reported to the app.
    func markReported() {
        state.withLock { $0.reported = true }
    }
}
