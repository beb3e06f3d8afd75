import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// Cookbook step 3, `checkAuthentication`: status 1 or 0 under each listed condition, the
/// partner statuses, and never a REST call.
@Suite struct PartnerCheckAuthenticationTests {
    static let failed = ["sendTrackingData(0,false,)", Partner.notAuthenticated]

    /// A rig signed in silently through the system-level sign-in.
    private func signedInRig(_ wire: ScenarioRunner.Wire, expiresIn: TimeInterval = 86_400) async throws -> Rig {
        let rig = try Partner.rig(wire, expiresIn: expiresIn)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls + Partner.exchangeCalls)
        return rig
    }

    @Test(arguments: bothWires)
    func signedInThroughTheSystemIsStatusOneWithoutNetwork(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire)
        let (callbacks, calls) = try await rig.runRecordingDevice(.checkAuthentication)
        #expect(callbacks == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        #expect(rig.restCalls.isEmpty)
        expectNoInterruption(calls)
    }

    @Test(arguments: bothWires)
    func notSignedInAnywhereIsStatusZero(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil)
        try await rig.run(Partner.setRequestor)
        let (callbacks, calls) = try await rig.runRecordingDevice(.checkAuthentication)
        #expect(callbacks == ["status(N000,info)"] + Self.failed)
        #expect(rig.restCalls.isEmpty)
        expectNoInterruption(calls)
    }

    @Test(arguments: bothWires)
    func theAdobeTTLPassedIsStatusZero(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire, expiresIn: 10 * 86_400)
        try await rig.run(.advanceClock(86_400 + 60))
        #expect(try await rig.run(.checkAuthentication) == ["status(N000,info)"] + Self.failed)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aDisabledIntegrationIsStatusZeroFromTheNextSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire)
        try await rig.run(.world(mvpd: "AppleBoarded", set: ["integrationActive": .bool(false)]))
        // Until the app asks Adobe Pass again, the device cannot know (checkAuthentication is local).
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        // The profiles request presents the partner status, and Adobe Pass no longer lists the
        // profile: it ends. The configuration the sign-in fetched a moment ago is reused (3
        // minutes) and still names AppleBoarded: the silent exchange is tried, Adobe Pass refuses it.
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles", "POST /api/v2/REF30/sessions/sso/Apple"])
        #expect(try await rig.run(.checkAuthentication) == ["status(N000,info)"] + Self.failed)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func disabledSingleSignOnIsStatusZeroFromTheNextSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire)
        try await rig.run(.world(mvpd: "AppleBoarded", set: ["ssoEnabled": .bool(false)]))
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles", "POST /api/v2/REF30/sessions/sso/Apple"])
        #expect(try await rig.run(.checkAuthentication) == ["status(N000,info)"] + Self.failed)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func deniedPermissionIsVSA403AndStatusZero(wire: ScenarioRunner.Wire) async throws {
        for state in ["denied", "restricted"] {
            let rig = try await signedInRig(wire)
            try await rig.run(Partner.access(state))
            let (callbacks, calls) = try await rig.runRecordingDevice(.checkAuthentication)
            #expect(callbacks == ["status(VSA403,info)"] + Self.failed, "permission \(state)")
            #expect(rig.restCalls.isEmpty)
            expectNoInterruption(calls)
        }
    }

    @Test(arguments: bothWires)
    func undeterminedPermissionIsVSA404AndStatusZeroWithoutPrompting(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire)
        try await rig.run(Partner.access("notDetermined"))
        let (callbacks, calls) = try await rig.runRecordingDevice(.checkAuthentication)
        #expect(callbacks == ["status(VSA404,info)"] + Self.failed)
        #expect(rig.restCalls.isEmpty)
        expectNoInterruption(calls)
        #expect(rig.device?.accessStatus == .notDetermined)
    }

    @Test(arguments: bothWires)
    func partnerErrorIsAPPLErrorAndStatusZero(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire)
        try await rig.run(Partner.access("error"))
        #expect(try await rig.run(.checkAuthentication) == ["status(APPL_ERROR,error)"] + Self.failed)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aValidRegularProfileIsAnsweredWithoutAskingThePartner(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil) { $0.device.picker = [.cancel] }
        try await rig.run(Partner.setRequestor)
        try await rig.run(Partner.getAuthentication)
        try await rig.run(.setSelectedProvider("NotBoarded"))
        #expect(try await rig.run(.login(username: "alice", password: "alice123")).last == Partner.authenticated)
        try await rig.run(Partner.access("denied"))
        let (callbacks, calls) = try await rig.runRecordingDevice(.checkAuthentication)
        #expect(callbacks == ["sendTrackingData(0,true,NotBoarded)", Partner.authenticated])
        #expect(calls.isEmpty, "a valid regular profile decides; the partner framework is not queried")
        #expect(rig.restCalls.isEmpty)
    }
}
