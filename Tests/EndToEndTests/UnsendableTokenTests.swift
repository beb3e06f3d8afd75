import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A service token or platform identity that cannot be sent as a header value (empty, or
/// holding a control character: CR, LF, NUL, DEL, …) is never dropped silently: the request
/// is not sent, and the call reports N500 naming the header, then ends with its failure
/// callback.
@Suite struct UnsendableTokenTests {
    static let unsendable = ["token\r\nX-Injected: yes", "tok\u{0}en", "\n", "", " ", "tok\u{7F}en", "tok\u{1B}en"]

    /// A signed-in rig whose service token and platform identity the test sets.
    static func rig(
        _ wire: ScenarioRunner.Wire, serviceToken: NSLockedBox<String>, platformIdentity: NSLockedBox<String>
    ) async throws -> Rig {
        let rig = try Rig(
            wire,
            configuration: { settings in
                settings.serviceToken = { serviceToken.value }
                settings.platformIdentity = { platformIdentity.value }
            },
            scenario: { $0.platform = .tvOS })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        return rig
    }

    @Test(arguments: bothWires, unsendable)
    func aServiceTokenThatCannotBeAHeaderIsN500NamingIt(wire: ScenarioRunner.Wire, token: String) async throws {
        let (service, platform) = (NSLockedBox<String>(), NSLockedBox<String>())
        let rig = try await Self.rig(wire, serviceToken: service, platformIdentity: platform)
        service.value = token
        try await Self.expectEveryCallRefuses(rig, naming: "AD-Service-Token")
    }

    @Test(arguments: bothWires, ["identity\r\n", ""])
    func aPlatformIdentityThatCannotBeAHeaderIsN500NamingIt(wire: ScenarioRunner.Wire, identity: String) async throws {
        let (service, platform) = (NSLockedBox<String>(), NSLockedBox<String>())
        let rig = try await Self.rig(wire, serviceToken: service, platformIdentity: platform)
        platform.value = identity
        try await Self.expectEveryCallRefuses(rig, naming: "Adobe-Subject-Token")
    }

    /// Each call whose request carries the header ends with N500 naming `header`, sending nothing.
    static func expectEveryCallRefuses(_ rig: Rig, naming header: String) async throws {
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(N500,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ])
        try Self.expectRefusal(rig, naming: header)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: false)) == [
                "status(N500,error)", "preauthorizedResources()",
            ])
        try Self.expectRefusal(rig, naming: header)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(N500,error)", "setRequestorComplete(1)",
            ])
        try Self.expectRefusal(rig, naming: header)
        #expect(try await rig.run(.logout) == ["status(N500,error)", notAuthenticated])
        try Self.expectRefusal(rig, naming: header)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(N500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        try Self.expectRefusal(rig, naming: header)
    }

    private static func expectRefusal(_ rig: Rig, naming header: String) throws {
        let message = try #require(rig.lines("status").first?["message"]?.stringValue)
        #expect(message.contains(header), "\(message)")
        #expect(
            !rig.restCalls.contains {
                $0.contains("/decisions/") || $0.contains("/sessions") || $0.contains("/profiles")
            }, "\(rig.restCalls)")
    }
}
