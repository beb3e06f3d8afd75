import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// The legacy cookbook's list of `checkAuthentication` outcomes (step 3 of the Apple single
/// sign-on flow), each proved across an app relaunch: the person signed in, the dashboard
/// (or the device, or time) changed, the app was relaunched and called `setRequestor` — which
/// asks no configuration while a profile is in force — and `checkAuthentication` reports 0
/// with the status the cookbook names. The dashboard reaches the device only through Adobe's
/// answers (the profiles request of the relaunch), never through a configuration asked for it.
@Suite struct SeedCheckAuthenticationRelaunchTests {
    static let notAuthenticatedN000 = ["status(N000,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated]

    /// A device signed in silently at setRequestor through its system-level sign-in.
    private func signedInThroughTheSystem(_ wire: ScenarioRunner.Wire, expiresIn: TimeInterval = 86_400) async throws
        -> Rig
    {
        let rig = try Partner.rig(wire, expiresIn: expiresIn)
        let launched = try await rig.run(Partner.setRequestor)
        #expect(launched == ["setRequestorComplete(1)"], "calls: \(rig.restCalls)")
        let checked = try await rig.run(.checkAuthentication)
        #expect(checked.last == Partner.authenticated, "\(checked)")
        return rig
    }

    /// A tvOS device with a partner framework, nobody signed in at system level, signed in to
    /// `NotBoarded` through the regular flow (the picker cancelled, then the MVPD page).
    private func signedInThroughTheRegularFlow(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try Partner.rig(wire, signedIn: nil) { $0.device.picker = [.cancel] }
        try await rig.run(Partner.setRequestor)
        try await rig.run(Partner.getAuthentication)
        try await rig.run(.setSelectedProvider("NotBoarded"))
        #expect(try await rig.run(.login(username: "alice", password: "alice123")).last == Partner.authenticated)
        return rig
    }

    /// A dashboard change some minutes after the sign-in (so the configuration the sign-in
    /// fetched is older than the 3 minutes it is reused for).
    private func dashboard(_ rig: Rig, _ mvpd: String, _ key: String) async throws {
        try await rig.run(.world(mvpd: mvpd, set: [key: .bool(false)]))
        try await rig.run(.advanceClock(181))
    }

    /// The relaunch: a new AccessEnabler over the same storage, and setRequestor.
    private func relaunch(_ rig: Rig) async throws -> [String] {
        try await rig.run(.restart)
        return try await rig.run(Partner.setRequestor)
    }

    // MARK: The dashboard rows

    @Test(arguments: bothWires)
    func integrationDisabledForASystemLevelSignInIsStatusZeroAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheSystem(wire)
        try await dashboard(rig, "AppleBoarded", "integrationActive")
        #expect(try await relaunch(rig) == ["setRequestorComplete(1)"])
        // Adobe's profiles answer (asked with the partner status that shows an appleSSO profile)
        // no longer lists the profile; with none in force, the partner framework's silent check
        // needs the supported providers, which no longer include AppleBoarded.
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles", "GET /api/v2/REF30/configuration"])
        #expect(try await rig.run(.checkAuthentication) == Self.notAuthenticatedN000)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func singleSignOnDisabledForASystemLevelSignInIsStatusZeroAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheSystem(wire)
        try await dashboard(rig, "AppleBoarded", "ssoEnabled")
        #expect(try await relaunch(rig) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles", "GET /api/v2/REF30/configuration"])
        #expect(try await rig.run(.checkAuthentication) == Self.notAuthenticatedN000)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func singleSignOnDisabledIsSeenByTheRunningAppAtItsNextSetRequestor(wire: ScenarioRunner.Wire) async throws {
        // No relaunch: an app that comes back to the foreground calls setRequestor again.
        let rig = try await signedInThroughTheSystem(wire)
        try await dashboard(rig, "AppleBoarded", "ssoEnabled")
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication) == Self.notAuthenticatedN000)
    }

    @Test(arguments: bothWires)
    func integrationDisabledForARegularSignInIsStatusZeroAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheRegularFlow(wire)
        try await dashboard(rig, "NotBoarded", "integrationActive")
        #expect(try await relaunch(rig) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles", "GET /api/v2/REF30/configuration"])
        #expect(try await rig.run(.checkAuthentication) == Self.notAuthenticatedN000)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func integrationDisabledWithoutAPartnerFrameworkIsStatusZeroWithTheProfilesRequestAlone(wire: ScenarioRunner.Wire)
        async throws
    {
        let rig = try await Rig.loggedIn(wire)
        try await dashboard(rig, "NotBoarded", "integrationActive")
        #expect(try await relaunch(rig) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"], "no configuration: nothing needs one")
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    // MARK: The device and time rows

    @Test(arguments: bothWires)
    func signedOutAtSystemLevelIsStatusZeroAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheSystem(wire)
        try await rig.run(Partner.signIn(nil))
        #expect(try await relaunch(rig) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication) == Self.notAuthenticatedN000)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func bothTTLsPassedIsStatusZeroAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheSystem(wire)
        try await rig.run(.advanceClock(86_400 + 60))
        #expect(try await relaunch(rig) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication) == Self.notAuthenticatedN000)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aRegularProfilesTTLPassedIsStatusZeroAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheRegularFlow(wire)
        try await rig.run(.advanceClock(86_400 + 60))
        #expect(try await relaunch(rig) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication) == Self.notAuthenticatedN000)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func deniedPermissionIsVSA403AfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheSystem(wire)
        try await rig.run(Partner.access("denied"))
        #expect(try await relaunch(rig) == ["status(VSA403,info)", "setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"])
        let (callbacks, calls) = try await rig.runRecordingDevice(.checkAuthentication)
        #expect(callbacks == ["status(VSA403,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated])
        expectNoInterruption(calls)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func undeterminedPermissionIsVSA404AfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheSystem(wire)
        try await rig.run(Partner.access("notDetermined"))
        #expect(try await relaunch(rig) == ["status(VSA404,info)", "setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(VSA404,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
            ])
        #expect(rig.device?.accessStatus == .notDetermined, "nothing prompted")
    }

    @Test(arguments: bothWires)
    func aPartnerErrorIsAPPLErrorAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInThroughTheSystem(wire)
        try await rig.run(Partner.access("error"))
        #expect(try await relaunch(rig) == ["status(APPL,error)", "setRequestorComplete(1)"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(APPL_ERROR,error)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    // MARK: Each row after a dashboard change of the other kind

    @Test(arguments: bothWires)
    func theDeviceRowsStillHoldWhenTheDashboardAlsoChanged(wire: ScenarioRunner.Wire) async throws {
        // The dashboard disabled single sign-on and the device changed too: the device's row
        // decides the status.
        for (access, status) in [
            ("denied", "status(VSA403,info)"), ("notDetermined", "status(VSA404,info)"),
            ("error", "status(APPL_ERROR,error)"),
        ] {
            let rig = try await signedInThroughTheSystem(wire)
            try await dashboard(rig, "AppleBoarded", "ssoEnabled")
            try await rig.run(Partner.access(access))
            _ = try await relaunch(rig)
            #expect(
                try await rig.run(.checkAuthentication) == [
                    status, "sendTrackingData(0,false,)", Partner.notAuthenticated,
                ], "permission \(access)")
        }
    }
}
