import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// Cookbook step 2, `setRequestor` with a partner framework: the permission statuses, the
/// silent exchange of a system-level sign-in, and what never triggers it.
@Suite struct PartnerRequestorTests {
    // MARK: Permission problems

    @Test(arguments: bothWires)
    func deniedPermissionReportsVSA403AndCompletes(wire: ScenarioRunner.Wire) async throws {
        for state in ["denied", "restricted"] {
            let rig = try Partner.rig(wire) { $0.device.accessStatus = state }
            let (callbacks, calls) = try await rig.runRecordingDevice(Partner.setRequestor)
            #expect(callbacks == ["status(VSA403,info)", "setRequestorComplete(1)"], "permission \(state)")
            #expect(rig.restCalls == Partner.launchCalls)
            #expect(calls == [.accessStatus(prompt: false)], "a denied permission is not read further")
        }
    }

    @Test(arguments: bothWires)
    func undeterminedPermissionReportsVSA404WithoutPrompting(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire) { $0.device.accessStatus = "notDetermined" }
        let (callbacks, calls) = try await rig.runRecordingDevice(Partner.setRequestor)
        #expect(callbacks == ["status(VSA404,info)", "setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls)
        #expect(calls == [.accessStatus(prompt: false)])
        #expect(rig.device?.accessStatus == .notDetermined, "setRequestor must never prompt")
    }

    @Test(arguments: bothWires)
    func partnerErrorReportsAPPL(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire) { $0.device.accessStatus = "error" }
        #expect(try await rig.run(Partner.setRequestor) == ["status(APPL,error)", "setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls)
        let status = rig.lastLines.first { $0.callback == "status" }
        #expect(status?["details"]?.stringValue?.isEmpty == false, "APPL carries the partner error in details")
    }

    @Test(arguments: bothWires)
    func aFailingAccountQueryReportsAPPL(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire) { $0.device.failure = "serviceTemporarilyUnavailable" }
        let (callbacks, calls) = try await rig.runRecordingDevice(Partner.setRequestor)
        #expect(callbacks == ["status(APPL,error)", "setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls)
        expectNoInterruption(calls)
    }

    // MARK: Silent exchange

    @Test(arguments: bothWires)
    func systemSignInIsExchangedSilently(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        let (callbacks, calls) = try await rig.runRecordingDevice(Partner.setRequestor)
        #expect(
            callbacks == ["setRequestorComplete(1)"],
            "nothing but setRequestorComplete: authentication was not asked for")
        #expect(rig.restCalls == Partner.launchCalls + Partner.exchangeCalls)
        expectNoInterruption(calls)
        #expect(
            calls.compactMap(\.metadataRequest).contains { $0.samlRequest != nil },
            "the SAML request went to the partner framework")
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aSecondLaunchWithAValidProfileDoesNotExchangeAgain(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(Partner.setRequestor)
        try await rig.run(.restart)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"], "DCR cached, profile in force: the profiles only")
    }

    @Test(arguments: bothWires)
    func aProfileWhoseSystemSignInIsGoneIsRemovedAtTheNextSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(Partner.setRequestor)
        try await rig.run(Partner.signIn(nil))
        // Still stored until setRequestor reconciles (metadata reads storage only).
        #expect(try await rig.run(Partner.tokenSource) == [#"setMetadataStatus(3,false,"Apple")"#])
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(
            rig.restCalls == ["GET /api/v2/REF30/profiles"],
            "the partner framework judged the profile in force: no configuration")
        #expect(
            try await rig.run(Partner.tokenSource) == ["setMetadataStatus(3,false,null)"],
            "the appleSSO profile is deleted")
        #expect(try await rig.run(Partner.authenticationExpiry) == ["setMetadataStatus(0,false,null)"])
    }

    // MARK: No exchange

    @Test(arguments: bothWires)
    func noExchangeForAnSSODisabledProvider(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: "SSODisabled")
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls)
        try await rig.run(.checkAuthentication)
        #expect(rig.lastLines.last?["status"]?.compactText == "0")
    }

    @Test(arguments: bothWires)
    func noExchangeWhenTheDashboardDisablesSSOForTheProvider(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(.world(mvpd: "AppleBoarded", set: ["ssoEnabled": .bool(false)]))
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls)
    }

    @Test(arguments: bothWires)
    func noExchangeForAnInactiveIntegration(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(.world(mvpd: "AppleBoarded", set: ["integrationActive": .bool(false)]))
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls)
    }

    @Test(arguments: bothWires)
    func noExchangeForADegradedProvider(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: "Degraded")
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        // Degradation is only known from the partner session's answer; nothing is exchanged.
        #expect(rig.restCalls == Partner.launchCalls + ["POST /api/v2/REF30/sessions/sso/Apple"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func noExchangeForAProviderTheRequestorDoesNotKnow(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: "UnknownTV")
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls, "an unknown provider id never reaches sessions/sso")
    }

    @Test(arguments: bothWires)
    func noExchangeForAnExpiredSystemSignIn(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, expiresIn: 60)
        try await rig.run(.advanceClock(120))
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls, "an expired provider sign-in never reaches sessions/sso")
    }

    @Test(arguments: bothWires)
    func aFailingExchangeLeavesTheUserSignedOutSilently(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(.fault(endpoint: .partnerProfile, SandboxFault(status: 503)))
        #expect(
            try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"], "a silent exchange reports nothing")
        // internal_server_error advises no retry (the Enhanced Error Codes table: action none).
        #expect(rig.restCalls == Partner.launchCalls + Partner.exchangeCalls)
        #expect(try await rig.run(.checkAuthentication).last == Partner.notAuthenticated)
    }

    @Test(arguments: bothWires)
    func noPartnerQueryWithoutADevice(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.regularLaunchCalls)
    }
}
