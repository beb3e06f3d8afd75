import Foundation

/// A REST API V2 timestamp: milliseconds since the Unix epoch, sent as a JSON number
/// (profiles, decisions) or as a string of digits (sessions samples, the
/// `AP-Partner-Framework-Status` header).
///
/// A value holds only a ``PlausibleDate`` (``range``, from 1970-01-01 to the end of year
/// 9999): a timestamp outside it (negative, beyond what an `Int64` of milliseconds can carry,
/// `1e300`) is not a date Adobe Pass means, and an answer carrying one is malformed.
struct EpochMilliseconds: Sendable, Equatable {
    /// The milliseconds a timestamp may hold: 1970-01-01T00:00:00.000Z through
    /// 9999-12-31T23:59:59.999Z.
    static let range: ClosedRange<Int64> = 0...253_402_300_799_999

    /// The milliseconds since the epoch, within ``range``.
    let value: Int64

    /// The timestamp of `milliseconds`, or `nil` outside ``range``.
    init?(_ milliseconds: Int64) {
        guard Self.range.contains(milliseconds) else { return nil }
        value = milliseconds
    }

    /// The timestamp of `milliseconds` rounded to a whole millisecond, or `nil` when it is
    /// not a number, infinite, or outside ``range``.
    init?(_ milliseconds: Double) {
        guard milliseconds.isFinite, let whole = Int64(exactly: milliseconds.rounded()) else { return nil }
        self.init(whole)
    }

    /// The instant.
    var date: Date { Date(timeIntervalSince1970: TimeInterval(value) / 1000) }

    /// The millisecond count for `date`, rounded to the nearest millisecond and held to
    /// ``range``: never traps, whatever the date.
    static func milliseconds(_ date: Date) -> Int64 {
        let milliseconds: Int64 = WholeNumber.clamped(date.timeIntervalSince1970 * 1000)
        return min(max(milliseconds, range.lowerBound), range.upperBound)
    }

    /// The millisecond count for `date` as the decimal string the wire uses (see
    /// ``milliseconds(_:)``).
    static func string(_ date: Date) -> String {
        String(milliseconds(date))
    }
}

extension KeyedDecodingContainer {
    /// An epoch-milliseconds timestamp sent as a number or as a string of digits, or `nil`
    /// when absent or null. Any other shape, and a timestamp outside
    /// ``EpochMilliseconds/range``, is a decoding error.
    func decodeEpochMillisecondsIfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let integer = try? decode(Int64.self, forKey: key) {
            return try checked(EpochMilliseconds(integer), forKey: key)
        }
        if let double = try? decode(Double.self, forKey: key) {
            return try checked(EpochMilliseconds(double), forKey: key)
        }
        if let string = try? decode(String.self, forKey: key) {
            let digits = string.trimmingCharacters(in: .whitespaces)
            return try checked(Int64(digits).flatMap { EpochMilliseconds($0) }, forKey: key)
        }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: self, debugDescription: "Expected a timestamp in epoch milliseconds.")
    }

    /// A required epoch-milliseconds timestamp.
    func decodeEpochMilliseconds(forKey key: Key) throws -> Date {
        guard let date = try decodeEpochMillisecondsIfPresent(forKey: key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "Missing timestamp."))
        }
        return date
    }

    private func checked(_ timestamp: EpochMilliseconds?, forKey key: Key) throws -> Date {
        guard let timestamp else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription:
                    "\(key.stringValue) is not a timestamp between 1970 and the year 9999 in epoch milliseconds.")
        }
        return timestamp.date
    }
}
