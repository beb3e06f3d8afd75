import AccessEnabler
import AccessEnablerScenarios
import PassSandbox
import Testing

/// An AuthZNone degradation rule on the dashboard denies every authorization:
/// status Z169 and `tokenRequestFailed(USER_NOT_AUTHORIZED_ERROR)`; the session survives.
@Suite struct RegularDegradationRuleTests {
    @Test(arguments: bothWires)
    func anAuthZNoneRuleDeniesWithZ169AndKeepsTheSession(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        try await rig.run(.world(mvpd: "NotBoarded", set: ["authzNone": .bool(true)]))
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(Z169,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/authorize/NotBoarded"])
        #expect(rig.lastLines.first?["message"]?.stringValue?.contains("degradation rule") == true)
        #expect(try await rig.run(.checkAuthentication).last == authenticated)
        try await rig.run(.world(mvpd: "NotBoarded", set: ["authzNone": .bool(false)]))
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }
}
