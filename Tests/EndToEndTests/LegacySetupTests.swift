import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// What a legacy app's set-up gives the SDK is read as the app meant it, or said: a
/// `device_info` percent-encoded as Adobe's Android demo sends it, one that cannot be read,
/// a call made with no delegate to hear its answer, the legacy service-provider URLs.
@Suite struct LegacySetupTests {
    /// The client information of the options test, as Base64 JSON.
    static let deviceInfo = Data(
        #"{"model":"Living Room Box","version":"7","osName":"Android","osVersion":"14","connectionType":"WiFi"}"#.utf8
    )
    .base64EncodedString(options: .lineLength64Characters)

    /// Base64 through a URL encoder, as Adobe's Android demo sends it (`+`, `/`, `=` and the
    /// line breaks of Android's default Base64 percent-encoded).
    static func percentEncoded(_ base64: String) -> String {
        base64.replacingOccurrences(of: "\r\n", with: "\n").addingPercentEncoding(withAllowedCharacters: .alphanumerics)
            ?? base64
    }

    /// The `X-Device-Info` the last request carried, decoded.
    static func sentDeviceInfo(_ harness: RegularHarness) throws -> [String: Any] {
        let header = try #require(harness.capture.requests.last?.header("X-Device-Info"))
        let data = try #require(Data(base64Encoded: header))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: device_info

    @Test(arguments: bothWires)
    func aPercentEncodedDeviceInfoIsReadAsAdobesAndroidDemoSendsIt(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        let encoded = Self.percentEncoded(Self.deviceInfo)
        #expect(encoded.contains("%"), "the option really is percent-encoded: \(encoded)")
        #expect(
            await harness.call {
                $0.setOptions(["device_info": encoded])
                $0.setRequestor("REF30")
            } == ["setRequestorComplete(1)"])
        let sent = try Self.sentDeviceInfo(harness)
        #expect(sent["model"] as? String == "Living Room Box")
        #expect(sent["osName"] as? String == "Android")
    }

    @Test(arguments: bothWires)
    func aDeviceInfoThatCannotBeReadIsReportedNeverDroppedSilently(wire: ScenarioRunner.Wire) async throws {
        let setup = try SetupAdviceTests.Setup(wire) { $0.platform = .tvOS }
        defer { setup.stop() }
        #expect(await setup.call { $0.setOptions(["device_info": "%%% not base64 %%%"]) } == [])
        let message = try #require(
            setup.log.all.compactMap { if case .unusedOption("device_info", let message) = $0 { message } else { nil } }
                .first)
        #expect(message.contains("cannot read") && message.contains("X-Device-Info"))
        // Base64 that is not a JSON object, and a value of the wrong type, are said too.
        _ = await setup.call { $0.setOptions(["device_info": Data("plain text".utf8).base64EncodedString()]) }
        _ = await setup.call { $0.setOptions(["device_info": Data(#"{"model": 7}"#.utf8).base64EncodedString()]) }
        #expect(setup.log.unusedOptions == ["device_info", "device_info", "device_info"])
        // A readable one is not.
        _ = await setup.call { $0.setOptions(["device_info": Self.deviceInfo]) }
        #expect(setup.log.unusedOptions.count == 3)
    }

    // MARK: No delegate

    /// A delegate that adopts `EntitlementStatus` too (as most legacy delegates do).
    final class StatusAdoptingDelegate: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
        func setRequestorComplete(_ status: Int32) {}
        func status(_ status: AdvancedStatus) {}
    }

    @Test(arguments: bothWires)
    func aCallMadeWithNoDelegateIsReportedNamingTheCall(wire: ScenarioRunner.Wire) async throws {
        let setup = try SetupAdviceTests.Setup(wire) { $0.platform = .tvOS }
        defer { setup.stop() }
        // The likeliest first-hour bug: a delegate nothing keeps alive (delegates are weak).
        setup.accessEnabler.delegate = nil
        setup.accessEnabler.statusDelegate = nil
        setup.accessEnabler.setRequestor("REF30")
        setup.accessEnabler.checkAuthentication()
        await setup.accessEnabler.waitUntilIdle()
        #expect(setup.log.missingDelegates.map(\.call) == ["setRequestor(_:)", "checkAuthentication()"])
        let message = try #require(setup.log.missingDelegates.first?.message)
        #expect(
            message.contains("AccessEnabler.delegate is nil") && message.contains("setRequestorComplete")
                && message.contains("weakly"))
        // setOptions answers nothing; the async API needs no delegate.
        setup.accessEnabler.setOptions(["applicationProfile": "tv"])
        _ = try await setup.accessEnabler.authenticationStatus()
        #expect(setup.log.missingDelegates.count == 2)
    }

    @Test(arguments: bothWires)
    func aDelegateThatAdoptsEntitlementStatusWithNoStatusDelegateIsReported(wire: ScenarioRunner.Wire) async throws {
        let setup = try SetupAdviceTests.Setup(wire) { $0.platform = .tvOS }
        defer { setup.stop() }
        let delegate = StatusAdoptingDelegate()
        setup.accessEnabler.delegate = delegate
        setup.accessEnabler.statusDelegate = nil
        setup.accessEnabler.setRequestor("REF30")
        await setup.accessEnabler.waitUntilIdle()
        let report = try #require(setup.log.missingDelegates.first)
        #expect(report.call == "setRequestor(_:)")
        #expect(report.message.contains("statusDelegate is nil") && report.message.contains("StatusAdoptingDelegate"))
        setup.accessEnabler.statusDelegate = delegate
        setup.accessEnabler.setRequestor("REF30")
        await setup.accessEnabler.waitUntilIdle()
        #expect(setup.log.missingDelegates.count == 1)
        withExtendedLifetime(delegate) {}
    }

    // MARK: Environments and legacy service-provider URLs

    @Test func theEnvironmentsAreTheFourServersOfAdobesAPIDescriptions() {
        #expect(AccessEnablerConfiguration.Environment.production.baseURL.absoluteString == "https://sp.auth.adobe.com")
        #expect(
            AccessEnablerConfiguration.Environment.staging.baseURL.absoluteString == "https://sp.auth-staging.adobe.com"
        )
        #expect(
            AccessEnablerConfiguration.Environment.prequalProduction.baseURL.absoluteString
                == "https://sp-prequal.auth.adobe.com")
        #expect(
            AccessEnablerConfiguration.Environment.prequalStaging.baseURL.absoluteString
                == "https://sp-prequal.auth-staging.adobe.com")
        #expect(AccessEnablerConfiguration().environment == .production)
    }

    /// Production itself, served in-process by a sandbox: the legacy constant, the
    /// documentation's `http://…/` form and a bare host name all name the configured
    /// environment, with its client registration (no second one).
    @Test(arguments: [
        "https://sp.auth.adobe.com", "http://sp.auth.adobe.com/", "sp.auth.adobe.com", "HTTPS://SP.AUTH.ADOBE.COM/",
    ])
    func aLegacyServiceProviderURLWorksAsWritten(written: String) async throws {
        let sandbox = PassSandbox()
        let production = AccessEnablerConfiguration.Environment.production.baseURL
        sandbox.baseURLForLinks = production
        let capture = RequestCapture(RoutingTransport(routes: [(production.host!, sandbox.inProcessTransport)]))
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-sp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        var configuration = AccessEnablerConfiguration(
            environment: .production, platform: .tvOS, storageDirectory: storage, transport: capture,
            clock: SandboxTimeSource(sandbox.clock))
        configuration.loginScreen = .thisDevice
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        let recorder = CallbackRecorder(revealSecrets: true)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        accessEnabler.setRequestor("REF30", serviceProviders: [written])
        await accessEnabler.waitUntilIdle()
        #expect(recorder.takeSignatures() == ["setRequestorComplete(1)"])
        #expect(
            capture.requests.allSatisfy { $0.url.absoluteString.hasPrefix("https://sp.auth.adobe.com/") },
            "\(capture.requests.map(\.url))")
        #expect(capture.lines == ["POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles"])
        accessEnabler.checkAuthorization("news")
        accessEnabler.getAuthentication()
        await accessEnabler.waitUntilIdle()
        #expect(
            capture.lines.filter { $0.hasPrefix("POST /o/client") }.count == 2,
            "one registration for the environment and the URL")
    }

    @Test(arguments: bothWires)
    func aServiceProviderThatIsNoURLAtAllIsStillCFG404(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(
            await rig.call { $0.setRequestor("REF30", serviceProviders: ["ftp://sp.example"]) } == [
                "status(CFG404,error)", "setRequestorComplete(0)",
            ])
        #expect(
            await rig.call { $0.setRequestor("REF30", serviceProviders: ["   "]) } == [
                "status(CFG404,error)", "setRequestorComplete(0)",
            ])
        #expect(rig.restCalls.isEmpty)
    }
}
