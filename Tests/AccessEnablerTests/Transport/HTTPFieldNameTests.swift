import Testing

@testable import AccessEnabler

/// Header lookups ignore ASCII case only, as HTTP field names do.
@Suite struct HTTPFieldNameTests {
    @Test func namesMatchWhateverTheirASCIICase() {
        #expect(HTTPFieldName.matches("Retry-After", "retry-after"))
        #expect(HTTPFieldName.matches("X-DEVICE-INFO", "X-Device-Info"))
        #expect(HTTPFieldName.matches("", ""))
        #expect(!HTTPFieldName.matches("Date", "Dates"))
        #expect(!HTTPFieldName.matches("Retry-After", "Retry_After"))
        #expect(!HTTPFieldName.matches("a[", "A{"), "'[' and '{' differ by the case bit but are not letters")
    }

    @Test func messagesFindTheirHeadersByAnyCase() {
        let response = HTTPResponseMessage(
            status: 429, headers: [(name: "retry-after", value: "3"), (name: "Date", value: "x")])
        #expect(response.header("Retry-After") == "3")
        #expect(response.header("DATE") == "x")
        #expect(response.header("Content-Type") == nil)
    }
}
