import AccessEnabler
import Foundation
import PassSandbox
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Measurement 3: wall time of the whole partner SSO sign-in over loopback HTTP — a fresh
/// AccessEnabler whose setRequestor silently exchanges the device's sign-in (register,
/// token, configuration, sessions/sso, profiles/sso) — against ``BareSSOClient`` making the
/// same five requests by hand. Runs alternate in one process against one server; the
/// ratio of medians is reported.
enum SSOLatencyMeasurement {
    static func run(pairs: Int, warmups: Int) async throws -> Benchmark.Section {
        let sandbox = PassSandbox(world: .default, clock: SandboxClock())
        let server = LoopbackHTTPServer(port: 0, handler: sandbox)
        try server.start()
        defer { server.shutdown() }
        guard let baseURL = server.baseURL else { throw BareSSOClient.Failure(description: "the server has no address") }
        sandbox.baseURLForLinks = baseURL
        let scratch = BenchmarkScratch("latency")
        defer { scratch.remove() }

        // One transport for every SDK run and one session for every bare run: both reuse
        // their kept-alive connections, as a running application would.
        let transport = URLSessionTransport()
        let session = BareSSOClient.makeSession()
        defer { session.invalidateAndCancel() }
        let bare = BareSSOClient(session: session, baseURL: baseURL, requestor: "REF30")
        let factory = BenchmarkClientFactory(baseURL: baseURL, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 10)

        var sdk = Sample()
        var handWritten = Sample()
        var sdkFailures = 0
        var bareFailures = 0
        var index = 0
        func signedInDevice() -> SimulatedPartnerFramework {
            SimulatedPartnerFramework(sandbox: sandbox, signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
        }
        func sdkRun() async -> Double? {
            index += 1
            let observer = BenchmarkObserver()
            let device = signedInDevice()
            let start = ProcessMetrics.wallSeconds()
            let client = factory.make(storage: scratch.storage("sdk-\(index)"), partner: device, transport: transport, observer: observer)
            client.setRequestor("REF30")
            await client.waitUntilIdle()
            let elapsed = ProcessMetrics.wallSeconds() - start
            // Proof the profile was stored (untimed).
            client.checkAuthentication()
            await client.waitUntilIdle()
            let state = observer.snapshot
            return state.requestorStatus == 1 && state.authenticationStatus == 1 ? elapsed : nil
        }
        func bareRun() async -> Double? {
            let device = signedInDevice()
            let start = ProcessMetrics.wallSeconds()
            do {
                try await bare.signIn(device: device)
            } catch {
                return nil
            }
            return ProcessMetrics.wallSeconds() - start
        }

        for _ in 0..<warmups {
            _ = await sdkRun()
            _ = await bareRun()
        }
        for pair in 0..<pairs {
            // Alternate which goes first, so neither always finds the other's warm caches.
            let sdkFirst = pair % 2 == 0
            let first = sdkFirst ? await sdkRun() : await bareRun()
            let second = sdkFirst ? await bareRun() : await sdkRun()
            let (sdkTime, bareTime) = sdkFirst ? (first, second) : (second, first)
            if let sdkTime { sdk.add(sdkTime * 1e3) } else { sdkFailures += 1 }
            if let bareTime { handWritten.add(bareTime * 1e3) } else { bareFailures += 1 }
        }
        let ratio: Double? = if let s = sdk.median, let b = handWritten.median, b > 0 { s / b } else { nil }
        var notes = [
            "\(pairs) alternating pairs after \(warmups) warm-up pairs; one LoopbackHTTPServer; SDK runs share one URLSessionTransport, bare runs one URLSession with the same configuration (both keep connections alive).",
            "SDK time: from creating the AccessEnabler (new storage, new device signed in to AppleBoarded) to waitUntilIdle() after setRequestorComplete(1); each run is then checked with checkAuthentication (untimed).",
            "Bare time: the same 5 requests with the same headers and bodies, the partner status and SAML answers from the same SimulatedPartnerFramework, JSONSerialization for the fields needed.",
        ]
        if sdkFailures + bareFailures > 0 { notes.append("failed runs: SDK \(sdkFailures), bare \(bareFailures)") }
        return Benchmark.Section(key: "ssoLatency", title: "3. Partner SSO sign-in over loopback HTTP: SDK vs bare URLSession", rows: [
            Benchmark.Row("SDK (AccessEnabler.setRequestor)", figures: [
                Benchmark.Figure("median", sdk.median, "ms"), Benchmark.Figure("p90", sdk.percentile(90), "ms"), Benchmark.Figure("runs", Double(sdk.count)),
            ]),
            Benchmark.Row("bare URLSession, by hand", figures: [
                Benchmark.Figure("median", handWritten.median, "ms"), Benchmark.Figure("p90", handWritten.percentile(90), "ms"),
                Benchmark.Figure("runs", Double(handWritten.count)),
            ]),
            Benchmark.Row("ratio SDK / bare (medians)", figures: [Benchmark.Figure("ratio", ratio)],
                          goal: "< 1.10", met: ratio.map { $0 < 1.10 && sdkFailures == 0 } ?? false),
        ], notes: notes)
    }
}
