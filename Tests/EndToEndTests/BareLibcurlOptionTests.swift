import Testing

@testable import AccessEnabler
@testable import AccessEnablerBenchmarks

/// The benchmark's bare libcurl client declares its own option numbers (it shares nothing
/// with the SDK's transport): each is the one libcurl's own table gives its name.
@Suite struct BareLibcurlOptionTests {
    @Test func theBareClientsOptionNumbersAreLibcurls() throws {
        let curl = try LibCurl.shared.get()
        for (name, number) in BareLibcurl.Option.all {
            #expect(curl.optionNumber(named: name) == number, "CURLOPT_\(name)")
        }
        #expect(BareLibcurl.Option.all.count == 10)
    }
}
