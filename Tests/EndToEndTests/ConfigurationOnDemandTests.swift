import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The configuration is asked only when a flow needs it (Adobe's REST API V2 checklist,
/// Configuration Phase): a provider list to show, the partner framework while no profile is
/// in force, an MVPD the device knows nothing about. setRequestor asks none — a warm launch
/// is one request — and a fetched copy is reused for 3 minutes. What the SDK remembers of
/// the chosen provider lives with the profile, and the last sign-in's provider outlives it.
/// Counted at the sandbox: the requests it received, whoever sent them.
@Suite struct ConfigurationOnDemandTests {
    static let configuration = "/api/v2/REF30/configuration"

    /// The API requests the sandbox received (method and path), since its log was cleared.
    static func received(_ sandbox: PassSandbox) -> [String] {
        sandbox.requestLog.filter { $0.path.hasPrefix("/api/v2/") || $0.path.hasPrefix("/o/client/") }.map {
            "\($0.method) \($0.path)"
        }
    }

    /// How many times the sandbox was asked for the configuration since its log was cleared.
    static func configurationRequests(_ sandbox: PassSandbox) -> Int {
        sandbox.requestLog.filter { $0.path == configuration }.count
    }

    // MARK: setRequestor

    @Test(arguments: bothWires)
    func aColdLaunchIsRegisterTokenProfilesAndAWarmOneIsOneRequest(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        let sandbox = harness.sandboxes[0]
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            Self.received(sandbox) == ["POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles"])
        try await harness.logIn(mvpd: "NotBoarded")

        harness.relaunch()
        sandbox.clearRequestLog()
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(Self.received(sandbox) == ["GET /api/v2/REF30/profiles"], "a warm launch is one request")
        // What a signed-in app does next asks no configuration either.
        #expect(
            await harness.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(
            await harness.call { $0.getAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(await harness.call { $0.getSelectedProvider() } == ["selectedProvider(NotBoarded)"])
        #expect(
            await harness.call { $0.checkAuthorization("news") } == [
                "sendTrackingData(1,true,NotBoarded)", "setToken(news)",
            ])
        #expect(
            await harness.call { $0.checkPreauthorizedResources(["news", "sports"]) } == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(
            await harness.call {
                $0.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "userID"])
            }.count == 1)
        #expect(Self.configurationRequests(sandbox) == 0, "\(Self.received(sandbox))")
        // The provider's name and logo come from storage.
        let selected = try #require(try await harness.accessEnabler.selectedProvider())
        #expect(selected.id == "NotBoarded")
        #expect(selected.displayName == "Not Boarded Cable")
        #expect(selected.logoURL == "https://sandbox.invalid/logos/NotBoarded.png")
        _ = await harness.call { $0.logout() }
        #expect(Self.configurationRequests(sandbox) == 0, "logout asks none: \(Self.received(sandbox))")
    }

    @Test(arguments: bothWires)
    func anUnknownRequestorIsCFG400FromTheProfilesAnswer(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("NOPE") } == ["status(CFG400,error)", "setRequestorComplete(0)"])
        #expect(
            Self.received(harness.sandboxes[0]) == [
                "POST /o/client/register", "POST /o/client/token", "GET /api/v2/NOPE/profiles",
            ])
    }

    // MARK: The provider list

    @Test(arguments: bothWires)
    func aPickerShownTwiceWithinThreeMinutesAsksOnceAndAfterThreeMinutesAgain(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        let sandbox = harness.sandboxes[0]
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        sandbox.clearRequestLog()
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
        #expect(Self.received(sandbox) == ["GET /api/v2/REF30/configuration"])
        #expect(
            await harness.call { $0.setSelectedProvider(nil) } == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        harness.clock.advance(by: 179)
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
        #expect(Self.configurationRequests(sandbox) == 1, "reused within 3 minutes")
        #expect(
            await harness.call { $0.setSelectedProvider(nil) }.last
                == "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")
        harness.clock.advance(by: 2)
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
        #expect(Self.configurationRequests(sandbox) == 2, "asked again once 3 minutes have passed")
    }

    /// The copy outlives the process: an app relaunched within the 3 minutes (a crash, a
    /// system that ends apps in the background) shows its picker from storage, as Adobe's
    /// checklist recommends; after them, or with other service providers, it asks again.
    @Test(arguments: bothWires)
    func aRelaunchWithinThreeMinutesReusesTheStoredConfigurationAndAfterThemAsksAgain(wire: ScenarioRunner.Wire)
        async throws
    {
        let harness = try RegularHarness(wire, worlds: [.default, .default])
        defer { harness.stop() }
        let sandbox = harness.sandboxes[0]
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
        #expect(Self.configurationRequests(sandbox) == 1)

        harness.relaunch()
        harness.clock.advance(by: 170)
        sandbox.clearRequestLog()
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        // The stored copy is as good as a fetched one: a sign-in from its picker works.
        try await harness.logIn(mvpd: "NotBoarded", expectDialog: [regularDialog])
        #expect(
            Self.configurationRequests(sandbox) == 0,
            "the picker comes from the stored configuration: \(Self.received(sandbox))")
        #expect(await harness.call { $0.getSelectedProvider() } == ["selectedProvider(NotBoarded)"])
        _ = await harness.call { $0.logout() }

        // Past the 3 minutes of the first fetch, a relaunch asks again.
        harness.relaunch()
        harness.clock.advance(by: 11)
        sandbox.clearRequestLog()
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
        #expect(Self.configurationRequests(sandbox) == 1, "asked again once 3 minutes have passed")

        // Other service providers' configuration is not this one.
        harness.relaunch()
        sandbox.clearRequestLog()
        let both = harness.baseURLs.map(\.absoluteString)
        #expect(await harness.call { $0.setRequestor("REF30", serviceProviders: both) } == ["setRequestorComplete(1)"])
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
        #expect(
            Self.configurationRequests(sandbox) == 1,
            "the stored copy is the environment's alone: \(Self.received(sandbox))")
    }

    @Test(arguments: bothWires)
    func aConfigurationFailureEndsTheCallThatNeededItWithTheStatusSetRequestorWouldReport(wire: ScenarioRunner.Wire)
        async throws
    {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        harness.sandboxes[0].inject(SandboxFault(status: 503, remaining: 1), into: .configuration)
        #expect(
            await harness.call { $0.getAuthentication() } == [
                "status(CFG503,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        harness.sandboxes[0].inject(SandboxFault(status: 500, remaining: 1), into: .configuration)
        #expect(
            await harness.call { $0.getAuthorization("news") } == [
                "status(CFG500,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        // Nothing was cached: the next call that needs it asks again, and gets it.
        #expect(await harness.call { $0.getAuthentication() } == [regularDialog])
    }

    // MARK: The provider chosen on the phone

    @Test(arguments: bothWires)
    func aSecondScreenSignInWithTheProviderChosenOnThePhoneNeverAsksForTheConfiguration(wire: ScenarioRunner.Wire)
        async throws
    {
        let harness = try RegularHarness(wire) { configuration in
            configuration.loginScreen = .secondScreen
            configuration.providerChoice = .onSecondScreen
        }
        defer { harness.stop() }
        let sandbox = harness.sandboxes[0]
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        harness.recorder.reset()
        harness.accessEnabler.getAuthentication()
        await harness.settle()
        let code = try #require(harness.recorder.callbacks.last { $0.callback == "status" }?["details"]?.stringValue)
        #expect(harness.recorder.takeSignatures() == ["status(REGCODE,info)"])
        try await harness.userAgent(for: "").activate(
            code: code, username: "alice", password: "alice123", mvpd: "NotBoarded")
        harness.clock.advance(by: 5)
        await harness.settle()
        #expect(harness.recorder.takeSignatures().suffix(2) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(Self.configurationRequests(sandbox) == 0, "\(Self.received(sandbox))")
        // Known by its id alone: the configuration that names it was never needed.
        #expect(await harness.call { $0.getSelectedProvider() } == ["selectedProvider(NotBoarded)"])
        #expect(harness.accessEnabler.rememberedProvider?.id == "NotBoarded")
        #expect(Self.configurationRequests(sandbox) == 0)
    }

    // MARK: Continue with your provider

    @Test(arguments: bothWires)
    func theRememberedProviderOutlivesTheProfileAndASignInFromItAsksNoConfiguration(wire: ScenarioRunner.Wire)
        async throws
    {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        let sandbox = harness.sandboxes[0]
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(harness.accessEnabler.rememberedProvider == nil)
        try await harness.logIn(mvpd: "NotBoarded")
        // The profile expires; the app relaunches.
        harness.clock.advance(by: 86_400 + 60)
        harness.relaunch()
        sandbox.clearRequestLog()
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            await harness.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        let remembered = try #require(harness.accessEnabler.rememberedProvider)
        #expect(remembered.id == "NotBoarded")
        #expect(remembered.displayName == "Not Boarded Cable")
        #expect(remembered.logoURL == "https://sandbox.invalid/logos/NotBoarded.png")
        // "Continue with Not Boarded Cable": no provider list, no configuration.
        #expect(
            await harness.call { $0.setSelectedProvider(remembered.ID) } == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        let landing = try await harness.userAgent(for: "").login(
            startingAt: harness.recorder.lastNavigationURL ?? "", username: "alice", password: "alice123",
            redirectPrefix: "adobepass://ios.app")
        #expect(
            await harness.call { $0.handleExternalURL(landing) } == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(Self.configurationRequests(sandbox) == 0, "\(Self.received(sandbox))")
        // A logout forgets it.
        _ = await harness.call { $0.logout() }
        #expect(harness.accessEnabler.rememberedProvider == nil)
        harness.relaunch()
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(harness.accessEnabler.rememberedProvider == nil, "a logout is stored")
    }

    @Test(arguments: bothWires)
    func anMVPDTheDeviceDoesNotKnowIsCheckedAgainstTheConfigurationFirst(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        let sandbox = harness.sandboxes[0]
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        sandbox.clearRequestLog()
        #expect(
            await harness.call { $0.setSelectedProvider("NoSuchCable") } == [
                "status(N500,error)", "setAuthenticationStatus(0,\(PROVIDER_NOT_AVAILABLE_ERROR))",
            ])
        #expect(Self.received(sandbox) == ["GET /api/v2/REF30/configuration"])
        // An MVPD of the configuration goes on to its login page, with the copy just fetched.
        #expect(
            await harness.call { $0.setSelectedProvider("SVCProvider") } == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate)",
            ])
        #expect(Self.configurationRequests(sandbox) == 1)
    }
}
