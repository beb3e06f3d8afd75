import AccessEnabler
import AccessEnablerScenarios
import PassSandbox
import Testing

/// getAuthorization that had to authenticate first ends in its own terminal callback on
/// every path out of authentication — also the direct ones (TempPass) and the failing ones
/// (Adobe Pass refusing the session).
@Suite struct GetAuthorizationContinuationTests {
    @Test(arguments: bothWires)
    func tempPassAuthenticationContinuesIntoAuthorization(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthorization("news")) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("TempPass")) == [
                "sendTrackingData(2,TempPass)", "status(N011,info)", "sendTrackingData(0,true,TempPass)", authenticated,
                "status(Z011,info)", "sendTrackingData(1,true,TempPass)", "setToken(news)",
            ])
        #expect(
            rig.restCalls == [
                "POST /api/v2/REF30/sessions", "GET /api/v2/REF30/profiles/TempPass",
                "POST /api/v2/REF30/decisions/authorize/TempPass",
            ])
    }

    @Test(arguments: bothWires)
    func aRefusedSessionEndsAuthenticationAndTheWaitingAuthorization(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthorization("news")) == [regularDialog])
        rig.sandbox.inject(SandboxFault(status: 500), into: .createSession)
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(N500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
    }
}
