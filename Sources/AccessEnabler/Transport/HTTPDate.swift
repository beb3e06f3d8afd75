import Foundation

/// The HTTP date format (RFC 7231 IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`), read
/// without a formatter or a calendar (every answer carries one, and `DateComponents.date`
/// costs about 27k instructions), so it is cheap and thread-safe.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or `nil` when it is not an IMF-fixdate.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 })
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (1970...9999).contains(year),
            (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2])
        else { return nil }
        let seconds =
            daysSince1970(year: year, month: month, day: day) * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date given (negative before it):
    /// whole 400-year eras, then the years and days within the era, with years starting in
    /// March so that the leap day comes last.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
