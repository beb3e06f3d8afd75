import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Network faults the sandbox injects — timeouts, refused or dropped connections, 5xx,
/// malformed bodies — each ending in its documented callback and code, with the stored
/// session surviving; and the ordering guarantees (exactly one terminal callback per call).
@Suite struct RegularFaultTests {
    /// A fault and its name for messages.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var fault: SandboxFault
        var description: String { name }
        /// The request timeout of a harness that meets this fault: short only for the faults
        /// that can end in a timeout (a slow answer; a connection dropped after the request
        /// was read, which the HTTP client may only give up on at the timeout), so a healthy
        /// request on a busy machine never counts as one.
        var requestTimeout: TimeInterval {
            let waitsOrDrops = fault.latency > 0 || fault.effects.contains(.dropConnection)
            return waitsOrDrops ? RegularFaultTests.quickTimeout : RegularFaultTests.patientTimeout
        }
    }

    /// Each wire-level way a call can fail. The timeout case answers only after three times
    /// the harness's request timeout.
    static let failures: [Case] = [
        Case(name: "503", fault: SandboxFault(status: 503)),
        Case(name: "500", fault: SandboxFault(status: 500)),
        Case(name: "malformed body", fault: SandboxFault(malformedBody: true)),
        Case(name: "dropped connection", fault: SandboxFault(dropConnection: true)),
        Case(name: "timeout", fault: SandboxFault(latency: 3 * quickTimeout)),
    ]

    /// Short enough to keep the suite quick, long enough for a machine at load 20 to answer
    /// every request that is not meant to time out (longer under the thread sanitizer).
    static let quickTimeout: TimeInterval = SanitizerTiming.scaled(6)
    /// For harnesses whose requests are all meant to be answered.
    static let patientTimeout: TimeInterval = 30

    // MARK: setRequestor

    @Test(arguments: bothWires)
    func setRequestorFailuresAndTheirStatuses(wire: ScenarioRunner.Wire) async throws {
        // setRequestor's own requests are the registration's and the profiles': a failing
        // GET profiles leaves the stored profiles standing (profilesFailuresLeaveWhatIsStored).
        let expectations: [(SandboxEndpoint, Case, String)] = [
            (.dcrRegister, Self.failures[0], "CFG503"),
            (.dcrRegister, Self.failures[3], "CFG404"),
            (.dcrRegister, Self.failures[4], "CFG404"),
            (.dcrToken, Self.failures[0], "CFG503"),
            (.dcrToken, Self.failures[2], "CFG500"),
            (.dcrToken, Case(name: "400", fault: SandboxFault(status: 400)), "R401"),
        ]
        for (endpoint, failure, status) in expectations {
            let harness = try RegularHarness(wire, requestTimeout: failure.requestTimeout)
            defer { harness.stop() }
            harness.sandboxes[0].inject(failure.fault, into: endpoint)
            let configured = await harness.call { $0.setRequestor("REF30") }
            #expect(configured == ["status(\(status),error)", "setRequestorComplete(0)"], "\(endpoint) \(failure)")
            let checked = await harness.call { $0.checkAuthentication() }
            #expect(checked == ["status(\(status),error)", notAuthenticated], "\(endpoint) \(failure)")
            harness.sandboxes[0].clearFaults()
            #expect(
                await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"],
                "recovers after \(endpoint) \(failure)")
        }
    }

    /// The configuration is asked when a flow needs it: its failure ends that call with the
    /// status setRequestor reports for the same failure, then the call's own failure callback.
    @Test(arguments: bothWires)
    func configurationFailuresEndTheGetAuthenticationThatNeededIt(wire: ScenarioRunner.Wire) async throws {
        let expectations: [(Case, String)] = [
            (Self.failures[0], "CFG503"), (Self.failures[1], "CFG500"), (Self.failures[2], "CFG500"),
            (Self.failures[3], "CFG404"),
            (Self.failures[4], "CFG404"),
        ]
        for (failure, status) in expectations {
            let harness = try RegularHarness(wire, requestTimeout: failure.requestTimeout)
            defer { harness.stop() }
            #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
            harness.sandboxes[0].inject(failure.fault, into: .configuration)
            #expect(
                await harness.call { $0.getAuthentication() } == [
                    "status(\(status),error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                ],
                "\(failure)")
            harness.sandboxes[0].clearFaults()
            #expect(await harness.call { $0.getAuthentication() } == [regularDialog], "recovers after \(failure)")
        }
    }

    /// A GET profiles that Adobe Pass cannot answer (a server failure, a dropped connection)
    /// fails no setRequestor: what the device stored stands, and the next setRequestor asks again.
    @Test(arguments: bothWires)
    func profilesFailuresLeaveWhatIsStored(wire: ScenarioRunner.Wire) async throws {
        for failure in Self.failures {
            let harness = try RegularHarness(wire, requestTimeout: failure.requestTimeout)
            defer { harness.stop() }
            #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
            try await harness.logIn(mvpd: "NotBoarded")
            harness.relaunch()
            harness.sandboxes[0].inject(failure.fault, into: .profiles)
            #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"], "\(failure)")
            #expect(
                await harness.call { $0.checkAuthentication() } == [
                    "sendTrackingData(0,true,NotBoarded)", authenticated,
                ], "\(failure)")
        }
    }

    /// A passing failure of Adobe Pass answered with a 4xx (`403 network_received_error`, whose
    /// action is `retry`) is the servers' trouble, never "an invalid requestor" (CFG400): after
    /// its two retries it is reported as CFG503 — here by the getAuthentication that needed the
    /// configuration. (The same answer from DCR: see `RESTErrorTests` and
    /// `DecisionErrorClassificationTests`.)
    @Test(arguments: bothWires)
    func aPassingServerFailureOfTheConfigurationIsReportedAsTheServersStatus(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire, requestTimeout: Self.patientTimeout)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        harness.sandboxes[0].inject(SandboxFault(status: 403), into: .configuration)
        #expect(
            await harness.call { $0.getAuthentication() } == [
                "status(CFG503,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        let asked = harness.restCalls.filter { $0.hasSuffix("/configuration") }.count
        #expect(asked == 3, "retried twice, as its action says")
        harness.sandboxes[0].clearFaults()
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
    }

    // MARK: Authentication

    @Test(arguments: bothWires)
    func sessionAndProfileFailuresEndInN500(wire: ScenarioRunner.Wire) async throws {
        for failure in Self.failures {
            let harness = try RegularHarness(wire, requestTimeout: failure.requestTimeout)
            defer { harness.stop() }
            #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
            harness.sandboxes[0].inject(failure.fault, into: .createSession)
            #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
            #expect(
                await harness.call { $0.setSelectedProvider("NotBoarded") } == [
                    "sendTrackingData(2,NotBoarded)", "status(N500,error)", "sendTrackingData(0,false,)",
                    "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                ], "\(failure)")
            harness.sandboxes[0].clearFaults()

            // The profile call after the login fails the same way.
            #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
            #expect(
                await harness.call { $0.setSelectedProvider("NotBoarded") } == [
                    "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
                ])
            let url = try #require(harness.recorder.lastNavigationURL)
            let landing = try await harness.userAgent(for: url).login(
                startingAt: url, username: "alice", password: "alice123", redirectPrefix: "adobepass://ios.app")
            harness.sandboxes[0].inject(failure.fault, into: .profileForCode)
            #expect(
                await harness.call { $0.handleExternalURL(landing) } == [
                    "status(N500,error)", "sendTrackingData(0,false,)",
                    "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                ], "\(failure)")
            #expect(
                await harness.call { $0.checkAuthentication() } == [
                    "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                ])
        }
    }

    // MARK: After login: the session survives every failure

    @Test(arguments: bothWires)
    func authorizationPreauthorizationAndLogoutFailuresKeepOrEndTheSessionAsDocumented(wire: ScenarioRunner.Wire)
        async throws
    {
        for failure in Self.failures {
            let harness = try RegularHarness(wire, requestTimeout: failure.requestTimeout)
            defer { harness.stop() }
            let sandbox = harness.sandboxes[0]
            #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
            try await harness.logIn(mvpd: "NotBoarded", expectDialog: [regularDialog])

            sandbox.inject(failure.fault, into: .authorize)
            #expect(
                await harness.call { $0.checkAuthorization("news") } == [
                    "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
                    "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
                ], "\(failure)")
            #expect(
                await harness.call { $0.checkAuthentication() } == [
                    "sendTrackingData(0,true,NotBoarded)", authenticated,
                ], "\(failure)")

            sandbox.inject(failure.fault, into: .preauthorize)
            #expect(
                await harness.call { $0.checkPreauthorizedResources(["news"]) } == [
                    "status(P100,error)", "preauthorizedResources()",
                ], "\(failure)")
            #expect(
                await harness.call { $0.checkAuthentication() } == [
                    "sendTrackingData(0,true,NotBoarded)", authenticated,
                ], "\(failure)")

            sandbox.clearFaults()
            #expect(
                await harness.call { $0.checkAuthorization("news") } == [
                    "sendTrackingData(1,true,NotBoarded)", "setToken(news)",
                ], "\(failure)")

            // Logout: the local profile goes whatever the network says.
            sandbox.inject(failure.fault, into: .logout)
            #expect(await harness.call { $0.logout() } == ["status(N500,error)", notAuthenticated], "\(failure)")
            #expect(
                await harness.call { $0.checkAuthentication() } == [
                    "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                ], "\(failure)")
        }
    }

    @Test func aServerThatWentAwayAfterLoginKeepsTheSession() async throws {
        let harness = try RegularHarness(.loopbackHTTP, requestTimeout: Self.patientTimeout)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await harness.logIn(mvpd: "NotBoarded")
        harness.stopServing()
        #expect(
            await harness.call { $0.checkAuthorization("news") } == [
                "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ])
        #expect(
            await harness.call { $0.checkPreauthorizedResources(["news"]) } == [
                "status(P100,error)", "preauthorizedResources()",
            ])
        #expect(
            await harness.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        // setRequestor's GET profiles cannot be answered: what the device stored stands.
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            await harness.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    // MARK: Exactly one terminal callback per call

    @Test(arguments: bothWires)
    func aBurstOfCallsEndsInOneTerminalCallbackEachInCallOrder(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let signatures = await rig.call { accessEnabler in
            accessEnabler.setRequestor("REF30")
            accessEnabler.checkAuthentication()
            accessEnabler.getAuthentication()
            accessEnabler.checkAuthorization("news")
            accessEnabler.getAuthorization("sports")
            accessEnabler.checkPreauthorizedResources(["news", "movies"])
            accessEnabler.getSelectedProvider()
            accessEnabler.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "userID"])
            accessEnabler.handleExternalURL("https://elsewhere.example/")
            accessEnabler.logout()
        }
        let terminals = signatures.filter(isTerminal)
        #expect(
            terminals == [
                "setRequestorComplete(1)", authenticated, authenticated, "setToken(news)", "setToken(sports)",
                "preauthorizedResources(news)", "selectedProvider(NotBoarded)",
                "setMetadataStatus(3,false,\"u-alice\")",
                authenticated, notAuthenticated,
            ])
    }

    @Test(arguments: bothWires)
    func aSlowServerNeverHangsACall(wire: ScenarioRunner.Wire) async throws {
        // Signing in is not what this test is about: it runs with the patient timeout, so that
        // on a busy machine its requests never race the short one the slow server is met with.
        let harness = try RegularHarness(wire, requestTimeout: Self.patientTimeout)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await harness.logIn(mvpd: "NotBoarded")
        harness.relaunch(requestTimeout: Self.quickTimeout)
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        for endpoint in SandboxEndpoint.allCases {
            harness.sandboxes[0].inject(SandboxFault(latency: 3 * Self.quickTimeout), into: endpoint)
        }
        let signatures = await harness.call { accessEnabler in
            accessEnabler.checkAuthorization("news")
            accessEnabler.checkPreauthorizedResources(["news"], cache: false)
            accessEnabler.setRequestor("REF30")
            accessEnabler.checkAuthentication()
        }
        #expect(
            signatures.filter(isTerminal) == [
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))", "preauthorizedResources()",
                "setRequestorComplete(1)", authenticated,
            ])
    }
}

/// What an advanced status carries besides its id and level, and where callbacks arrive.
@Suite struct RegularStatusDetailTests {
    @Test(arguments: bothWires)
    func statusesCarryTheEnhancedErrorThatCausedThemAndArriveOnTheCallbackQueue(wire: ScenarioRunner.Wire) async throws
    {
        let harness = try RegularHarness(wire, requestTimeout: RegularFaultTests.patientTimeout)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await harness.logIn(mvpd: "NotBoarded", username: "bob")
        let queue = harness.accessEnabler.configuration.callbackQueue
        let collector = StatusCollector(queue: queue, name: "callbacks")
        harness.accessEnabler.delegate = collector
        harness.accessEnabler.statusDelegate = collector

        harness.accessEnabler.checkAuthorization("sports")
        await harness.settle()
        // `network_received_error` carries the `retry` action: the fault stays through the retry.
        harness.sandboxes[0].inject(SandboxFault(status: 403), into: .authorize)
        harness.accessEnabler.checkAuthorization("news")
        harness.accessEnabler.checkAuthentication()
        await harness.settle()
        harness.sandboxes[0].clearFaults()

        let statuses = collector.statuses
        #expect(statuses.map(\.errorId) == ["Z100", "Z120"])
        let denial = try #require(statuses.first)
        #expect(denial.level == .error)
        #expect(denial.resource == "sports")
        #expect(denial.enhancedError?.code == "authorization_denied_by_mvpd")
        #expect(denial.enhancedError?.helpUrl?.isEmpty == false)
        #expect(denial.enhancedError?.trace?.isEmpty == false)
        #expect(denial.dictionary["errorId"] as? String == "Z100")
        #expect(denial.dictionary["code"] as? String == "authorization_denied_by_mvpd")
        #expect(denial.dictionary["level"] as? String == "error")
        let unreachable = try #require(statuses.last)
        #expect(unreachable.enhancedError?.code == "network_received_error")
        #expect(unreachable.enhancedError?.status == 403)
        #expect(
            collector.callbacks == [
                "status", "sendTrackingData", "tokenRequestFailed", "status", "sendTrackingData", "tokenRequestFailed",
                "sendTrackingData", "setAuthenticationStatus",
            ])
        #expect(collector.callbacksOffQueue == 0)
    }
}
