import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The legacy tvOS registration-code sign-in on REST API V2's secondary-application flow,
/// end to end against PassSandbox: `REGCODE` instead of `navigateToUrl`, polling of
/// `profiles/code/{code}` on the configuration's clock, and every way the wait ends.
@Suite struct SecondScreenTests {
    static let regCode = "status(REGCODE,info)"

    /// A tvOS rig (second screen by default) with REF30 set.
    static func rig(
        _ wire: ScenarioRunner.Wire, configuration: (@Sendable (inout AccessEnablerConfiguration) -> Void)? = nil
    ) async throws -> Rig {
        let rig = try Rig(
            wire, configuration: configuration,
            scenario: { scenario in
                scenario.platform = .tvOS
                scenario.loginScreen = nil
            })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        return rig
    }

    /// getAuthentication → dialog → setSelectedProvider(mvpd) → REGCODE; returns the code.
    @discardableResult
    static func requestCode(_ rig: Rig, mvpd: String = "NotBoarded", authorizing resource: String? = nil) async throws
        -> String
    {
        if let resource {
            #expect(try await rig.run(.getAuthorization(resource)) == [regularDialog])
        } else {
            #expect(
                try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        }
        #expect(try await rig.run(.setSelectedProvider(mvpd)) == ["sendTrackingData(2,\(mvpd))", regCode])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions"])
        let status = try #require(rig.lines("status").last)
        let code = try #require(status["details"]?.stringValue)
        #expect(status["message"]?.stringValue?.contains(code) == true)
        return code
    }

    static func polls(_ rig: Rig, _ code: String) -> Int {
        rig.restCalls.filter { $0 == "GET /api/v2/REF30/profiles/code/\(code)" }.count
    }

    @Test(arguments: bothWires)
    func tvOSShowsARegistrationCodeAndPollsUntilTheSecondScreenSignsIn(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        let code = try await Self.requestCode(rig)
        #expect(rig.lines("navigateToUrl").isEmpty)
        // Nothing happens while the person walks to their phone: the first poll is one interval away.
        #expect(try await rig.run(.advanceClock(4)) == [])
        #expect(rig.restCalls.isEmpty)
        #expect(try await rig.run(.advanceClock(1)) == [])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles/code/\(code)"])
        // The person signs in on the second screen; the next poll finds the profile.
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(Self.polls(rig, code) == 1)
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty, "polling stops at the first profile")
    }

    @Test(arguments: bothWires)
    func aCodeNobodyUsesExpiresWithN130(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        let code = try await Self.requestCode(rig)
        #expect(try await rig.run(.advanceClock(600)) == [])
        #expect(
            try await rig.run(.advanceClock(1_200)) == [
                "status(N130,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["details"]?.stringValue == code)
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func backingOutStopsPollingWithN005(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        try await Self.requestCode(rig, authorizing: "news")
        #expect(
            try await rig.run(.setSelectedProvider(nil)) == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aNewCodeReplacesTheOldOneWhichIsNeverPolledAgain(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        let old = try await Self.requestCode(rig)
        #expect(try await rig.run(.advanceClock(5)) == [])
        #expect(Self.polls(rig, old) == 1)
        let new = try await Self.requestCode(rig)
        #expect(new != old)
        var newPolls = 0
        for _ in 0..<6 {
            #expect(try await rig.run(.advanceClock(5)) == [])
            #expect(Self.polls(rig, old) == 0)
            newPolls += Self.polls(rig, new)
        }
        #expect(newPolls == 6)
        // Signing in with the old code does not complete anything; the new one does.
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(Self.polls(rig, old) == 0)
    }

    @Test(arguments: bothWires)
    func logoutEndsTheWaitAndItsAuthorizationOnce(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        try await Self.requestCode(rig, authorizing: "news")
        #expect(
            try await rig.run(.logout) == [
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))", notAuthenticated,
            ])
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func setRequestorEndsTheWaitWithOneTerminalCallback(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        try await Self.requestCode(rig, authorizing: "news")
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(N500,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))", "setRequestorComplete(1)",
            ])
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aSessionThatCannotBeCreatedIsREG500(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        #expect(try await rig.run(.getAuthorization("news")) == [regularDialog])
        rig.sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .createSession)
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(REG500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("503") == true)
        rig.sandbox.inject(SandboxFault(dropConnection: true, remaining: 1), into: .createSession)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(REG500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
    }

    @Test(arguments: bothWires)
    func getAuthorizationContinuesOnceTheSecondScreenSignedIn(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        try await Self.requestCode(rig, authorizing: "news")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated, "sendTrackingData(1,true,NotBoarded)",
                "setToken(news)",
            ])
    }

    @Test(arguments: bothWires)
    func aFailedPollIsRetriedAtTheNextInterval(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        let code = try await Self.requestCode(rig)
        rig.sandbox.inject(SandboxFault(dropConnection: true, remaining: 1), into: .profileForCode)
        #expect(try await rig.run(.advanceClock(5)) == [])
        rig.sandbox.inject(SandboxFault(status: 500, remaining: 1), into: .profileForCode)
        #expect(try await rig.run(.advanceClock(5)) == [])
        #expect(try await rig.run(.advanceClock(5)) == [])
        #expect(Self.polls(rig, code) == 1)
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    @Test(arguments: bothWires)
    func aRelaunchDuringAPendingCodeGetsAWorkingNewCode(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        let old = try await Self.requestCode(rig)
        // The app released the first AccessEnabler while its code was polled: that sign-in
        // ends (its delegate, still alive here, hears it once).
        #expect(
            try await rig.run(.restart) == [
                "status(N500,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        let new = try await Self.requestCode(rig)
        #expect(new != old)
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(Self.polls(rig, old) == 0)
        #expect(Self.polls(rig, new) == 1)
    }

    /// A relaunch whose AccessEnabler something else still holds for a moment (a bounded
    /// wait the rig gave up on, still waiting for the disk): the released sign-in's end
    /// comes with the relaunch once it is let go, not with the next step.
    @Test func aRelaunchWaitsForTheReleaseOfAnAccessEnablerHeldElsewhere() async throws {
        let rig = try await Self.rig(.inProcess)
        try await Self.requestCode(rig)
        var held: AccessEnabler? = rig.accessEnabler
        let restart = Task { try await rig.run(.restart) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(held != nil)
        held = nil
        #expect(
            try await restart.value == [
                "status(N500,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
    }

    @Test(arguments: bothWires)
    func pollsAreNeverCloserThanTheFloorOfThreeSeconds(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire) { $0.secondScreenPollInterval = 1 }
        let code = try await Self.requestCode(rig)
        var pollTimes: [TimeInterval] = []
        for second in 1...12 {
            #expect(try await rig.run(.advanceClock(1)) == [])
            if Self.polls(rig, code) > 0 { pollTimes.append(TimeInterval(second)) }
        }
        #expect(pollTimes == [3, 6, 9, 12])
    }

    @Test(arguments: bothWires)
    func aGetAuthorizationWhileACodeIsPolledIsRefusedAndTheCodeGoesOn(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        try await Self.requestCode(rig)
        #expect(
            try await rig.run(.getAuthorization("news")) == [
                "status(N500,error)", "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("second screen") == true)
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    @Test(arguments: bothWires)
    func thisDeviceStillOpensTheLoginPageOnTvOS(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire) { $0.loginScreen = .thisDevice }
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
    }

    @Test(arguments: bothWires)
    func directAnswersNeedNoCode(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.rig(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("TempPass")) == [
                "sendTrackingData(2,TempPass)", "status(N011,info)", "sendTrackingData(0,true,TempPass)", authenticated,
            ])
    }
}
