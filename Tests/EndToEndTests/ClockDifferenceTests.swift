import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A device whose clock is far from Adobe Pass's: the difference is measured from the
/// `Date` header, reported once as CFG100 (warning), and Adobe's timestamps are judged with
/// it — a fresh sign-in is never reported as a success that the next check denies.
@Suite struct ClockDifferenceTests {
    /// The scenario clock, read `offset` seconds off (a device clock set wrong); waits are
    /// converted, so moving the scenario clock still wakes the SDK.
    struct SkewedClock: TimeSource, Sleeper {
        let base: any TimeSource & Sleeper
        let offset: TimeInterval
        var now: Date { base.now.addingTimeInterval(offset) }
        func sleep(until deadline: Date) async throws(CancellationError) {
            try await base.sleep(until: deadline.addingTimeInterval(-offset))
        }
    }

    /// A transport (a proxy, say) that drops the `Date` header: the difference cannot be measured.
    struct DateStripping: HTTPTransport {
        let inner: any HTTPTransport
        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            var response = try await inner.send(request, timeout: timeout)
            response.headers.removeAll { $0.name.lowercased() == "date" }
            return response
        }
    }

    static func rig(
        _ wire: ScenarioRunner.Wire, offset: TimeInterval, screen: AccessEnablerConfiguration.LoginScreen = .thisDevice,
        stripDate: Bool = false
    ) throws -> Rig {
        try Rig(
            wire,
            configuration: { configuration in
                if let base = configuration.clock as? any TimeSource & Sleeper {
                    configuration.clock = SkewedClock(base: base, offset: offset)
                }
                if stripDate { configuration.transport = DateStripping(inner: configuration.transport) }
            },
            scenario: { scenario in
                scenario.platform = .tvOS
                scenario.loginScreen = screen
            })
    }

    @Test(arguments: bothWires, [2 * 86_400, -2 * 86_400] as [TimeInterval])
    func aDeviceClockDaysOffIsReportedAndCorrectedFor(wire: ScenarioRunner.Wire, offset: TimeInterval) async throws {
        let rig = try Self.rig(wire, offset: offset)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(CFG100,warning)", "setRequestorComplete(1)",
            ])
        let warning = try #require(rig.lines("status").first)
        #expect(warning["message"]?.stringValue?.contains(offset > 0 ? "ahead of" : "behind") == true)
        // A 24-hour profile: by the wrong clock it is already over (or not begun), by
        // Adobe's time it is valid — and it is reported and kept as valid.
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)).first?.hasPrefix(
                "setMetadataStatus(0,false,\"") == true)
        // Reported once.
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
    }

    @Test(arguments: bothWires)
    func aSecondScreenWaitIsTimedWithAdobesEndOfTheCode(wire: ScenarioRunner.Wire) async throws {
        // The device is a day behind: by its clock the code would last a day and a half.
        let rig = try Self.rig(wire, offset: -86_400, screen: .secondScreen)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)).last == "setRequestorComplete(1)")
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "status(REGCODE,info)")
        #expect(
            try await rig.run(.advanceClock(1_801)) == [
                "status(N130,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
    }

    /// Without a `Date` the SDK cannot tell that a login's code is over: it asks for the
    /// profile, and the N130 names Adobe Pass's answer (`invalid_authentication_session`).
    /// With Adobe's time known it does not ask (``RegularAuthenticationTests``).
    @Test(arguments: bothWires)
    func withoutAServerDateAnExpiredCodeIsAskedForAndTheStatusNamesTheRESTError(wire: ScenarioRunner.Wire) async throws
    {
        let rig = try Self.rig(wire, offset: 0, stripDate: true)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        // Should this ever end otherwise (seen once, under a load that made every test of
        // the suite take two minutes), the callbacks with their messages and the requests
        // made say why.
        let selected = try await rig.run(.setSelectedProvider("NotBoarded"))
        #expect(selected.last == "navigateToUrl(authenticate)", "\(rig.lastLines) requests: \(rig.restCalls)")
        #expect(try await rig.run(.advanceClock(1_801)) == [])
        let collector = StatusCollector(queue: rig.accessEnabler.configuration.callbackQueue, name: "callbacks")
        rig.accessEnabler.statusDelegate = collector
        #expect(
            try await rig.run(.handleExternalURL("adobepass://ios.app")) == [
                "sendTrackingData(0,false,)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(
            rig.restCalls.count == 1 && rig.restCalls.first?.hasPrefix("GET /api/v2/REF30/profiles/code/") == true,
            "\(rig.restCalls)")
        #expect(collector.statuses.map(\.errorId) == ["N130"])
        #expect(collector.statuses.first?.enhancedError?.code == "invalid_authentication_session")
        #expect(collector.statuses.first?.message?.isEmpty == false)
    }

    @Test(arguments: bothWires)
    func withoutAServerDateASignInThatIsAlreadyOverIsNotASuccess(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, offset: 2 * 86_400, stripDate: true)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "navigateToUrl(authenticate)")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "status(CFG100,warning)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("already over") == true)
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
    }

    /// A set-top box without a battery clock, 328 days behind Adobe's; the request reaches
    /// Adobe Pass 0.6 s into a second, so the `Date` header (whole seconds) puts Adobe's time
    /// 0.6 s early and a profile minted this very moment starts "after" it.
    static let clock328DaysBehind: TimeInterval = -328 * 86_400

    @Test(arguments: bothWires, [false, true])
    func aFreshSignInWithTheClock328DaysBehindIsASuccess(wire: ScenarioRunner.Wire, namingServiceProvider: Bool)
        async throws
    {
        let rig = try Self.rig(wire, offset: Self.clock328DaysBehind)
        rig.sandbox.clock.advance(by: 0.6)
        let serviceProviders = namingServiceProvider ? [rig.runner.baseURL.absoluteString] : nil
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: serviceProviders)) == [
                "status(CFG100,warning)", "setRequestorComplete(1)",
            ])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }

    @Test(arguments: bothWires)
    func aSecondScreenSignInWithTheClock328DaysBehindIsASuccess(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, offset: Self.clock328DaysBehind, screen: .secondScreen)
        rig.sandbox.clock.advance(by: 0.6)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(CFG100,warning)", "setRequestorComplete(1)",
            ])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "status(REGCODE,info)")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(try await rig.run(.checkAuthentication).last == authenticated)
    }

    @Test(arguments: bothWires)
    func withoutAServerDateASignInNotValidYetSaysSo(wire: ScenarioRunner.Wire) async throws {
        // Ten minutes behind, and nothing to correct with: the sign-in starts 600 s after the
        // device's now, past the 300 s tolerance.
        let rig = try Self.rig(wire, offset: -600, stripDate: true)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "navigateToUrl(authenticate)")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "status(CFG100,warning)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("not valid yet") == true)
    }

    @Test(arguments: bothWires)
    func withoutAServerDateAClockFourMinutesBehindIsWithinTheTolerance(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, offset: -240, stripDate: true)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    @Test(arguments: bothWires)
    func aSmallDifferenceIsOrdinaryDriftAndNotReported(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, offset: 90)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthentication).last == authenticated)
    }
}
