import Foundation
import Testing

@testable import AccessEnabler

/// Which hosts plain HTTP may reach: only this machine's.
@Suite struct DecisionTransportSecurityTests {
    @Test(arguments: [
        "127.0.0.1", "127.255.0.9", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "localhost", "LOCALHOST",
        "localhost.", "sandbox.localhost",
    ])
    func loopbackHosts(host: String) {
        #expect(TransportSecurityPolicy.isLoopback(host: host))
    }

    @Test(arguments: [
        "128.0.0.1", "10.0.0.1", "0.0.0.0", "127.0.0", "127.0.0.1.example.com", "localhost.example.com", "mylocalhost",
        "::2", "example.com", "",
    ])
    func otherHosts(host: String) {
        #expect(!TransportSecurityPolicy.isLoopback(host: host))
    }

    @Test func onlyPlainHTTPToAnotherHostIsRefused() throws {
        let policy = TransportSecurityPolicy(allowsInsecureHTTP: false)
        #expect(
            policy.refusal(for: try #require(URL(string: "https://api.auth.adobe.com")), role: "The environment") == nil
        )
        #expect(policy.refusal(for: try #require(URL(string: "http://127.0.0.1:8080")), role: "The environment") == nil)
        let plain = try #require(URL(string: "HTTP://api.example.com"))
        let refusal = try #require(policy.refusal(for: plain, role: "The environment"))
        #expect(refusal.hasPrefix("The environment HTTP://api.example.com uses plain http://"))
        #expect(
            TransportSecurityPolicy(allowsInsecureHTTP: true).refusal(
                for: try #require(URL(string: "http://api.example.com")), role: "x") == nil)
    }
}
