import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A TV waiting for a second-screen sign-in never waits in silence: the code's status says
/// when it expires, polls that keep failing are reported (REG404), and the first answer after
/// that says the wait is checked again (REG200).
@Suite struct SecondScreenWaitTests {
    /// Every status the SDK reported, as the diagnostics hook saw it.
    final class Statuses: @unchecked Sendable {
        private let lock = NSLock()
        private var statuses: [AdvancedStatus] = []
        func record(_ diagnostic: Diagnostic) {
            if case .status(let status) = diagnostic { lock.withLock { statuses.append(status) } }
        }
        var all: [AdvancedStatus] { lock.withLock { statuses } }
    }

    static func rig(_ wire: ScenarioRunner.Wire, statuses: Statuses) async throws -> Rig {
        let rig = try Rig(
            wire, configuration: { $0.diagnostics = { statuses.record($0) } },
            scenario: { scenario in
                scenario.platform = .tvOS
                scenario.loginScreen = nil
            })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(REGCODE,info)",
            ])
        return rig
    }

    @Test(arguments: bothWires)
    func theCodesStatusSaysWhenItExpires(wire: ScenarioRunner.Wire) async throws {
        let statuses = Statuses()
        let rig = try await Self.rig(wire, statuses: statuses)
        let regcode = try #require(statuses.all.last { $0.errorId == .regcode })
        // The sandbox's sessions last 30 minutes from their opening, on the scenario clock.
        let expected = rig.sandbox.clock.now.addingTimeInterval(1_800)
        let expiresAt = try #require(regcode.expiresAt)
        #expect(abs(expiresAt.timeIntervalSince(expected)) < 0.001)
        let legacy = try #require(regcode.dictionary["expiresAt"] as? String)
        #expect(legacy == String(Int64((expected.timeIntervalSince1970 * 1000).rounded())))
        #expect(regcode.dictionary["details"] as? String == regcode.details)
        // Other statuses carry no expiry.
        #expect(try await rig.run(.getAuthorization("news")).first == "status(N500,error)")
        #expect(statuses.all.last?.expiresAt == nil && statuses.all.last?.dictionary["expiresAt"] == nil)
    }

    @Test(arguments: bothWires)
    func pollsFailingFor30SecondsAreReportedAndTheFirstAnswerClearsIt(wire: ScenarioRunner.Wire) async throws {
        let statuses = Statuses()
        let rig = try await Self.rig(wire, statuses: statuses)
        let code = try #require(statuses.all.last?.details)
        // The network goes: every poll from now on fails (until the faults are cleared: a
        // dropped connection may be retried at once by the HTTP client, so no count).
        rig.sandbox.inject(SandboxFault(dropConnection: true), into: .profileForCode)
        for second in stride(from: 5, through: 25, by: 5) {
            #expect(try await rig.run(.advanceClock(5)) == [], "no word before 30 s (at \(second) s)")
        }
        #expect(try await rig.run(.advanceClock(5)) == ["status(REG404,warning)"])
        let warning = try #require(statuses.all.last)
        #expect(warning.details == code)
        #expect(warning.message?.contains("cannot reach Adobe Pass") == true)
        #expect(warning.expiresAt != nil)
        // Said once, not at every failed poll.
        #expect(try await rig.run(.advanceClock(5)) == [])
        // The network is back: the first answer says so, and the wait goes on.
        rig.sandbox.clearFaults()
        #expect(try await rig.run(.advanceClock(5)) == ["status(REG200,info)"])
        #expect(statuses.all.last?.details == code)
        #expect(try await rig.run(.advanceClock(5)) == [])
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    @Test(arguments: bothWires)
    func aFewFailedPollsSayNothing(wire: ScenarioRunner.Wire) async throws {
        let statuses = Statuses()
        let rig = try await Self.rig(wire, statuses: statuses)
        rig.sandbox.inject(SandboxFault(status: 500, remaining: 3), into: .profileForCode)
        for _ in 0..<4 {
            #expect(try await rig.run(.advanceClock(5)) == [])
        }
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(!statuses.all.contains { $0.errorId == .reg404 || $0.errorId == .reg200 })
    }
}
