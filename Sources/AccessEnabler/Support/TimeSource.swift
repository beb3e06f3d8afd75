import Foundation
import Synchronization

/// Where the SDK reads the current time: every TTL decision (profile `notAfter`, access
/// token expiry, authorization token expiry, partner sign-in expiry) goes through it,
/// so tests can move time forward instead of waiting.
public protocol TimeSource: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Seconds from an arbitrary origin that only move forward, at the pace of real time,
    /// whatever is done to the wall clock (a person setting the date, a time service jumping
    /// a year). The SDK judges sign-ins with Adobe Pass's time as the last answer gave it,
    /// advanced by this clock, so a wall-clock jump while the app runs ends no valid session.
    /// The default reads ``now``: a clock with no monotonic reading of its own.
    var monotonicSeconds: TimeInterval { get }
}

extension TimeSource {
    /// ``now``, as seconds: for a clock with no monotonic reading of its own.
    public var monotonicSeconds: TimeInterval { now.timeIntervalSinceReferenceDate }
}

/// The wall clock.
public struct SystemTimeSource: TimeSource {
    /// Creates the wall clock.
    public init() {}
    /// The current wall-clock time.
    public var now: Date { Date() }
    /// The system's uptime: a clock no change of the date moves.
    public var monotonicSeconds: TimeInterval { ProcessInfo.processInfo.systemUptime }
}

/// A clock that moves only when told to; for tests and scenarios. It is also a
/// ``Sleeper``: a wait on it ends when the clock is moved to or past its deadline.
public final class ManualTimeSource: TimeSource, Sleeper, Sendable {
    private let current: Mutex<Date>
    private let alarms = ClockAlarms()

    /// Creates a clock standing at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = Mutex(start) }

    /// Where the clock stands.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`, waking the waits that are then due.
    public func advance(by seconds: TimeInterval) {
        let now = current.withLock {
            $0 += seconds
            return $0
        }
        alarms.fire(now: now)
    }

    /// Sets the clock to `date`, waking the waits that are then due.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
        alarms.fire(now: date)
    }

    /// Waits until the clock is moved to or past `deadline`.
    public func sleep(until deadline: Date) async throws(CancellationError) {
        try await alarms.wait(until: deadline, now: now)
    }

    /// The earliest deadline a wait on this clock is waiting for, if any.
    package var earliestWaitDeadline: Date? { alarms.earliestDeadline }

    /// How many waits on this clock are pending.
    package var pendingWaitCount: Int { alarms.count }
}
