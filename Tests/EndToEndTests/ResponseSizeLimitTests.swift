import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A response body over `AccessEnablerConfiguration.maximumResponseBodySize` is refused as
/// an answer that is not the documented JSON, over both wires: the call ends with its
/// documented failure and a message naming the limit, and the next call works.
@Suite struct ResponseSizeLimitTests {
    @Test(arguments: bothWires)
    func anOversizedConfigurationIsCFG500(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        // 6 MiB: over the default limit of 4 MiB. The provider list needs the configuration.
        rig.sandbox.inject(SandboxFault(oversizedBody: 6 << 20, remaining: 1), into: .configuration)
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                "status(CFG500,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        let message = try #require(rig.lines("status").first?["message"]?.stringValue)
        #expect(message.contains("larger than 4 MiB"))
        #expect(message.contains("maximumResponseBodySize"))
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
    }

    @Test(arguments: bothWires)
    func aConfiguredLimitBoundsEveryAnswer(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(
            wire, configuration: { $0.maximumResponseBodySize = 64 << 10 }, scenario: { $0.platform = .tvOS })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        rig.sandbox.inject(SandboxFault(oversizedBody: (64 << 10) + 1, remaining: 1), into: .authorize)
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("larger than 64 KiB") == true)
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }
}
