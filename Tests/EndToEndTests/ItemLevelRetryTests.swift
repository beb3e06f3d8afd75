import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Errors inside a 200 answer follow the same table as a whole request's (`ServerAdvice`): a
/// decision whose enhanced error says `action: retry` is asked again for its resource (with
/// the other retryable ones of its answer), at most twice in all, after the back-off's wait;
/// only if it still fails does it end as any denial does. The checklist: "limits retries to
/// a reasonable number (i.e., 2-3)", never an endless loop.
@Suite struct ItemLevelRetryTests {
    static let authorize = "POST /api/v2/REF30/decisions/authorize/NotBoarded"
    static let preauthorize = "POST /api/v2/REF30/decisions/preauthorize/NotBoarded"

    /// A decisions answer whose item for `resources` is `network_received_error`, `times` times.
    static func retryable(_ resources: [String], times: Int) -> SandboxFault {
        SandboxFault(remaining: times, retryableDecisionErrors: resources)
    }

    @Test(arguments: bothWires)
    func anAuthorizationWhoseDecisionAsksForARetryIsAskedAgainAndSucceeds(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(Self.retryable(["news"], times: 1), into: .authorize)
        #expect(
            try await rig.run(.checkAuthorization("news")) == ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"])
        #expect(rig.restCalls == [Self.authorize, Self.authorize], "asked again once")
    }

    @Test(arguments: bothWires)
    func aDecisionThatStillAsksForARetryAfterTwoMoreAttemptsEndsAsADenial(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(Self.retryable(["news"], times: 10), into: .authorize)
        let ended = try await rig.run(.checkAuthorization("news"))
        #expect(ended.count == 3)
        #expect(ended.last == "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))")
        #expect(ended.first?.hasPrefix("status(Z") == true, "\(ended)")
        // The MVPD's partner failed: Adobe Pass's own words, as for any denial.
        #expect(
            rig.lines("status").first?["message"]?.stringValue?.contains("Retrying the request might solve the issue")
                == true)
        #expect(
            rig.restCalls == [Self.authorize, Self.authorize, Self.authorize], "the first request and two more: no loop"
        )
    }

    @Test(arguments: bothWires)
    func onlyTheResourcesWhoseDecisionsAskForItAreAskedAgainTogether(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(Self.retryable(["news", "sports"], times: 1), into: .authorize)
        let signatures = await rig.callInOneBurst { accessEnabler in
            accessEnabler.checkAuthorization("news")
            accessEnabler.checkAuthorization("sports")
            accessEnabler.checkAuthorization("movies")
        }
        #expect(
            signatures == [
                "sendTrackingData(1,true,NotBoarded)", "setToken(news)", "sendTrackingData(1,true,NotBoarded)",
                "setToken(sports)",
                "status(Z100,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(movies,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        // One request for the three, then one for the two whose decisions asked for it.
        #expect(rig.restCalls == [Self.authorize, Self.authorize])
    }

    @Test(arguments: bothWires)
    func aPreauthorizationDecisionThatAsksForARetryIsAskedAgainAndOnlyTheFinalAnswerCounts(wire: ScenarioRunner.Wire)
        async throws
    {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(Self.retryable(["news"], times: 1), into: .preauthorize)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports"], cache: true)) == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.restCalls == [Self.preauthorize, Self.preauthorize])
        // Cached as the final answers: asked again, nothing is sent.
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports"], cache: true)) == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.restCalls.isEmpty)

        rig.sandbox.inject(Self.retryable(["sports"], times: 10), into: .preauthorize)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports"], cache: false)) == [
                "preauthorizedResources(news)"
            ])
        #expect(rig.restCalls == [Self.preauthorize, Self.preauthorize, Self.preauthorize], "at most twice more")
    }
}
