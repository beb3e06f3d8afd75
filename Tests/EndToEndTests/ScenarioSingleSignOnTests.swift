import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The scenario runner's single sign-on keys end to end: apps presenting the same service
/// token share one sign-in, a logout while the token is presented is a single logout, and
/// the provider is chosen on the second screen, through the SDK's `serviceToken`,
/// `platformIdentity` and `providerChoice` settings the runner hands each app.
@Suite struct ScenarioSingleSignOnTests {
    /// App A (requestor REF30) and app B (requestor REF31, statement STATEMENT2, storage of
    /// its own) on one TV, both presenting a service token for the same person.
    private static func twoAppsWithOneServiceToken(_ wire: ScenarioRunner.Wire) throws -> Rig {
        var b = Scenario.App()
        b.softwareStatement = "STATEMENT2"
        b.serviceToken = Scenario.IdentityToken(subject: "jane")
        return try Rig(wire) { scenario in
            scenario.serviceToken = Scenario.IdentityToken(subject: "jane")
            scenario.apps = ["B": b]
        }
    }

    @Test(arguments: bothWires)
    func aSecondAppPresentingTheSameServiceTokenIsSignedInAtSetRequestorWithNoLogin(wire: ScenarioRunner.Wire)
        async throws
    {
        let rig = try Self.twoAppsWithOneServiceToken(wire)
        #expect(
            try await rig.signatures(of: .setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        // B has never signed in: its setRequestor finds the profile shared through the token.
        #expect(
            try await rig.signatures(of: .setRequestor("REF31", serviceProviders: nil), app: "B") == [
                "B:setRequestorComplete(1)"
            ])
        #expect(rig.restCalls.contains("GET /api/v2/REF31/profiles"))
        #expect(
            try await rig.signatures(of: .checkAuthentication, app: "B") == [
                "B:sendTrackingData(0,true,NotBoarded)", "B:\(authenticated)",
            ])
        #expect(rig.restCalls.isEmpty)
        #expect(try await rig.signatures(of: .checkAuthorization("news"), app: "B").last == "B:setToken(news)")
    }

    @Test(arguments: bothWires)
    func aLogoutWhileTheTokenIsPresentedSignsTheOtherAppOutAtItsNextSetRequestor(wire: ScenarioRunner.Wire) async throws
    {
        let rig = try Self.twoAppsWithOneServiceToken(wire)
        _ = try await rig.signatures(of: .setRequestor("REF30", serviceProviders: nil))
        try await rig.logIn()
        _ = try await rig.signatures(of: .setRequestor("REF31", serviceProviders: nil), app: "B")
        #expect(try await rig.signatures(of: .checkAuthentication, app: "B").last == "B:\(authenticated)")
        // A logs out while presenting the token: Adobe Pass ends the shared sign-in too.
        #expect(try await rig.signatures(of: .logout).last == notAuthenticated)
        // B learns it when it next comes to the foreground.
        #expect(
            try await rig.signatures(of: .setRequestor("REF31", serviceProviders: nil), app: "B") == [
                "B:setRequestorComplete(1)"
            ])
        #expect(
            try await rig.signatures(of: .checkAuthentication, app: "B") == [
                "B:status(N000,info)", "B:sendTrackingData(0,false,)", "B:\(notAuthenticated)",
            ])
    }

    @Test(arguments: bothWires)
    func theProviderIsChosenOnTheSecondScreen(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire) { scenario in
            scenario.loginScreen = .secondScreen
            scenario.providerChoice = .onSecondScreen
        }
        #expect(
            try await rig.signatures(of: .setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        // No provider list on the TV: the code at once.
        #expect(
            try await rig.signatures(of: .getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                "status(REGCODE,info)"
            ])
        #expect(
            try await rig.signatures(of: .login(username: "alice", password: "alice123", mvpd: "NotBoarded")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(try await rig.signatures(of: .getSelectedProvider) == ["selectedProvider(NotBoarded)"])
    }
}
