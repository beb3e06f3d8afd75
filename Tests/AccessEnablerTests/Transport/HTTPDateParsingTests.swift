import Foundation
import Testing

@testable import AccessEnabler

/// The `Date` header read by arithmetic gives the instant the Gregorian calendar gives.
@Suite struct HTTPDateParsingTests {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    @Test func knownDatesAreReadExactly() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Thu, 01 Jan 2026 00:00:00 GMT") == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 23:59:59 GMT") == Date(timeIntervalSince1970: 951_868_799))
    }

    @Test func aDayInEveryWeekOfFourCenturiesMatchesTheCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        var components = DateComponents(year: 1970, month: 1, day: 1, hour: 13, minute: 7, second: 59)
        var date = try #require(calendar.date(from: components))
        let end = try #require(calendar.date(from: DateComponents(year: 2370, month: 1, day: 1)))
        var checked = 0
        while date < end {
            components = calendar.dateComponents([.year, .month, .day], from: date)
            let (year, month, day) = (components.year!, components.month!, components.day!)
            let text = String(format: "Mon, %02d %@ %04d 13:07:59 GMT", day, Self.months[month - 1], year)
            if HTTPDate.parse(text) != date {
                Issue.record("\(text) read as \(String(describing: HTTPDate.parse(text))), not \(date)"); return
            }
            date = date.addingTimeInterval(86_400 * 7)
            checked += 1
        }
        #expect(checked > 20_000)
    }

    @Test func anythingElseIsNotADate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49 GMT") == nil)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("") == nil)
    }

    /// A server date before the epoch or beyond the year 9999 is no date a server means: the
    /// device's clock is not judged by it.
    @Test func aYearOutsideThePlausibleRangeIsNotADate() {
        #expect(HTTPDate.parse("Wed, 31 Dec 1969 23:59:59 GMT") == nil)
        #expect(HTTPDate.parse("Mon, 01 Jan 0001 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(HTTPDate.parse("Sat, 01 Jan 10000 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sat, 01 Jan 99999999999999999 00:00:00 GMT") == nil)
    }
}
