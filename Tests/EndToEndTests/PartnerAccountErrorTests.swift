import AccessEnabler
import AccessEnablerScenarios
import PassSandbox
import Testing

/// The Apple SSO cookbook: checkAuthentication reports APPL_ERROR when the partner framework reports an
/// error — also when permission is granted but the account itself cannot be read.
@Suite struct PartnerAccountErrorTests {
    @Test(arguments: bothWires)
    func anUnreadableAccountIsAPPL_ERRORAtCheckAuthentication(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.run(.device(Scenario.DeviceChange(failure: .some("serviceTemporarilyUnavailable"))))
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(APPL_ERROR,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.restCalls.isEmpty)
        #expect(
            rig.lastLines.first?["details"]?.stringValue
                == "serviceTemporarilyUnavailable: The TV provider account service is temporarily unavailable.")
        // The stored profile survives: once the service is back, the user is authenticated again.
        try await rig.run(.device(Scenario.DeviceChange(failure: .some(nil))))
        #expect(try await rig.run(.checkAuthentication).last == "setAuthenticationStatus(1,)")
    }
}
