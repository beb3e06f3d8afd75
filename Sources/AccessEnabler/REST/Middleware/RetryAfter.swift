import Foundation

/// Reads the `Retry-After` response header: delay-seconds (`Retry-After: 3`) or an HTTP-date
/// (`Retry-After: Tue, 20 Feb 2024 11:21:55 GMT`). Pure: no I/O.
enum RetryAfter {
    /// The longest delay the SDK takes from the header: 5 minutes. A longer one (a day, `1e19`
    /// seconds, a date in the year 9999) is read as this, so nothing that formats or waits
    /// out a delay ever sees more, and a broken header cannot stall the SDK for good.
    static let longestHonoured: TimeInterval = 300

    /// The delay the header asks for, in seconds (0 through ``longestHonoured``), or `nil`
    /// when there is no usable header.
    ///
    /// An HTTP-date is measured from the response's own `Date` header when it has one (so
    /// the server's clock and ours need not agree), else from `now`. A date already past
    /// gives 0. Negative, non-numeric or not-a-number values are ignored.
    static func delay(in response: HTTPResponseMessage, now: Date) -> TimeInterval? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        if let seconds = TimeInterval(value) {
            return seconds.isNaN || seconds < 0 ? nil : min(seconds, longestHonoured)
        }
        guard let date = httpDate(value) else { return nil }
        let reference = response.header("Date").flatMap(httpDate) ?? now
        let delay = date.timeIntervalSince(reference)
        return delay.isNaN ? nil : min(max(0, delay), longestHonoured)
    }

    /// Parses the three date forms HTTP/1.1 accepts (RFC 9110 §5.6.7), always in GMT:
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
    static func httpDate(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { " ,-:".contains($0) }).map(String.init)
        guard let monthIndex = tokens.firstIndex(where: { months.contains($0.lowercased()) }),
            let month = months.firstIndex(of: tokens[monthIndex].lowercased())
        else { return nil }
        let numbers = tokens.compactMap { Int($0) }
        guard numbers.count == 5 else { return nil }
        let monthFirst = tokens[..<monthIndex].allSatisfy { Int($0) == nil }
        // asctime puts the year last; the other forms put it after the day.
        let (day, year, hour, minute, second) =
            monthFirst && tokens.count == 7
            ? (numbers[0], numbers[4], numbers[1], numbers[2], numbers[3])
            : (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
        // RFC 850's two-digit years: 70–99 are the 1900s, the rest this century.
        let fullYear = year < 100 ? (year < 70 ? 2000 + year : 1900 + year) : year
        // A year beyond 9999 is no HTTP-date (and would overflow the day count).
        guard (1...9999).contains(fullYear), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else {
            return nil
        }
        let days = HTTPDate.daysSince1970(year: fullYear, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
}
