import Foundation

/// Where the SDK reads the current time: every TTL decision (profile `notAfter`, access
/// token expiry, authorization token expiry, partner sign-in expiry) goes through it,
/// so tests can move time forward instead of waiting.
public protocol TimeSource: Sendable {
    /// The current instant.
    var now: Date { get }
}

/// The wall clock.
public struct SystemTimeSource: TimeSource {
    /// Creates the wall clock.
    public init() {}
    /// The current wall-clock time.
    public var now: Date { Date() }
}

/// A clock that moves only when told to; for tests and scenarios.
public final class ManualTimeSource: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock standing at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = start }

    /// Where the clock stands.
    public var now: Date { lock.withLock { current } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    /// Sets the clock to `date`.
    public func set(_ date: Date) { lock.withLock { current = date } }
}
