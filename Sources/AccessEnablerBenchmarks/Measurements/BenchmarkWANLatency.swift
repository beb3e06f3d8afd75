import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Measurement 7: the flows over loopback HTTP with a fixed delay added to every round trip
/// by ``DelayingLoopbackProxy``, as on a wide-area network. Each flow's latency divided by
/// the delay gives the round trips it cost (`RTTs`), held against the round trips it needs
/// when the requests that can overlap do (`minimum`).
enum WANLatencyMeasurement {
    /// The delay added to every round trip, in seconds.
    static let addedDelay = 0.050

    /// One flow: its label, the round trips it needs and the requests it makes.
    struct Flow: Sendable {
        var label: String
        var minimum: Int
        var requests: Int
    }

    /// The flows, in report order. Requests that overlap share a round trip: the two logouts.
    /// setRequestor asks no configuration; the partner SSO sign-in asks it once Adobe Pass has
    /// said no profile is in force (its profiles answer), then exchanges the system sign-in.
    static let flows = [
        Flow(label: "setRequestor, warm", minimum: 1, requests: 1),
        Flow(label: "setRequestor, cold", minimum: 3, requests: 3),
        Flow(label: "partner SSO sign-in", minimum: 6, requests: 6),
        Flow(label: "authorization", minimum: 1, requests: 1),
        Flow(label: "logout with two profiles", minimum: 1, requests: 2),
    ]

    /// The goal's slack: a flow may take this much of a round trip more than its minimum
    /// (the SDK's own work, the scheduler).
    static let slack = 0.25

    /// Runs `warmups` undelayed rounds, then `rounds` rounds of every flow with the delay on.
    static func run(rounds: Int, warmups: Int) async throws -> Benchmark.Section {
        let sandbox = PassSandbox(world: .default, clock: SandboxClock())
        let (server, serverURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        guard let port = serverURL.port.flatMap(UInt16.init(exactly:)) else {
            throw DelayingLoopbackProxy.Failure(description: "no server port")
        }
        let proxy = try DelayingLoopbackProxy(upstreamPort: port)
        defer { proxy.shutdownAll() }
        let scratch = BenchmarkScratch("wan")
        defer { scratch.remove() }
        // One transport for every client: its kept-alive connections stay open through the
        // proxy between flows, as in an app.
        let transport = CountingTransport(CurlTransport())
        let factory = BenchmarkClientFactory(
            baseURL: proxy.baseURL, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 10)
        let run = RoundRunner(sandbox: sandbox, proxy: proxy, transport: transport, factory: factory, scratch: scratch)

        for _ in 0..<warmups { _ = await run.round(delay: 0) }
        var latencies: [String: Sample] = [:]
        var requests: [String: Set<Int>] = [:]
        var failures: [String: Int] = [:]
        for _ in 0..<max(1, rounds) {
            for (label, outcome) in await run.round(delay: addedDelay) {
                if let seconds = outcome.seconds {
                    latencies[label, default: Sample()].add(seconds)
                    requests[label, default: []].insert(outcome.requests)
                } else {
                    failures[label, default: 0] += 1
                }
            }
        }

        var rows: [Benchmark.Row] = []
        for flow in flows {
            let median = latencies[flow.label]?.median
            let rtts = median.map { $0 / addedDelay }
            let counted = requests[flow.label] ?? []
            var notes: [String] = []
            if let failed = failures[flow.label] { notes.append("\(failed) run(s) did not end as expected") }
            if counted != [flow.requests] {
                notes.append(
                    "requests: \(counted.sorted().map(String.init).joined(separator: ", ")) (expected \(flow.requests))"
                )
            }
            rows.append(
                Benchmark.Row(
                    flow.label,
                    figures: [
                        Benchmark.Figure("RTTs", rtts), Benchmark.Figure("minimum", Double(flow.minimum)),
                        Benchmark.Figure("requests", counted.count == 1 ? counted.first.map(Double.init) : nil),
                        Benchmark.Figure("median", median.map { $0 * 1e3 }, "ms"),
                    ],
                    goal: "≤ \(String(format: "%.2f", Double(flow.minimum) + slack))",
                    met: rtts.map { $0 <= Double(flow.minimum) + slack } == true && failures[flow.label] == nil,
                    note: notes.isEmpty ? nil : notes.joined(separator: "; ")))
        }
        let within = rows.filter { $0.met == true }.count
        return Benchmark.Section(
            key: "wanLatency",
            title:
                "7. Latency with \(Int(addedDelay * 1e3)) ms added to every round trip (goal: RTTs ≤ minimum + \(slack))",
            rows: rows,
            notes: [
                "A delaying TCP proxy on loopback holds every byte the client sends for \(Int(addedDelay * 1e3)) ms "
                    + "before forwarding it to the sandbox's HTTP server, and passes answers back at once; each "
                    + "connection of the SDK's one CurlTransport (the default) is a connection through the proxy "
                    + "(kept alive between flows), so requests on two connections overlap.",
                "RTTs = the median latency of \(max(1, rounds)) run(s) ÷ \(Int(addedDelay * 1e3)) ms, from the call until its terminal callback reaches the delegate (setRequestorComplete(1), setToken, setAuthenticationStatus(0)); it includes the SDK's own time. Set-up runs with no delay.",
                "Minimum: warm setRequestor = profiles (1); cold = register, token, profiles (3); partner SSO sign-in at setRequestor = cold + configuration (asked once the profiles say none is in force: the partner framework needs the supported providers) + sessions/sso + profiles/sso (6); authorization = decisions/authorize (1); logout with two MVPDs' profiles = logout ∥ logout (1).",
            ],
            goals: [
                Benchmark.Goal(
                    "WAN latency: round trips within \(slack) of the minimum",
                    Benchmark.Figure("flows within", Double(within), "of \(rows.count)"),
                    goal: "all \(rows.count)", met: within == rows.count)
            ])
    }
}

/// One round of the five flows; the delay is on only while a flow is timed.
private struct RoundRunner {
    struct Outcome {
        /// Seconds from the call to the terminal callback; `nil` when the flow did not end as expected.
        var seconds: Double?
        var requests: Int
    }

    let sandbox: PassSandbox
    let proxy: DelayingLoopbackProxy
    let transport: CountingTransport
    let factory: BenchmarkClientFactory
    let scratch: BenchmarkScratch

    func round(delay: Double) async -> [(String, Outcome)] {
        var outcomes: [(String, Outcome)] = []
        let coldStorage = scratch.storage("cold-\(UUID().uuidString)")
        // A launch: a new AccessEnabler over `coldStorage`, timed until setRequestorComplete(1).
        let launch = { [factory, transport] in
            await timed(delay) { observer in
                let client = factory.make(storage: coldStorage, partner: nil, transport: transport, observer: observer)
                client.setRequestor("REF30")
                return client
            } end: {
                $0.requestorStatus == 1 ? $0.requestorCompletedAt : nil
            }.outcome
        }
        let cold = await launch()
        // A relaunch over the same storage.
        let warm = await launch()
        outcomes.append(("setRequestor, warm", warm))
        outcomes.append(("setRequestor, cold", cold))

        let device = SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
        let sso = await timed(delay) { observer in
            let client = factory.make(
                storage: scratch.storage("sso-\(UUID().uuidString)"), partner: device, transport: transport,
                observer: observer)
            client.setRequestor("REF30")
            return client
        } end: {
            $0.requestorStatus == 1 ? $0.requestorCompletedAt : nil
        }
        outcomes.append(("partner SSO sign-in", sso.outcome))

        let authorization = await timed(delay, observer: sso.observer) { _ in
            sso.client.checkAuthorization("news")
            return sso.client
        } end: {
            $0.tokens == 1 ? $0.tokenAnsweredAt : nil
        }
        outcomes.append(("authorization", authorization.outcome))

        outcomes.append(("logout with two profiles", await logoutOfTwoProfiles(delay: delay)))
        return outcomes
    }

    /// Signs one device in to two MVPDs through their login pages (no delay), then times
    /// its logout.
    private func logoutOfTwoProfiles(delay: Double) async -> Outcome {
        let observer = BenchmarkObserver()
        let client = factory.make(
            storage: scratch.storage("logout-\(UUID().uuidString)"), partner: nil, transport: transport,
            observer: observer)
        client.setRequestor("REF30")
        await client.waitUntilIdle()
        let person = SimulatedUserAgent(sandbox: sandbox)
        for (index, (mvpd, username, password)) in [
            ("NotBoarded", "alice", "alice123"), ("SVCProvider", "bob", "bob123"),
        ].enumerated() {
            observer.reset()
            client.getAuthentication(index > 0, withData: nil)
            await client.waitUntilIdle()
            client.setSelectedProvider(mvpd)
            await client.waitUntilIdle()
            guard let page = observer.snapshot.navigation,
                let landing = try? await person.login(
                    startingAt: page, username: username, password: password,
                    redirectPrefix: client.configuration.redirectURL)
            else { return Outcome(seconds: nil, requests: 0) }
            client.handleExternalURL(landing)
            await client.waitUntilIdle()
            guard observer.snapshot.authenticationStatus == 1 else { return Outcome(seconds: nil, requests: 0) }
        }
        return await timed(delay, observer: observer) { _ in
            client.logout()
            return client
        } end: {
            $0.authenticationStatus == 0 ? $0.authenticationStatusAt : nil
        }.outcome
    }

    /// Turns the delay on, starts the flow, waits until the client is idle, turns it off;
    /// the latency runs from the start to the moment `end` reads from the observer.
    private func timed(
        _ delay: Double, observer given: BenchmarkObserver? = nil, _ start: (BenchmarkObserver) -> AccessEnabler,
        end: (BenchmarkObserver.State) -> Double?
    ) async -> (outcome: Outcome, client: AccessEnabler, observer: BenchmarkObserver) {
        let observer = given ?? BenchmarkObserver()
        observer.reset()
        transport.reset()
        proxy.delay = delay
        let began = ProcessMetrics.wallSeconds()
        let client = start(observer)
        await client.waitUntilIdle()
        proxy.delay = 0
        let ended = end(observer.snapshot)
        return (Outcome(seconds: ended.map { $0 - began }, requests: transport.count), client, observer)
    }
}
