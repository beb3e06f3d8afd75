import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Numbers from outside never stop the process: a `Retry-After` of `1e19` seconds, a
/// `notAfter` of `1e19`, `1e300` or `-1e19` milliseconds in a profile, a media token or a
/// second screen's answer, one already in storage, a poll interval that is not a number.
/// A timestamp outside 1970 through the year 9999 makes its answer malformed (what was
/// stored stays); a `Retry-After` is read as 5 minutes at most.
@Suite struct NumbersFromOutsideTests {
    /// Timestamps no answer may carry: beyond an `Int64` of milliseconds, beyond a `Date`'s
    /// arithmetic, before 1970.
    static let impossibleTimestamps = [
        "1e19", "1e300", "-1e19", "99999999999999999999999", "\"99999999999999999999999\"", "-1",
    ]

    /// A rig whose answers `rewriter` can change, with REF30 set.
    static func rig(
        _ wire: ScenarioRunner.Wire, _ rewriter: AnswerRewriter,
        screen: AccessEnablerConfiguration.LoginScreen = .thisDevice,
        configuration: (@Sendable (inout AccessEnablerConfiguration) -> Void)? = nil
    ) async throws -> Rig {
        let rig = try Rig(
            wire,
            configuration: { settings in
                settings.transport = rewriter.over(settings.transport)
                configuration?(&settings)
            },
            scenario: { scenario in
                scenario.platform = .tvOS
                scenario.loginScreen = screen
            })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        return rig
    }

    /// The sign-in's end as `getMetadata` gives it: a day after the sandbox clock's start.
    static let signInEnds = "setMetadataStatus(0,false,\"\(RegularMetadataTests.start + 86_400_000)\")"

    // MARK: Retry-After

    @Test(arguments: bothWires)
    func aRetryAfterBeyondEveryIntegerOnAnAuthorizationIsFiveMinutes(wire: ScenarioRunner.Wire) async throws {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        try await rig.logIn()
        rewriter.rewrite("/decisions/authorize/NotBoarded", times: 1) { $0.throttled(retryAfter: "1e19") }
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(Z100,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("300 s") == true)
    }

    @Test(arguments: bothWires)
    func aRetryAfterBeyondEveryIntegerOnAPreauthorizationIsFiveMinutes(wire: ScenarioRunner.Wire) async throws {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        try await rig.logIn()
        rewriter.rewrite("/decisions/preauthorize/NotBoarded", times: 2) { $0.throttled(retryAfter: "1e19") }
        #expect(try await rig.run(.preauthorize(resources: ["news"], disable: ["LOCAL_CACHE"])) == ["preauthorize"])
        let line = try #require(rig.lines("preauthorize").first)
        #expect(line["status"]?["status"] == .number(429))
        #expect(line["status"]?["message"]?.stringValue?.contains("Retry after 300 s") == true)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: false)) == [
                "status(P100,error)", "preauthorizedResources()",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("300 s") == true)
    }

    // MARK: Timestamps in answers

    @Test(arguments: bothWires, impossibleTimestamps)
    func aProfilesAnswerWithAnImpossibleTimestampKeepsTheStoredSignIn(wire: ScenarioRunner.Wire, timestamp: String)
        async throws
    {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        try await rig.logIn()
        rewriter.rewrite("/api/v2/REF30/profiles", method: "GET") { $0.settingEvery("notAfter", to: timestamp) }
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [Self.signInEnds])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    @Test(arguments: bothWires, impossibleTimestamps)
    func aTempPassProfileWithAnImpossibleTimestampIsAFailedSignIn(wire: ScenarioRunner.Wire, timestamp: String)
        async throws
    {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        // A TempPass session answers `authorize`: its profile comes from `GET profiles/{mvpd}`.
        rewriter.rewrite("/api/v2/REF30/profiles/TempPass", method: "GET", times: 1) {
            $0.settingEvery("notAfter", to: timestamp)
        }
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("TempPass")) == [
                "sendTrackingData(2,TempPass)", "status(N500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("notAfter") == true)
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                "setMetadataStatus(0,false,null)"
            ])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }

    @Test(arguments: bothWires, impossibleTimestamps)
    func aProfileAfterTheLoginPageWithAnImpossibleTimestampIsAFailedSignIn(wire: ScenarioRunner.Wire, timestamp: String)
        async throws
    {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        // After the redirect, the profile is asked with the session's code; the login is
        // over, so an answer that cannot be read ends the sign-in.
        rewriter.rewrite("/profiles/code/", method: "GET", times: 1) { $0.settingEvery("notAfter", to: timestamp) }
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "navigateToUrl(authenticate)")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "status(N500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("notAfter") == true)
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                "setMetadataStatus(0,false,null)"
            ])
    }

    @Test(arguments: bothWires, impossibleTimestamps)
    func aMediaTokenWithAnImpossibleTimestampIsAFailedAuthorization(wire: ScenarioRunner.Wire, timestamp: String)
        async throws
    {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter)
        try await rig.logIn()
        rewriter.rewrite("/decisions/authorize/NotBoarded", times: 1) { $0.settingEvery("notAfter", to: timestamp) }
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "news")) == [
                "setMetadataStatus(1,false,null)"
            ])
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "news")) == [
                "setMetadataStatus(1,false,null)"
            ])
        #expect(
            try await rig.run(.checkAuthorization("news")).last == "setToken(news)", "the next answer is read as usual")
    }

    @Test(arguments: bothWires, impossibleTimestamps)
    func aSecondScreenAnswerWithAnImpossibleTimestampIsPolledAgain(wire: ScenarioRunner.Wire, timestamp: String)
        async throws
    {
        let rewriter = AnswerRewriter()
        let rig = try await Self.rig(wire, rewriter, screen: .secondScreen)
        let code = try await SecondScreenTests.requestCode(rig)
        rewriter.rewrite("/profiles/code/\(code)", times: 1) { $0.settingEvery("notAfter", to: timestamp) }
        // The poll after the sign-in on the phone brings an answer the SDK cannot read; the
        // next one, an interval later, is read.
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(SecondScreenTests.polls(rig, code) == 2)
        #expect(try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [Self.signInEnds])
    }

    // MARK: Configuration

    @Test(arguments: [Double.infinity, .nan, 1e300, -5])
    func aPollIntervalThatIsNoNumberOfSecondsIsRefusedAtSetRequestor(interval: Double) async throws {
        let rig = try Rig(
            .inProcess, configuration: { $0.secondScreenPollInterval = interval },
            scenario: { scenario in
                scenario.platform = .tvOS
                scenario.loginScreen = .secondScreen
            })
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(CFG400,error)", "setRequestorComplete(0)",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("secondScreenPollInterval") == true)
        #expect(rig.restCalls.isEmpty)
        // Had the requestor been set, the code would have been shown with the interval in its message.
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])).last?.hasPrefix(
                "setAuthenticationStatus(0,") == true)
        _ = try await rig.run(.setSelectedProvider("NotBoarded"))
    }
}
