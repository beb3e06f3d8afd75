import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// An app that releases its AccessEnabler while calls are under way (a request in flight,
/// calls queued behind it) still hears the end of every call, once, on its delegate — if
/// the delegate is alive: every call still waiting ends at once with its failure callback,
/// and nothing more is sent.
@Suite struct ReleasedAccessEnablerTests {
    /// With answers in 0.3 s, the first requests are in flight and the other calls queued
    /// behind them; with answers at once, the release finds the work at any stage.
    @Test(arguments: bothWires, [0.3, 0])
    func releasingTheAccessEnablerEndsEveryCallStillWaiting(wire: ScenarioRunner.Wire, latency: TimeInterval)
        async throws
    {
        let sandbox = PassSandbox(clock: SandboxClock())
        var server: LoopbackHTTPServer?
        defer { server?.shutdown() }
        let baseURL: URL
        switch wire {
        case .inProcess:
            baseURL = sandbox.baseURLForLinks
        case .loopbackHTTP:
            let (started, url) = try sandbox.serveOverLoopback()
            server = started
            baseURL = url
        }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-released-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        var configuration = AccessEnablerConfiguration(
            environment: .custom(baseURL), platform: .tvOS, storageDirectory: storage,
            callbackQueue: DispatchQueue(label: "released.callbacks"))
        configuration.loginScreen = .thisDevice
        configuration.clock = SandboxTimeSource(sandbox.clock)
        // Requests counted as the SDK starts them, not as they reach the sandbox: one sent just
        // before the release may arrive any time later on a busy machine.
        let meter = CountingTransport(wire == .inProcess ? sandbox.transport : CurlTransport())
        configuration.transport = meter
        let recorder = CallbackRecorder(revealSecrets: true)
        let ledger = CallLedger()
        var accessEnabler: AccessEnabler? = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler?.delegate = recorder
        accessEnabler?.statusDelegate = recorder
        ledger.follow(try #require(accessEnabler), instance: 0)
        // Signed in with TempPass (no page), so authorizations go to the network.
        accessEnabler?.setRequestor("REF30")
        accessEnabler?.getAuthentication()
        accessEnabler?.setSelectedProvider("TempPass")
        await accessEnabler?.waitUntilIdle()
        #expect(recorder.callbacks.contains { $0.callback == "setAuthenticationStatus" && $0["status"] == .number(1) })

        for endpoint in [SandboxEndpoint.authorize, .preauthorize, .configuration, .profiles] where latency > 0 {
            sandbox.inject(SandboxFault(latency: latency), into: endpoint)
        }
        ledger.beginAction(1)
        for index in 0..<80 {
            switch index % 8 {
            case 0: accessEnabler?.checkAuthorization("news")
            case 1: accessEnabler?.getAuthorization("sports")
            case 2: accessEnabler?.checkAuthentication()
            case 3: accessEnabler?.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION])
            case 4: accessEnabler?.checkPreauthorizedResources(["news", "premium"], cache: false)
            case 5:
                accessEnabler?.preauthorize(
                    PreauthorizeRequest.Builder().setResources(resources: ["news"]).build(),
                    didCompleteWith: AccessEnablerCallback(onResponse: { _ in }, onFailure: { _ in }))
            case 6: accessEnabler?.getSelectedProvider()
            default: accessEnabler?.setRequestor("REF30")
            }
        }
        accessEnabler = nil

        // Every call ends, at once (a generous bound for a loaded machine: nothing waits for the network).
        let giveUp = Date().addingTimeInterval(SanitizerTiming.scaled(60))
        while !ledger.problems(abandoned: []).isEmpty, Date() < giveUp { try await Task.sleep(nanoseconds: 10_000_000) }
        let problems = ledger.problems(abandoned: [])
        let neverEnded = problems.filter { $0.contains("never ended") }.count
        #expect(
            problems.isEmpty, "\(neverEnded) of 80 calls never ended: \(problems.prefix(3).joined(separator: "\n"))")
        #expect(ledger.callCount == 83)
        // Nothing more goes out once every call has ended: the requests in flight were the last.
        let startedWhenEveryCallHadEnded = meter.requests.count
        try await Task.sleep(nanoseconds: 500_000_000)
        let startedLater = meter.requests.dropFirst(startedWhenEveryCallHadEnded)
        #expect(startedLater.isEmpty, "requests started after every call had ended: \(Array(startedLater))")
    }
}
