import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// A wall-clock jump while the app runs — the date set back a day, or a time service jumping
/// a year ahead — ends no valid session: the SDK judges expiries with Adobe Pass's time as
/// the last answer gave it, advanced by elapsed monotonic time. The next answer measures the
/// new difference (CFG100 once) and sign-ins keep working; real time still ends a session.
@Suite struct WallClockJumpTests {
    private func signedIn(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try Rig(wire) { $0.loginScreen = .thisDevice }
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        return rig
    }

    @Test(arguments: bothWires, [-86_400.0, 365 * 86_400.0])
    func aWallClockJumpEndsNoValidSession(wire: ScenarioRunner.Wire, jump: TimeInterval) async throws {
        let rig = try await signedIn(wire)
        #expect(try await rig.run(.jumpDeviceClock(jump)).isEmpty)
        // Local answers: no request, judged with Adobe's time.
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(rig.restCalls.isEmpty)
        #expect(rig.accessEnabler.profiles.map(\.mvpd) == ["NotBoarded"])
        // Requests go on; the next answer measures the new difference, which the next
        // setRequestor reports once (CFG100), and the session goes on.
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(CFG100,warning)", "setRequestorComplete(1)",
            ])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    @Test(arguments: bothWires)
    func realTimeStillEndsTheSession(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedIn(wire)
        try await rig.run(.jumpDeviceClock(-86_400))
        // A day and a minute of real time: the profile (24 h) is over, whatever the wall says.
        try await rig.run(.advanceClock(86_400 + 60))
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }
}
