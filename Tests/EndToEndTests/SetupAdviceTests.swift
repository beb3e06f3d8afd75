import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Set-up the app likely did not mean is said, never silently dropped: an option the SDK does
/// not use, and a platform left at its default (a TV app ported with `AccessEnabler(statement)`
/// alone runs as iOS and would wait forever for a code). `ap_vi`, the Android SDK's spelling
/// of the visitor id, is read; the async API takes the legacy `withData:` identity.
@Suite struct SetupAdviceTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [Diagnostic] = []
        func append(_ diagnostic: Diagnostic) { lock.withLock { entries.append(diagnostic) } }
        var all: [Diagnostic] { lock.withLock { entries } }
        var unusedOptions: [String] { all.compactMap { if case .unusedOption(let key, _) = $0 { key } else { nil } } }
        var platformAdvice: [String] {
            all.compactMap { if case .defaultPlatform(let message) = $0 { message } else { nil } }
        }
        var missingDelegates: [(call: String, message: String)] {
            all.compactMap { if case .noDelegate(let call, let message) = $0 { (call, message) } else { nil } }
        }
    }

    /// A sandbox on `wire`, and an AccessEnabler pointed at it whose configuration `adjust` finishes.
    final class Setup: @unchecked Sendable {
        let sandbox = PassSandbox()
        let log = Log()
        let recorder = CallbackRecorder(revealSecrets: true)
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("setup-advice-\(UUID().uuidString)")
        private var server: LoopbackHTTPServer?
        private(set) var accessEnabler: AccessEnabler!

        init(_ wire: ScenarioRunner.Wire, adjust: (inout AccessEnablerConfiguration) -> Void = { _ in }) throws {
            var configuration = AccessEnablerConfiguration()
            switch wire {
            case .loopbackHTTP:
                let (server, url) = try sandbox.serveOverLoopback()
                self.server = server
                configuration.environment = .custom(url)
            case .inProcess:
                configuration.environment = .custom(sandbox.baseURLForLinks)
                configuration.transport = sandbox.transport
            }
            configuration.storageDirectory = storage
            configuration.clock = SandboxTimeSource(sandbox.clock)
            let log = log
            configuration.diagnostics = { log.append($0) }
            adjust(&configuration)
            accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
            accessEnabler.delegate = recorder
            accessEnabler.statusDelegate = recorder
        }

        /// Runs `body` and returns the callback signatures it produced.
        func call(_ body: (AccessEnabler) -> Void) async -> [String] {
            _ = recorder.takeSignatures()
            body(accessEnabler)
            await accessEnabler.waitUntilIdle()
            return recorder.takeSignatures()
        }

        func stop() {
            accessEnabler = nil
            server?.shutdown()
            try? FileManager.default.removeItem(at: storage)
        }
    }

    @Test(arguments: bothWires)
    func aPlatformLeftAtItsDefaultIsCalledOutAtTheFirstSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let setup = try Setup(wire)
        defer { setup.stop() }
        #expect(setup.log.platformAdvice.isEmpty)
        // The callbacks are those of any setRequestor; the advice goes to diagnostics.
        #expect(await setup.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        let advice = try #require(setup.log.platformAdvice.first)
        #expect(advice.contains("platform = .tvOS") && advice.contains("REGCODE") && advice.contains("navigateToUrl"))
        #expect(await setup.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(setup.log.platformAdvice.count == 1, "said once per AccessEnabler")
    }

    @Test(arguments: bothWires, [AccessEnablerConfiguration.Platform.iOS, .tvOS])
    func aPlatformSetOnPurposeIsNotCalledOut(wire: ScenarioRunner.Wire, platform: AccessEnablerConfiguration.Platform)
        async throws
    {
        let setup = try Setup(wire) { $0.platform = platform }
        defer { setup.stop() }
        #expect(await setup.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(setup.log.platformAdvice.isEmpty)
    }

    @Test func theConvenienceInitialiserLeavesThePlatformAtItsDefaultUnlessGiven() {
        var chosen = AccessEnablerConfiguration(environment: .staging, platform: .tvOS)
        #expect(chosen.platform == .tvOS && chosen.loginScreen == .secondScreen)
        chosen = AccessEnablerConfiguration(environment: .staging)
        #expect(chosen.platform == .iOS && chosen.loginScreen == .thisDevice)
        #expect(chosen.providerChoice == .onDevice)
    }

    @Test(arguments: bothWires)
    func anOptionTheSDKDoesNotUseIsReported(wire: ScenarioRunner.Wire) async throws {
        let setup = try Setup(wire) { $0.platform = .tvOS }
        defer { setup.stop() }
        #expect(
            await setup.call {
                $0.setOptions(["ap_vi": "visitor-7", "visitorId": "misspelt", "analytics": true, "handleSVC": false])
            } == [])
        #expect(setup.log.unusedOptions == ["analytics", "visitorId"])
        let message = try #require(
            setup.log.all.compactMap { if case .unusedOption("visitorId", let message) = $0 { message } else { nil } }
                .first)
        #expect(message.contains("visitorID") && message.contains("ap_vi") && message.contains("no effect"))
        // Options the SDK reads are never reported.
        #expect(
            await setup.call { $0.setOptions(["applicationProfile": "tv", "visitorID": "v", "device_info": ""]) } == [])
        #expect(setup.log.unusedOptions.count == 2)
    }

    @Test(arguments: bothWires)
    func apViIsTheVisitorIdentifier(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        #expect(
            await harness.call {
                $0.setOptions(["ap_vi": "visitor-android"])
                $0.setRequestor("REF30")
            } == ["setRequestorComplete(1)"])
        _ = await harness.call { $0.getAuthentication() }
        #expect(
            await harness.call { $0.setSelectedProvider("NotBoarded") } == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        let session = try #require(harness.capture.requests.first { $0.line == "POST /api/v2/REF30/sessions" })
        #expect(session.header("AP-Visitor-Identifier") == "visitor-android")
        // visitorID, the iOS spelling, wins when both are given.
        _ = await harness.call { $0.setOptions(["ap_vi": "android", "visitorID": "ios"]) }
        _ = await harness.call { $0.setSelectedProvider(nil) }
        _ = await harness.call { $0.getAuthentication() }
        _ = await harness.call { $0.setSelectedProvider("NotBoarded") }
        let second = try #require(harness.capture.requests.last { $0.line == "POST /api/v2/REF30/sessions" })
        #expect(second.header("AP-Visitor-Identifier") == "ios")
    }

    static var promotionalWorld: SandboxWorld {
        var world = SandboxWorld.default
        world.serviceProviders[0].mvpds.append(
            SandboxMVPDConfig(
                id: "Promo", displayName: "Promotional TempPass", tempPass: true, tempPassResourceLimit: 2,
                authenticationTTL: 86_400, authorizationTTL: 300))
        return world
    }

    @Test(arguments: bothWires)
    func theAsyncAPITakesThePromotionalTempPassIdentity(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire) { scenario in
            scenario.world = Self.promotionalWorld
            scenario.platform = .iOS
        }
        let ae = rig.accessEnabler
        let alice = ["email": "alice@example.com"]
        try await ae.configure(requestor: "REF30")
        guard case .chooseProvider = try await ae.authenticate(withData: alice) else {
            Issue.record("expected the provider dialog"); return
        }
        #expect(try await ae.selectProvider("Promo") == .authenticated)
        let token = try await ae.authorize("news", withData: alice)
        #expect(token.resource == "news")
        #expect(try await ae.mediaToken(for: "sports", withData: alice).resource == "sports")
        // The budget of two resources is spent: Adobe Pass counted them against alice's identity.
        await #expect(throws: AccessEnablerError.self) { try await ae.mediaToken(for: "movies", withData: alice) }
    }

    @Test(arguments: bothWires)
    func withoutTheIdentityThePromotionalTempPassIsRefused(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire) { scenario in
            scenario.world = Self.promotionalWorld
            scenario.platform = .iOS
        }
        let ae = rig.accessEnabler
        try await ae.configure(requestor: "REF30")
        guard case .chooseProvider = try await ae.authenticate() else {
            Issue.record("expected the provider dialog"); return
        }
        // Adobe Pass refuses the promotional TempPass's profile without the person's identity.
        let refusal = await #expect(throws: AccessEnablerError.self) { try await ae.selectProvider("Promo") }
        #expect(refusal?.status?.enhancedError?.code == "invalid_header_identity_for_temporary_access")
    }
}
