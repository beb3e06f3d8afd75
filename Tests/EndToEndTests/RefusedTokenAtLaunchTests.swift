import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// A bad minute at launch does not sign the person out for the session: a `GET profiles`
/// refused with `401` even after one token renewal keeps the stored profile, as a server
/// failure does, and each later call that needs the server tries a new token once before it
/// answers R401 — and works as soon as Adobe Pass takes the token again.
@Suite struct RefusedTokenAtLaunchTests {
    static let profiles = "GET /api/v2/REF30/profiles"
    static let token = "POST /o/client/token"
    static let authorize = "POST /api/v2/REF30/decisions/authorize/NotBoarded"

    /// Signed in, then relaunched while Adobe Pass refuses every access token on `endpoints`.
    private func relaunchedWhileTokensAreRefused(_ wire: ScenarioRunner.Wire, on endpoints: [SandboxEndpoint])
        async throws -> Rig
    {
        let rig = try await Rig.loggedIn(wire)
        try await rig.run(.restart)
        for endpoint in endpoints { rig.sandbox.inject(SandboxFault(status: 401), into: endpoint) }
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            rig.restCalls == [Self.profiles, Self.token, Self.profiles], "one renewal, then the stored profile stands")
        return rig
    }

    @Test(arguments: bothWires)
    func theStoredProfileStaysAndTheNextCallWorksOnceTheTokenIsTaken(wire: ScenarioRunner.Wire) async throws {
        let rig = try await relaunchedWhileTokensAreRefused(wire, on: [.profiles])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        rig.sandbox.clearFaults()
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }

    @Test(arguments: bothWires)
    func eachCallTriesANewTokenOnceBeforeR401(wire: ScenarioRunner.Wire) async throws {
        let rig = try await relaunchedWhileTokensAreRefused(wire, on: [.profiles, .authorize, .preauthorize])
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(R401,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ])
        #expect(rig.restCalls == [Self.authorize, Self.token, Self.authorize])
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: false)) == [
                "status(R401,error)", "preauthorizedResources()",
            ])
        // Adobe Pass takes tokens again: the very next call works, with no setRequestor.
        rig.sandbox.clearFaults()
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(try await rig.run(.checkAuthentication).last == authenticated)
    }

    @Test(arguments: bothWires)
    func withNothingStoredSetRequestorStillFailsWithR401(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        rig.sandbox.inject(SandboxFault(status: 401), into: .profiles)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(R401,error)", "setRequestorComplete(0)",
            ])
    }
}
