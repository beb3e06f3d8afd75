import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// A rail of titles preauthorized in one call: requests of at most 5 resources by default
/// (Adobe's FAQ: "usually up to 5"), a `too_many_resources` answer split in halves (never the
/// same list twice, at most ⌈log2 n⌉ refusals), and every answer merged into the call's one
/// callback.
@Suite struct PreauthorizationBatchTests {
    /// Twelve titles; alice's subscription includes `news` and `sports`.
    static let rail = ["t1", "news", "t3", "t4", "t5", "t6", "sports", "t8", "t9", "t10", "t11", "t12"]
    static let preauthorize = "POST /api/v2/REF30/decisions/preauthorize/NotBoarded"

    private func statuses(_ rig: Rig) -> [Int] {
        rig.sandbox.requestLog.filter { $0.path == "/api/v2/REF30/decisions/preauthorize/NotBoarded" }.map(\.status)
    }

    @Test(arguments: bothWires)
    func twelveTitlesArePreauthorizedInOneCallByDefault(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(
            try await rig.run(.checkPreauthorizedResources(Self.rail, cache: false)) == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.restCalls == [Self.preauthorize, Self.preauthorize, Self.preauthorize], "5 + 5 + 2")
        #expect(statuses(rig) == [200, 200, 200])
    }

    @Test(arguments: bothWires)
    func aTooManyResourcesAnswerSplitsTheRequestInHalves(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        try await rig.run(.world(mvpd: "NotBoarded", set: ["preauthorizationResourceLimit": .number(2)]))
        #expect(
            try await rig.run(.checkPreauthorizedResources(Self.rail, cache: false)) == [
                "preauthorizedResources(news,sports)"
            ])
        // 5 refused, then 3 refused, then six requests of 2: two refusals for 5 (⌈log2 5⌉ = 3).
        #expect(statuses(rig) == [403, 403, 200, 200, 200, 200, 200, 200])
        #expect(rig.restCalls.count == 8)
        // The size Adobe Pass taught is kept: the next rail goes out in requests of 2 at once.
        #expect(
            try await rig.run(.checkPreauthorizedResources(Self.rail, cache: false)) == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.restCalls.count == 6)
        #expect(statuses(rig).suffix(6) == [200, 200, 200, 200, 200, 200])
    }

    @Test(arguments: bothWires)
    func theAsyncAPIAndThePreauthorizeAPIMergeTheirRequestsToo(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        try await rig.run(.world(mvpd: "NotBoarded", set: ["preauthorizationResourceLimit": .number(3)]))
        #expect(try await rig.accessEnabler.preauthorizedResources(Self.rail, cache: false) == ["news", "sports"])
        let response = try await rig.accessEnabler.preauthorize(
            PreauthorizeRequest.Builder().setResources(resources: Self.rail).build())
        #expect(response.decisions.map(\.id) == Self.rail)
        #expect(response.decisions.filter(\.authorized).map(\.id) == ["news", "sports"])
    }

    @Test(arguments: bothWires)
    func aRefusedPairIsAskedOneByOne(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        try await rig.run(.world(mvpd: "NotBoarded", set: ["preauthorizationResourceLimit": .number(1)]))
        // Two titles: one refused request of 2, then one of each; nothing left to split.
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports"], cache: false)) == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(statuses(rig) == [403, 200, 200])
    }
}
