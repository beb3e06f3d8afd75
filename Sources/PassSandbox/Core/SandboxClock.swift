import AccessEnabler
import Foundation

/// The sandbox's notion of "now": every TTL (access tokens, authentication sessions,
/// profiles, media tokens, TempPass, system-level sign-ins) is measured against it.
///
/// A manual clock stands still until ``advance(by:)`` or ``now`` moves it, so tests can
/// expire a profile without waiting. The wall-clock mode (``system``) follows the real
/// time plus any offset added with ``advance(by:)``.
///
/// It also serves as the SDK's `TimeSource` and `Sleeper`, so a scenario can move the
/// application and the sandbox forward together, waking what the SDK waits for (a
/// throttling back-off, the next second-screen poll).
public final class SandboxClock: TimeSource, Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private let alarms = ClockAlarms()
    private var current: Date
    private var offset: TimeInterval = 0

    /// `true` when the clock only moves when told to; `false` for the wall clock.
    public let isManual: Bool

    /// Creates a manual clock standing at `start` (default 2026-01-01T00:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = start
        isManual = true
    }

    private init(wallClock: Void) {
        current = Date()
        isManual = false
    }

    /// A new clock following the wall clock.
    public static var system: SandboxClock { SandboxClock(wallClock: ()) }

    /// The current instant. Setting it moves a manual clock to that instant (a wall clock
    /// keeps the difference as an offset).
    public var now: Date {
        get {
            lock.withLock { isManual ? current : Date().addingTimeInterval(offset) }
        }
        set {
            lock.withLock {
                if isManual { current = newValue } else { offset = newValue.timeIntervalSinceNow }
            }
            alarms.fire(now: now)
        }
    }

    /// Moves the clock forward by `seconds` (backwards when negative), waking the waits
    /// that are then due.
    public func advance(by seconds: TimeInterval) {
        lock.withLock {
            if isManual { current += seconds } else { offset += seconds }
        }
        alarms.fire(now: now)
    }

    /// Waits until the clock reads `deadline`: for a manual clock, until it is moved there;
    /// for the wall clock, the remaining real time.
    public func sleep(until deadline: Date) async throws(CancellationError) {
        if isManual {
            try await alarms.wait(until: deadline, now: now)
        } else {
            try await SystemSleeper(clock: self).sleep(until: deadline)
        }
    }

    /// The earliest deadline a wait on this manual clock is waiting for, if any.
    public var earliestWaitDeadline: Date? { alarms.earliestDeadline }

    /// The current instant in milliseconds since 1970, as REST V2 writes timestamps.
    var nowMilliseconds: Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded()) }
}

extension Date {
    /// Milliseconds since 1970, rounded.
    var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
