import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// Adobe Pass's `invalid_integration` on any call: the dashboard disabled the integration of
/// the requestor with the MVPD the call named. The call ends as "not authenticated" with that
/// MVPD, the profile goes (checkAuthentication says 0 at once, with no request), and the next
/// provider list asks for the configuration again. Never a transport error, never retried.
@Suite struct IntegrationEndedTests {
    /// Signed in to NotBoarded; then the dashboard disables that integration.
    private func disabledWhileSignedIn(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try await Rig.loggedIn(wire)
        try await rig.run(.world(mvpd: "NotBoarded", set: ["integrationActive": .bool(false)]))
        return rig
    }

    @Test(arguments: bothWires)
    func anAuthorizationEndsAsNotAuthenticatedAndTheProfileGoes(wire: ScenarioRunner.Wire) async throws {
        let rig = try await disabledWhileSignedIn(wire)
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(N000,info)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(
            rig.restCalls == ["POST /api/v2/REF30/decisions/authorize/NotBoarded"],
            "asked once: invalid_integration is never retried")
        let status = try #require(rig.lines("status").first)
        #expect(status["message"]?.stringValue?.contains("invalid_integration") == true)
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
        // The next provider list asks for the configuration again, and it no longer lists NotBoarded.
        let dialog = try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        #expect(rig.restCalls == ["GET /api/v2/REF30/configuration"], "the configuration held was out of date")
        #expect(dialog == [regularDialog.replacingOccurrences(of: "NotBoarded,", with: "")])
    }

    @Test(arguments: bothWires)
    func aPreauthorizationEndsAsNotAuthenticated(wire: ScenarioRunner.Wire) async throws {
        let rig = try await disabledWhileSignedIn(wire)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports"], cache: false)) == [
                "status(N000,info)", "preauthorizedResources()",
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/preauthorize/NotBoarded"])
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
    }

    @Test(arguments: bothWires)
    func aSignInWithTheProviderEndsAsNotAvailable(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        // The dashboard changes while the dialog is shown (the configuration is a moment old).
        try await rig.run(.world(mvpd: "NotBoarded", set: ["integrationActive": .bool(false)]))
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(N000,info)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(PROVIDER_NOT_AVAILABLE_ERROR))",
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions"])
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                regularDialog.replacingOccurrences(of: "NotBoarded,", with: "")
            ])
        #expect(rig.restCalls == ["GET /api/v2/REF30/configuration"])
    }

    @Test(arguments: bothWires)
    func aLogoutRefusedThisWayIsNotSentAgain(wire: ScenarioRunner.Wire) async throws {
        let rig = try await disabledWhileSignedIn(wire)
        #expect(try await rig.run(.logout) == [notAuthenticated])
        #expect(rig.restCalls == ["GET /api/v2/REF30/logout/NotBoarded"])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"], "nothing left to end at Adobe Pass: no logout again")
    }
}
