import AccessEnabler
import AccessEnablerScenarios
import PassSandbox
import Testing

/// When the dashboard turns single sign-on off after setRequestor cached the configuration,
/// sessions/sso/Apple falls back (configuration_fallback). If the fallback already opened a
/// basic authentication session, the SDK continues the regular login in it: no second
/// session request.
@Suite struct PartnerFallbackSessionTests {
    @Test(arguments: bothWires)
    func aConfigurationFallbackContinuesInTheSessionItOpened(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.run(.world(mvpd: "AppleBoarded", set: ["ssoEnabled": .bool(false)]))
        try await rig.run(Partner.picker([.select(provider: "AppleBoarded", user: "alice")]))
        let callbacks = try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        #expect(callbacks.last == "navigateToUrl(authenticate)")
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions/sso/Apple"])
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")).last == "setAuthenticationStatus(1,)")
    }
}
