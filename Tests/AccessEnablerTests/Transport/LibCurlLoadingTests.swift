import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// libcurl is found at run time through the SDK's own declarations: they match the
/// library's, and where the library is missing the transport says so and uses URLSession.
@Suite struct LibCurlLoadingTests {
    @Test func theSystemsLibcurlLoads() throws {
        let curl = try LibCurl.shared.get()
        #expect(curl.version.hasPrefix("libcurl/"))
        #expect(CurlTransport.shared.fallbackReason == nil)
        #expect(CurlTransport.shared.libcurlVersion == curl.version)
    }

    /// Each option number the SDK declares is the one libcurl's own table gives its name: a
    /// wrong number would set another option.
    @Test func everyDeclaredOptionNumberIsLibcurls() throws {
        let curl = try LibCurl.shared.get()
        try #require(curl.easyOptionByName != nil, "libcurl \(curl.version) has no option table (7.73 or later)")
        for option in CurlOption.allCases {
            #expect(curl.optionNumber(named: option.name) == option.rawValue, "CURLOPT_\(option.name)")
        }
        #expect(curl.optionNumber(named: "NO_SUCH_OPTION") == nil)
    }

    /// Each code's name is the one libcurl's own sentence for the number describes.
    @Test func codeNumbersMatchLibcurlsSentences() throws {
        let curl = try LibCurl.shared.get()
        #expect(curl.sentence(for: CurlCode(rawValue: 7)) == "Couldn't connect to server")
        #expect(curl.sentence(for: CurlCode(rawValue: 28)) == "Timeout was reached")
        #expect(curl.sentence(for: CurlCode(rawValue: 52)) == "Server returned nothing (no headers, no data)")
        #expect(curl.sentence(for: CurlCode(rawValue: 63)) == "Maximum file size exceeded")
    }

    @Test func aMissingLibraryFallsBackToURLSessionAndSaysWhy() async throws {
        let transport = CurlTransport(libraryName: "libcurl-that-is-not-here.so.4")
        let reason = try #require(transport.fallbackReason)
        #expect(reason.contains("libcurl-that-is-not-here.so.4 could not be loaded"))
        #expect(transport.libcurlVersion == nil)
        #expect(transport.keepsItsDeadline)
        #expect(CurlTransport.fallbackMessage(reason).contains("requests go through URLSession"))
        // It still sends: through URLSession (a closed port gives its cannotConnect).
        let (fd, port) = try Self.boundButNotListening()
        defer { close(fd) }
        let result: Result<HTTPResponseMessage, TransportFailure>
        do {
            result = .success(
                try await transport.send(
                    HTTPRequestMessage(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/")!), timeout: 30))
        } catch {
            result = .failure(error)
        }
        guard case .failure(.cannotConnect) = result else {
            Issue.record("expected cannotConnect through URLSession, got \(result)")
            return
        }
    }

    @Test func aLibraryWithoutTheMultiInterfaceIsRefusedNamingTheFunction() {
        // libc is a library, but not libcurl: the first function looked for is missing.
        guard case .failure(let failure) = LibCurl.load("libc.so.6") else {
            Issue.record("libc was taken for libcurl")
            return
        }
        #expect(failure.description.contains("has no curl_global_init"))
    }

    /// A loopback port bound by a socket that never listens: connecting is refused.
    static func boundButNotListening() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(fd >= 0 && bound)
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
