import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A back-off never holds a call longer than its request timeout: a call whose request would
/// have to wait longer ends at once with its throttled status and the time to retry in its
/// message, and a call that needs no request is answered at once. Timed on the manual
/// clock: the rig moves it through every back-off, so how far it moved is how long the SDK
/// made the app wait.
@Suite struct BackOffBoundTests {
    static let authorize = "/api/v2/REF30/decisions/authorize/NotBoarded"

    /// A signed-in rig whose answers `rewriter` can change, and whose request timeout is 30 s.
    static func rig(_ wire: ScenarioRunner.Wire, _ rewriter: AnswerRewriter) async throws -> Rig {
        let rig = try Rig(
            wire,
            configuration: { settings in
                settings.transport = rewriter.over(settings.transport)
                settings.requestTimeout = 30
            },
            scenario: { $0.platform = .tvOS })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: true)) == ["preauthorizedResources(news)"])
        return rig
    }

    static let throttledNews = [
        "status(Z100,error)", "sendTrackingData(1,false,NotBoarded)",
        "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
    ]

    @Test(arguments: bothWires)
    func aDayLongRetryAfterEndsLaterRequestsAtOnceAndHoldsNoCallThatNeedsNone(wire: ScenarioRunner.Wire) async throws {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        rewriter.rewrite(Self.authorize, times: 1) { $0.throttled(retryAfter: "86400") }
        #expect(try await rig.run(.checkAuthorization("news")) == Self.throttledNews)

        // Later calls: network ones end at once, throttled, saying when to retry; the ones
        // queued behind them that need no request are answered with them.
        let before = rig.sandbox.clock.now
        let signatures = await rig.call { accessEnabler in
            accessEnabler.checkAuthorization("news")
            accessEnabler.checkAuthentication()
            accessEnabler.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION])
            accessEnabler.checkPreauthorizedResources(["news"], cache: true)
            accessEnabler.setRequestor("REF30")
            accessEnabler.checkAuthentication()
        }
        #expect(rig.sandbox.clock.now.timeIntervalSince(before) == 0, "nothing waited for the back-off")
        #expect(
            signatures
                == Self.throttledNews + [
                    "sendTrackingData(0,true,NotBoarded)", authenticated,
                    "setMetadataStatus(0,false,\"\(RegularMetadataTests.start + 86_400_000)\")",
                    "preauthorizedResources(news)", "status(CFG429,error)", "setRequestorComplete(0)",
                    "status(CFG429,error)", notAuthenticated,
                ])
        let messages = rig.lines("status").compactMap { $0["message"]?.stringValue }
        #expect(messages.allSatisfy { $0.contains("300 s") }, "\(messages)")
        #expect(rig.restCalls.isEmpty, "no request was sent during the back-off")

        // Once the back-off is over, requests go out again.
        #expect(try await rig.run(.advanceClock(300)) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }

    @Test(arguments: bothWires)
    func aBackOffWithinTheRequestTimeoutIsWaitedOut(wire: ScenarioRunner.Wire) async throws {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        rewriter.rewrite(Self.authorize, times: 1) { $0.throttled(retryAfter: "20") }
        #expect(try await rig.run(.checkAuthorization("news")) == Self.throttledNews)
        let before = rig.sandbox.clock.now
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(rig.sandbox.clock.now.timeIntervalSince(before) == 20, "the request waited the 20 s Retry-After asked")
    }

    @Test(arguments: bothWires)
    func aBackOffLongerThanTheRemainingWaitEndsWithTheTimeLeft(wire: ScenarioRunner.Wire) async throws {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        rewriter.rewrite(Self.authorize, times: 1) { $0.throttled(retryAfter: "100") }
        #expect(try await rig.run(.checkAuthorization("news")) == Self.throttledNews)
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(try await rig.run(.checkAuthorization("news")) == Self.throttledNews)
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("40 s") == true)
        #expect(try await rig.run(.advanceClock(15)) == [])
        let before = rig.sandbox.clock.now
        #expect(
            try await rig.run(.checkAuthorization("news")).last == "setToken(news)", "25 s left: within the timeout")
        #expect(rig.sandbox.clock.now.timeIntervalSince(before) == 25)
    }
}
