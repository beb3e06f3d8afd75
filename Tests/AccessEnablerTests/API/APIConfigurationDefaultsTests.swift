import Foundation
import Testing

@testable import AccessEnabler

/// `AccessEnablerConfiguration()` builds nothing per instance that the process can share, and
/// keeps the values it is given.
@Suite("Configuration defaults")
struct APIConfigurationDefaultsTests {
    @Test func defaultsAreSharedAndResolvedOnDemand() {
        let first = AccessEnablerConfiguration()
        // The libcurl transport is the default, one for the process.
        let transport = first.transport as? CurlTransport
        #expect(transport != nil)
        #expect(transport?.libcurlVersion == CurlTransport.shared.libcurlVersion)
        #expect(first.storageDirectory == TokenStore.defaultDirectory())
        #expect(first.deviceIdentifier == nil)

        var chosen = AccessEnablerConfiguration()
        let directory = URL(fileURLWithPath: "/tmp/accessenabler-elsewhere", isDirectory: true)
        chosen.storageDirectory = directory
        chosen.deviceIdentifier = "serial-0042"
        #expect(chosen.storageDirectory == directory)
        #expect(chosen.deviceIdentifier == "serial-0042")
        #expect(
            AccessEnablerConfiguration().storageDirectory == TokenStore.defaultDirectory(),
            "a choice stays with its value")

        let given = AccessEnablerConfiguration(environment: .staging, storageDirectory: directory)
        #expect(given.storageDirectory == directory)
    }
}
