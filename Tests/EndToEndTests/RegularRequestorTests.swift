import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The facade's initializers, setOptions and setRequestor (with and without service
/// providers, and every way it can fail), with no partner framework.
@Suite struct RegularRequestorTests {
    // MARK: Initializers

    @Test func theShortInitializerIsAProductionIOSConfiguration() {
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT")
        #expect(accessEnabler.configuration.environment == .production)
        #expect(accessEnabler.configuration.platform == .iOS)
        #expect(accessEnabler.configuration.partnerFramework == nil)
        #expect(accessEnabler.configuration.redirectURL == "adobepass://ios.app")
    }

    @Test(arguments: bothWires)
    func everyInitializerRunsTheSameRegularFlow(wire: ScenarioRunner.Wire) async throws {
        for check in [IntegrityCheckType.INTEGRITY_CHECK_NONE, .INTEGRITY_CHECK_ALL, .INTEGRITY_CHECK_CLEAR] {
            let harness = try RegularHarness(wire, storageCheck: check)
            defer { harness.stop() }
            #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
            #expect(
                harness.restCalls == ["POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles"])
            #expect(
                await harness.call { $0.checkAuthentication() } == [
                    "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                ])
        }
    }

    @Test(arguments: bothWires)
    func initWithSoftwareStatementAndConfigurationReachesTheConfiguredEnvironment(wire: ScenarioRunner.Wire)
        async throws
    {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        var configuration = harness.accessEnabler.configuration
        configuration.callbackQueue = DispatchQueue(label: "regular.init.test")
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        let recorder = CallbackRecorder(revealSecrets: true)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        accessEnabler.setRequestor("REF30")
        #expect(await whileProgressing(accessEnabler) { await accessEnabler.waitUntilIdle() })
        #expect(recorder.signatures == ["setRequestorComplete(1)"])
    }

    // MARK: setOptions

    @Test(arguments: bothWires)
    func optionsReachEveryLaterRequest(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        let deviceInfo = Data(
            #"{"model":"Living Room Box","version":"7","osName":"Linux","osVersion":"6.1","connectionType":"WiFi","manufacturer":"Example"}"#
                .utf8
        )
        .base64EncodedString()
        #expect(
            await harness.call {
                $0.setOptions(["applicationProfile": "tv-app", "visitorID": "visitor-42", "device_info": deviceInfo])
                $0.setRequestor("REF30")
            } == ["setRequestorComplete(1)"])
        // The configuration is asked when the provider list is needed.
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
        let configuration = try #require(
            harness.capture.requests.first { $0.line == "GET /api/v2/REF30/configuration" })
        #expect(
            URLComponents(url: configuration.url, resolvingAgainstBaseURL: false)?.queryItems?.contains(
                URLQueryItem(name: "profile", value: "tv-app")) == true)
        #expect(
            configuration.header("AP-Visitor-Identifier") == nil, "configuration does not take the visitor identifier")
        let info = try #require(configuration.header("X-Device-Info"))
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(base64Encoded: info) ?? Data()) as? [String: Any])
        #expect(decoded["model"] as? String == "Living Room Box")
        #expect(decoded["manufacturer"] as? String == "Example")

        #expect(
            await harness.call { $0.setSelectedProvider("NotBoarded") } == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        let session = try #require(harness.capture.requests.first { $0.line == "POST /api/v2/REF30/sessions" })
        #expect(session.header("AP-Visitor-Identifier") == "visitor-42")
        let sessionInfo = try #require(session.header("X-Device-Info").flatMap { Data(base64Encoded: $0) })
        #expect(
            (try JSONSerialization.jsonObject(with: sessionInfo) as? [String: Any])?["model"] as? String
                == "Living Room Box")
    }

    @Test(arguments: bothWires)
    func aLegacyDeviceInfoWithOnlyTheMandatoryKeysIsLaidOverTheDefaults(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        let defaults = try #require(
            harness.capture.requests.last?.header("X-Device-Info").flatMap { Data(base64Encoded: $0) })
        let defaultInfo = try #require(try JSONSerialization.jsonObject(with: defaults) as? [String: Any])
        // The legacy client information makes only model and osName mandatory.
        let legacy = Data(#"{"model":"iPhone","osName":"iOS"}"#.utf8).base64EncodedString()
        #expect(
            await harness.call {
                $0.setOptions(["device_info": legacy])
                $0.setRequestor("REF30")
            } == ["setRequestorComplete(1)"])
        let sent = try #require(
            harness.capture.requests.last?.header("X-Device-Info").flatMap { Data(base64Encoded: $0) })
        let info = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(info["model"] as? String == "iPhone")
        #expect(info["osName"] as? String == "iOS")
        for key in ["version", "osVersion", "connectionType"] {
            #expect(info[key] as? String == defaultInfo[key] as? String, "\(key) comes from the defaults")
            #expect(info[key] != nil, "\(key) is required by REST API V2")
        }
        // Something that is not Base64 JSON is ignored: the defaults are sent.
        #expect(
            await harness.call {
                $0.setOptions(["device_info": "%%% not base64 %%%"])
                $0.setRequestor("REF30")
            } == ["setRequestorComplete(1)"])
        #expect(harness.capture.requests.last?.header("X-Device-Info").flatMap { Data(base64Encoded: $0) } == defaults)
    }

    @Test(arguments: bothWires)
    func handleSVCTurnsTheSVCProviderLoginIntoTheTwoArgumentNavigation(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("SVCProvider")) == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate)",
            ],
            "without handleSVC the one-argument form is used")
        #expect(
            try await rig.run(.setSelectedProvider(nil)) == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])

        #expect(try await rig.run(.setOptions(["handleSVC": .bool(true)])) == [])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("SVCProvider")) == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate,svc)",
            ])
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,SVCProvider)", authenticated,
            ])

        // An MVPD that needs no secure browser keeps the one-argument form.
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
    }

    // MARK: setRequestor

    @Test(arguments: bothWires)
    func setRequestorRegistersOnceAndAsksOnlyTheProfiles(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(rig.restCalls == ["POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles"])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            rig.restCalls == ["GET /api/v2/REF30/profiles"],
            "credentials and the access token are cached; no configuration")
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"], "and survive a relaunch")
    }

    @Test(arguments: bothWires)
    func serviceProvidersAreQueriedTogetherMergedAndEachMVPDServedByItsOrigin(wire: ScenarioRunner.Wire) async throws {
        // The second service provider knows NotBoarded too (a duplicate) and two MVPDs of its own.
        let order = AnswerOrder()
        let harness = try RegularHarness(
            wire, worlds: [.default, secondaryWorld(mvpds: ["NotBoarded", "FarCable", "NearCable"])]
        ) {
            $0.transport = order.over($0.transport)
        }
        defer { harness.stop() }
        let (primary, secondary) = (harness.sandboxes[0], harness.sandboxes[1])
        // The secondary answers configuration later, so the primary is the first responder.
        order.keep(first: harness.baseURLs[0], before: harness.baseURLs[1], pathSuffix: "/configuration")
        #expect(
            await harness.call {
                $0.setRequestor(
                    "REF30", serviceProviders: [harness.baseURLs[0].absoluteString, harness.baseURLs[1].absoluteString])
            } == ["setRequestorComplete(1)"])
        let dialog = await harness.call { $0.getAuthentication() }
        #expect(
            dialog == [
                "displayProviderDialog(AppleBoarded,PickerOnly,NotBoarded,SSODisabled,Degraded,TempPass,SVCProvider,FarCable,NearCable)"
            ], "\(harness.wireStory)")
        #expect(primary.requestLog.map(\.path).contains("/api/v2/REF30/configuration"))
        #expect(secondary.requestLog.map(\.path).contains("/api/v2/REF30/configuration"))

        // NotBoarded came first from the primary: its calls go there; FarCable's go to the secondary.
        primary.clearRequestLog()
        secondary.clearRequestLog()
        #expect(
            await harness.call { $0.setSelectedProvider(nil) } == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        try await harness.logIn(mvpd: "FarCable")
        #expect(secondary.requestLog.contains { $0.path == "/api/v2/REF30/sessions" })
        #expect(!primary.requestLog.contains { $0.path.hasPrefix("/api/v2/REF30/") })
        #expect(
            await harness.call { $0.checkAuthorization("news") } == [
                "sendTrackingData(1,true,FarCable)", "setToken(news)",
            ])
        #expect(harness.restCalls.count == 1)
        #expect(
            harness.capture.requests.first?.url.absoluteString.hasPrefix(harness.baseURLs[1].absoluteString) == true)
        #expect(secondary.requestLog.last?.path == "/api/v2/REF30/decisions/authorize/FarCable")

        primary.clearRequestLog()
        secondary.clearRequestLog()
        try await harness.logIn(mvpd: "NotBoarded")
        #expect(primary.requestLog.contains { $0.path == "/api/v2/REF30/sessions" })
        #expect(!secondary.requestLog.contains { $0.path.hasPrefix("/api/v2/REF30/") })
    }

    @Test(arguments: bothWires)
    func afterARelaunchAnMVPDIsStillServedByTheProviderItCameFrom(wire: ScenarioRunner.Wire) async throws {
        // Both service providers know NotBoarded; the user signed in at the secondary's.
        let order = AnswerOrder()
        let harness = try RegularHarness(
            wire, worlds: [secondaryWorld(mvpds: ["FarCable"]), secondaryWorld(mvpds: ["NotBoarded", "FarCable"])]
        ) {
            $0.transport = order.over($0.transport)
        }
        defer { harness.stop() }
        let providers = [harness.baseURLs[0].absoluteString, harness.baseURLs[1].absoluteString]
        order.keep(first: harness.baseURLs[1], before: harness.baseURLs[0], pathSuffix: "/configuration")
        #expect(
            await harness.call { $0.setRequestor("REF30", serviceProviders: providers) } == ["setRequestorComplete(1)"])
        try await harness.logIn(mvpd: "NotBoarded", expectDialog: ["displayProviderDialog(NotBoarded,FarCable)"])
        #expect(await harness.call { $0.checkAuthorization("news") }.last == "setToken(news)")

        // After a relaunch (the configuration comes from storage; no provider is asked
        // again) NotBoarded's calls still go to the secondary, with the client it registered
        // there before.
        harness.relaunch()
        #expect(
            await harness.call { $0.setRequestor("REF30", serviceProviders: providers) } == ["setRequestorComplete(1)"])
        #expect(!harness.restCalls.contains { $0.hasSuffix("/configuration") })
        #expect(
            harness.restCalls.filter { $0.hasPrefix("POST /o/client") }.isEmpty,
            "no new registration at either provider")
        #expect(
            await harness.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(
            await harness.call { $0.checkAuthorization("news") } == [
                "sendTrackingData(1,true,NotBoarded)", "setToken(news)",
            ])
        #expect(
            harness.capture.requests.first?.url.absoluteString.hasPrefix(harness.baseURLs[1].absoluteString) == true)
    }

    @Test(arguments: bothWires)
    func serviceProvidersAreQueriedConcurrently(wire: ScenarioRunner.Wire) async throws {
        // Each barrier lets its requests go only once all three wait at it at once: requests
        // sent one after another would never meet it.
        let profiles = RequestBarrier(pathSuffix: "/api/v2/REF30/profiles", count: 3)
        let configurations = RequestBarrier(pathSuffix: "/api/v2/REF30/configuration", count: 3)
        let harness = try RegularHarness(
            wire, worlds: [.default, secondaryWorld(mvpds: ["FarCable"]), secondaryWorld(mvpds: ["NearCable"])]
        ) {
            $0.transport = configurations.over(profiles.over($0.transport))
        }
        defer { harness.stop() }
        // The first setRequestor registers and fetches the token at each, then asks each for profiles.
        #expect(
            await harness.call { $0.setRequestor("REF30", serviceProviders: harness.baseURLs.map(\.absoluteString)) }
                == ["setRequestorComplete(1)"])
        #expect(profiles.metTogether, "the profiles of the three providers were asked at once")
        #expect(harness.restCalls.filter { $0.hasSuffix("/profiles") }.count == 3)
        // So is the configuration of each, when the provider list needs it.
        #expect(await harness.call { $0.getAuthentication() }.count == 1)
        #expect(configurations.metTogether, "the configurations of the three providers were asked at once")
        #expect(harness.restCalls.filter { $0.hasSuffix("/configuration") }.count == 3)
    }

    @Test(arguments: bothWires)
    func aServiceProviderThatIsNotAnHTTPURLFailsWithCFG404(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(
            await rig.call { $0.setRequestor("REF30", serviceProviders: ["ftp://sp.example"]) } == [
                "status(CFG404,error)", "setRequestorComplete(0)",
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aFasterSecondServiceProviderWinsTheMVPDsBothKnow(wire: ScenarioRunner.Wire) async throws {
        let order = AnswerOrder()
        let harness = try RegularHarness(wire, worlds: [.default, secondaryWorld(mvpds: ["NotBoarded"])]) {
            $0.transport = order.over($0.transport)
        }
        defer { harness.stop() }
        order.keep(first: harness.baseURLs[1], before: harness.baseURLs[0], pathSuffix: "/configuration")
        #expect(
            await harness.call {
                $0.setRequestor(
                    "REF30", serviceProviders: [harness.baseURLs[0].absoluteString, harness.baseURLs[1].absoluteString])
            } == ["setRequestorComplete(1)"])
        // The secondary answered first: its NotBoarded leads the list and serves NotBoarded.
        let dialog = await harness.call { $0.getAuthentication() }
        #expect(
            dialog == [
                "displayProviderDialog(NotBoarded,AppleBoarded,PickerOnly,SSODisabled,Degraded,TempPass,SVCProvider)"
            ], "\(harness.wireStory)")
        harness.sandboxes[1].clearRequestLog()
        #expect(
            await harness.call { $0.setSelectedProvider("NotBoarded") } == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(harness.sandboxes[1].requestLog.map(\.path) == ["/api/v2/REF30/sessions"])
        #expect(harness.recorder.lastNavigationURL?.hasPrefix(harness.baseURLs[1].absoluteString) == true)
    }

    @Test(arguments: bothWires)
    func oneServiceProviderDownStillCompletesWithTheOthers(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire, worlds: [.default, secondaryWorld(mvpds: ["FarCable"])])
        defer { harness.stop() }
        harness.sandboxes[1].inject(SandboxFault(status: 503), into: .configuration)
        #expect(
            await harness.call {
                $0.setRequestor(
                    "REF30", serviceProviders: [harness.baseURLs[0].absoluteString, harness.baseURLs[1].absoluteString])
            } == ["setRequestorComplete(1)"])
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
    }

    // MARK: setRequestor failures (CFG400, CFG404, CFG5xx, R400, R401)

    @Test(arguments: bothWires)
    func anUnknownRequestorFailsWithCFG400(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(
            try await rig.run(.setRequestor("NOPE", serviceProviders: nil)) == [
                "status(CFG400,error)", "setRequestorComplete(0)",
            ])
        // The message names the id that was sent, so a mistyped one is seen at once.
        let message = try #require(rig.lines("status").first?["message"]?.stringValue)
        #expect(message.contains("GET /api/v2/NOPE/profiles"), "\(message)")
        #expect(!message.contains("{serviceProvider}"), "\(message)")
    }

    @Test func aRefusedConnectionFailsWithCFG404() async throws {
        // A port where nothing listens (and no parallel test can start listening).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let closed = refusing.url
        let harness = try RegularHarness(.loopbackHTTP, environmentURL: closed)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["status(CFG404,error)", "setRequestorComplete(0)"])
        #expect(harness.restCalls == ["POST /o/client/register"])
    }

    @Test(arguments: bothWires)
    func aDroppedConfigurationConnectionEndsGetAuthenticationWithCFG404(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        rig.sandbox.inject(SandboxFault(dropConnection: true), into: .configuration)
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                "status(CFG404,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
    }

    @Test(arguments: bothWires)
    func aServerErrorOnConfigurationEndsGetAuthenticationWithCFG5xx(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        let getAuthentication = Scenario.Step.getAuthentication(forceAuthn: false, filter: [], featured: [])
        #expect(try await rig.run(.fault(endpoint: .configuration, SandboxFault(status: 503))) == [])
        #expect(
            try await rig.run(getAuthentication) == [
                "status(CFG503,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(try await rig.run(.clearFaults) == [])
        #expect(try await rig.run(getAuthentication) == [regularDialog], "a later call recovers")
    }

    @Test(arguments: bothWires)
    func anUnknownSoftwareStatementFailsWithR400(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire) { $0.softwareStatement = "NOT-A-STATEMENT" }
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(R400,error)", "setRequestorComplete(0)",
            ])
        // Nothing but the registration: setRequestor asks only for the profiles, which wait for it.
        #expect(rig.restCalls == ["POST /o/client/register"])
    }

    @Test(arguments: bothWires)
    func aFailedAccessTokenFailsWithR401(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        rig.sandbox.inject(SandboxFault(status: 400), into: .dcrToken)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(R401,error)", "setRequestorComplete(0)",
            ])
        #expect(rig.restCalls == ["POST /o/client/register", "POST /o/client/token"])
    }

    @Test(arguments: bothWires)
    func aStatementNotCoveringTheRequestorFails(wire: ScenarioRunner.Wire) async throws {
        // STATEMENT2 is registered for REF31 only.
        let rig = try Rig(wire) { $0.softwareStatement = "STATEMENT2" }
        // Adobe Pass refuses the access token for this requestor (401): the SDK renews it once
        // (the token endpoint still knows the client, so it is not registered again), is
        // refused again and reports R401.
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(R401,error)", "setRequestorComplete(0)",
            ])
        #expect(
            rig.restCalls == [
                "POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles", "POST /o/client/token",
                "GET /api/v2/REF30/profiles",
            ])
    }

    // MARK: Ordering around setRequestor

    @Test(arguments: bothWires)
    func callsMadeBeforeSetRequestorCompletesWaitForIt(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        let signatures = await rig.call { accessEnabler in
            accessEnabler.setRequestor("REF30")
            accessEnabler.checkAuthentication()
            accessEnabler.getAuthentication()
        }
        #expect(
            signatures == [
                "setRequestorComplete(1)", "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                regularDialog,
            ])
    }

    @Test(arguments: bothWires)
    func callsAfterAFailedSetRequestorEndInTheirOwnFailure(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        let signatures = await rig.call { accessEnabler in
            accessEnabler.setRequestor("NOPE")
            accessEnabler.checkAuthentication()
            accessEnabler.getAuthentication()
            accessEnabler.setSelectedProvider("NotBoarded")
            accessEnabler.checkAuthorization("news")
            accessEnabler.getAuthorization("news")
            accessEnabler.checkPreauthorizedResources(["news"])
            accessEnabler.logout()
            accessEnabler.getSelectedProvider()
            accessEnabler.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION])
        }
        #expect(
            signatures == [
                "status(CFG400,error)", "setRequestorComplete(0)",
                "status(CFG400,error)", notAuthenticated,
                "status(CFG400,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "status(CFG400,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "status(CFG400,error)", "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
                "status(CFG400,error)", "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
                "status(CFG400,error)", "preauthorizedResources()",
                notAuthenticated,
                "selectedProvider(null)",
                "setMetadataStatus(0,false,null)",
            ])
        let setUp = ["POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles"]
        #expect(rig.restCalls == setUp.map { $0.replacingOccurrences(of: "REF30", with: "NOPE") })
    }

    @Test(arguments: bothWires)
    func callsWithoutAnySetRequestorFailWithCFG400(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(try await rig.run(.checkAuthentication) == ["status(CFG400,error)", notAuthenticated])
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(CFG400,error)", "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                "status(CFG400,error)", "setMetadataStatus(0,false,null)",
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "deviceId", key: nil, resource: nil)) == [
                "status(CFG400,error)", "setMetadataStatus(2,false,null)",
            ])
        #expect(try await rig.run(.logout) == ["status(CFG400,error)", notAuthenticated])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aSignedInUserRelaunchedLogsOutAndReadsMetadataOnlyAfterSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        #expect(try await rig.run(.restart) == [])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "userID", resource: nil)) == [
                "status(CFG400,error)", "setMetadataStatus(3,false,null)",
            ])
        #expect(try await rig.run(.logout) == ["status(CFG400,error)", notAuthenticated])
        #expect(rig.restCalls.isEmpty)
        // Nothing was lost: after setRequestor the sign-in is still there.
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "userID", resource: nil)) == [
                #"setMetadataStatus(3,false,"u-alice")"#
            ])
        #expect(try await rig.run(.checkAuthentication).last == authenticated)
    }
}
