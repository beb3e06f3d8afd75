import AccessEnabler
import AccessEnablerScenarios
import PassSandbox
import Testing

/// The regular login end to end, to prove the rig itself over both wires.
@Suite struct RigSmokeTests {
    @Test(arguments: bothWires)
    func regularLoginThroughTheLoginPage(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles"])
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                "displayProviderDialog(AppleBoarded,PickerOnly,NotBoarded,SSODisabled,Degraded,TempPass,SVCProvider)"
            ])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", "setAuthenticationStatus(1,)",
            ])
        #expect(rig.restCalls.count == 1)
        #expect(rig.restCalls.first?.hasPrefix("GET /api/v2/REF30/profiles/code/") == true)
    }
}
