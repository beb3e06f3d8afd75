import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// An answer whose enhanced error says `retry` is asked again after 1 s, then after 2 s
/// (each ± 20 % jitter), and never a third time — a whole request refused that way, and a
/// decision inside a `200`. The waits run on the configuration's clock: the rig moves it.
@Suite struct RetryBackOffTests {
    static let authorize = "/api/v2/REF30/decisions/authorize/NotBoarded"
    static let preauthorize = "/api/v2/REF30/decisions/preauthorize/NotBoarded"

    /// The gaps between consecutive sends.
    private func gaps(_ times: [Date]) -> [TimeInterval] {
        zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }
    }

    private func expectTheSchedule(_ gaps: [TimeInterval], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(gaps.count == 2, "two retries, never a third: \(gaps)", sourceLocation: sourceLocation)
        guard gaps.count == 2 else { return }
        #expect(
            gaps[0] >= 0.8 && gaps[0] <= 1.2, "the first retry waits 1 s ± 20 %: \(gaps[0])",
            sourceLocation: sourceLocation)
        #expect(
            gaps[1] >= 1.6 && gaps[1] <= 2.4, "the second waits 2 s ± 20 %: \(gaps[1])",
            sourceLocation: sourceLocation)
    }

    private func signedIn(_ wire: ScenarioRunner.Wire) async throws -> (Rig, ThrottlingTests.SendTimes) {
        let (rig, times) = try ThrottlingTests.rig(wire)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        return (rig, times)
    }

    @Test(arguments: bothWires)
    func aRequestRefusedWithRetryIsAskedAgainAfterOneThenTwoSeconds(wire: ScenarioRunner.Wire) async throws {
        let (rig, times) = try await signedIn(wire)
        // 403 network_received_error (action retry), every time.
        rig.sandbox.inject(SandboxFault(status: 403), into: .authorize)
        #expect(try await rig.run(.checkAuthorization("news")).first == "status(Z120,error)")
        expectTheSchedule(gaps(times.times(of: Self.authorize)))
    }

    @Test(arguments: bothWires)
    func aDecisionThatSaysRetryIsAskedAgainAfterOneThenTwoSeconds(wire: ScenarioRunner.Wire) async throws {
        let (rig, times) = try await signedIn(wire)
        rig.sandbox.inject(SandboxFault(retryableDecisionErrors: ["news"]), into: .authorize)
        #expect(try await rig.run(.checkAuthorization("news")).first == "status(Z120,error)")
        expectTheSchedule(gaps(times.times(of: Self.authorize)))

        rig.sandbox.inject(SandboxFault(retryableDecisionErrors: ["news"]), into: .preauthorize)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports"], cache: false)) == [
                "preauthorizedResources(sports)"
            ])
        expectTheSchedule(gaps(times.times(of: Self.preauthorize)))
    }
}
