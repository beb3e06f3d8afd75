import Foundation

/// Conversions for REST API V2 timestamps: milliseconds since the Unix epoch, sent as a
/// JSON number (profiles, decisions) or as a string of digits (sessions samples, the
/// `AP-Partner-Framework-Status` header).
enum EpochMilliseconds {
    /// The date for a millisecond count.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// The millisecond count for a date, rounded to the nearest millisecond.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The millisecond count as the decimal string the wire uses.
    static func string(_ date: Date) -> String {
        String(milliseconds(date))
    }
}

extension KeyedDecodingContainer {
    /// An epoch-milliseconds timestamp sent as a number or as a string of digits, or `nil`
    /// when absent or null. Any other shape is a decoding error.
    func decodeEpochMillisecondsIfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let integer = try? decode(Int64.self, forKey: key) {
            return EpochMilliseconds.date(integer)
        }
        if let double = try? decode(Double.self, forKey: key), double.isFinite {
            return Date(timeIntervalSince1970: double / 1000)
        }
        if let string = try? decode(String.self, forKey: key),
            let integer = Int64(string.trimmingCharacters(in: .whitespaces))
        {
            return EpochMilliseconds.date(integer)
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
}
