import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// checkAuthorization, getAuthorization and checkPreauthorizedResources with no partner
/// framework: tokens, denials and every authorization status.
@Suite struct RegularAuthorizationTests {
    static let authorizeNews = "POST /api/v2/REF30/decisions/authorize/NotBoarded"
    static let preauthorize = "POST /api/v2/REF30/decisions/preauthorize/NotBoarded"

    // MARK: Not authenticated

    @Test(arguments: bothWires)
    func checkAuthorizationBeforeAuthenticationFailsWithoutANetworkCall(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        for call: (AccessEnabler) -> Void in [
            { $0.checkAuthorization("news") }, { $0.checkAuthorization("news", withData: ["k": "v"]) },
        ] {
            #expect(
                await rig.call(call) == [
                    "status(N000,info)", "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
                ])
            #expect(rig.restCalls.isEmpty)
        }
    }

    @Test(arguments: bothWires)
    func getAuthorizationAuthenticatesFirstThenAuthorizes(wire: ScenarioRunner.Wire) async throws {
        for withData in [false, true] {
            let rig = try await Rig.regular(wire)
            let dialog = await rig.call {
                withData ? $0.getAuthorization("news", withData: ["k": "v"]) : $0.getAuthorization("news")
            }
            #expect(dialog == [regularDialog])
            #expect(
                try await rig.run(.setSelectedProvider("NotBoarded")) == [
                    "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
                ])
            #expect(
                try await rig.run(.login(username: "alice", password: "alice123")) == [
                    "sendTrackingData(0,true,NotBoarded)", authenticated, "sendTrackingData(1,true,NotBoarded)",
                    "setToken(news)",
                ])
            #expect(rig.restCalls.count == 2)
            #expect(rig.restCalls.last == Self.authorizeNews)
            let token = try #require(rig.lines("setToken").first?["token"]?.stringValue)
            #expect(rig.sandbox.verifyMediaToken(token))
        }
    }

    @Test(arguments: bothWires)
    func getAuthorizationBackedOutEndsBothFlows(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthorization("news")) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider(nil)) == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func getAuthorizationWhoseLoginFailsEndsInTokenRequestFailed(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthorization("news")) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        // The redirect comes before the login finished: the SDK polls for the profile…
        #expect(try await rig.run(.handleExternalURL("adobepass://ios.app")) == [])
        // …until the session's 30 minutes are over.
        #expect(
            try await rig.run(.advanceClock(1_801)) == [
                "status(N130,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func authorizationWhileALoginIsPendingEndsAtOnce(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "navigateToUrl(authenticate)")
        #expect(
            try await rig.run(.getAuthorization("news")) == [
                "status(N500,error)", "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(N000,info)", "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.restCalls.isEmpty)
        // The pending login is untouched and no authorization rides on it.
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    // MARK: Authenticated

    @Test(arguments: bothWires)
    func anEntitledResourceGetsAMediaToken(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let calls: [(AccessEnabler) -> Void] = [
            { $0.checkAuthorization("news") }, { $0.checkAuthorization("news", withData: ["k": "v"]) },
            { $0.getAuthorization("news") }, { $0.getAuthorization("news", withData: ["k": 2]) },
        ]
        for call in calls {
            #expect(await rig.call(call) == ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"])
            #expect(rig.restCalls == [Self.authorizeNews])
            let token = try #require(rig.lines("setToken").first?["token"]?.stringValue)
            #expect(rig.sandbox.verifyMediaToken(token))
        }
        let tracking = try #require(rig.lines("sendTrackingData").first?["data"])
        // success, MVPD, md5(userID), cached, error, details, device type, client type, OS.
        #expect(
            tracking == strings("true", "NotBoarded", md5OfAliceID, "false", "", "", "unknown", "ios", "Linux (tvOS)"))
    }

    @Test(arguments: bothWires)
    func aDenialIsZ100AndUserNotAuthorized(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, username: "bob")
        #expect(
            try await rig.run(.checkAuthorization("sports")) == [
                "status(Z100,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(sports,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        let failure = try #require(rig.lines("tokenRequestFailed").first)
        #expect(failure["errorDescription"]?.stringValue?.isEmpty == false, "the MVPD's message is passed on")
        let status = try #require(rig.lines("status").first)
        #expect(status["details"]?.stringValue?.contains("sports") == true)
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated],
            "a denial keeps the session")
    }

    @Test(arguments: bothWires)
    func aMalformedResourceIsZ130(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let resource = "<rss version=\"2.0\"><channel>"
        #expect(
            try await rig.run(.checkAuthorization(resource)) == [
                "status(Z130,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(\(resource),\(USER_NOT_AUTHORIZED_ERROR))",
            ])
    }

    @Test(arguments: bothWires)
    func aWellFormedMRSSResourceIsAuthorizedByItsChannelTitle(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let resource = #"<rss version="2.0"><channel><title>news</title></channel></rss>"#
        #expect(
            try await rig.run(.checkAuthorization(resource)) == [
                "sendTrackingData(1,true,NotBoarded)", "setToken(\(resource))",
            ])
    }

    @Test(arguments: bothWires)
    func tempPassIsAuthorizedWithoutAnMVPDSubscription(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("TempPass")).last == authenticated)
        // Z011 (info) tells the app the grant came through TempPass, before the token.
        #expect(
            try await rig.run(.checkAuthorization("anything")) == [
                "status(Z011,info)", "sendTrackingData(1,true,TempPass)", "setToken(anything)",
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/authorize/TempPass"])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "anything")) == [
                "setMetadataStatus(1,false,\"\(RegularMetadataTests.start + 300_000)\")"
            ],
            "TempPass media tokens last its 5-minute authorization TTL")
    }

    @Test(arguments: bothWires)
    func aDegradedMVPDAuthorizesWithZ010(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("Degraded")).last == authenticated)
        #expect(
            try await rig.run(.checkAuthorization("anything")) == [
                "status(Z010,warning)", "sendTrackingData(1,true,Degraded)", "setToken(anything)",
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/authorize/Degraded"])
    }

    @Test(arguments: bothWires)
    func anMVPDThatCannotBeReachedIsZ120(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        // The sandbox answers an injected 403 with `network_received_error`: Adobe Pass could not read the MVPD's answer.
        // Its action is `retry`: the SDK asks twice more, so the fault stays until the failure is in.
        rig.sandbox.inject(SandboxFault(status: 403), into: .authorize)
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(Z120,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        rig.sandbox.clearFaults()
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(
            try await rig.run(.checkAuthorization("news")) == ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"])
    }

    @Test(arguments: bothWires)
    func serverAndWireFailuresAreZ500AndKeepTheSession(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        // (A dropped connection is in RegularFaultTests, with a short request timeout: over
        // loopback, libcurl retries a POST whose kept-alive connection died and waits out the timeout.)
        // The sandbox's 5xx errors carry the `retry` action: each fault stays through the retry.
        let faults = [SandboxFault(status: 500), SandboxFault(status: 503), SandboxFault(malformedBody: true)]
        for fault in faults {
            rig.sandbox.inject(fault, into: .authorize)
            #expect(
                try await rig.run(.checkAuthorization("news")) == [
                    "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
                    "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
                ], "\(fault)")
            rig.sandbox.clearFaults()
            #expect(
                try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated],
                "\(fault)")
        }
        #expect(
            try await rig.run(.checkAuthorization("news")) == ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"])
    }

    // MARK: checkPreauthorizedResources

    @Test(arguments: bothWires)
    func preauthorizationIsCachedUnlessAskedNotTo(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports", "movies"], cache: true)) == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.restCalls == [Self.preauthorize])
        #expect(
            try await rig.run(.checkPreauthorizedResources(["sports", "movies", "news"], cache: true)) == [
                "preauthorizedResources(sports,news)"
            ])
        #expect(rig.restCalls.isEmpty, "a cache hit makes no round trip")
        #expect(await rig.call { $0.checkPreauthorizedResources(["news"]) } == ["preauthorizedResources(news)"])
        #expect(rig.restCalls.isEmpty)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "movies"], cache: false)) == [
                "preauthorizedResources(news)"
            ])
        #expect(rig.restCalls == [Self.preauthorize], "cache: false always asks")
        // Only what the cache lacks is asked for.
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "weather"], cache: true)) == [
                "preauthorizedResources(news)"
            ])
        #expect(rig.restCalls == [Self.preauthorize])
    }

    @Test(arguments: bothWires)
    func moreResourcesThanTheLimitAreAskedInSeveralRequestsNotP100(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let many = ["news", "sports", "r3", "r4", "r5", "r6"]
        // Requests of at most 5 by default: 5 + 1, the answers merged into one callback.
        let merged = ["preauthorizedResources(news,sports)"]
        #expect(try await rig.run(.checkPreauthorizedResources(many, cache: false)) == merged)
        #expect(rig.restCalls == [Self.preauthorize, Self.preauthorize])
        // An integration with a smaller limit refuses (too_many_resources): the request is
        // split in halves, with no configuration asked, and the session stays.
        try await rig.run(.world(mvpd: "NotBoarded", set: ["preauthorizationResourceLimit": .number(2)]))
        #expect(try await rig.run(.checkPreauthorizedResources(many, cache: false)) == merged)
        #expect(rig.restCalls == Array(repeating: Self.preauthorize, count: 5), "5 refused, 3 refused, then 2 + 2 + 2")
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    @Test(arguments: bothWires)
    func preauthorizationBeforeAuthenticationIsEmpty(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: true)) == [
                "status(N000,info)", "preauthorizedResources()",
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aFailedPreauthorizationKeepsTheSession(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        for fault in [SandboxFault(status: 503), SandboxFault(malformedBody: true)] {
            rig.sandbox.inject(fault, into: .preauthorize)
            #expect(
                try await rig.run(.checkPreauthorizedResources(["news"], cache: false)) == [
                    "status(P100,error)", "preauthorizedResources()",
                ], "\(fault)")
            rig.sandbox.clearFaults()
            #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        }
    }
}
