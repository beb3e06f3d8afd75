import Foundation

/// The instants a date from outside may name — a server's timestamp, a stored expiry: from
/// 1970-01-01T00:00:00Z through 9999-12-31T23:59:59.999Z. A date outside (before the epoch,
/// beyond what milliseconds in an `Int64` can carry, `1e300`, not a number) is not one Adobe
/// Pass means, and whatever carries it is malformed.
enum PlausibleDate {
    /// The latest plausible instant, in seconds since 1970: the last millisecond of year 9999.
    static let latestSecondsSince1970: TimeInterval = 253_402_300_799.999

    /// Whether `seconds` since 1970 is a plausible instant.
    static func contains(secondsSince1970 seconds: TimeInterval) -> Bool {
        seconds.isFinite && seconds >= 0 && seconds <= latestSecondsSince1970
    }
}
