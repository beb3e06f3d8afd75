import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Measurement 2: process CPU time around `call + waitUntilIdle()` per flow, in-process
/// transport, median over many runs — once live (the in-process sandbox and simulated
/// device answer, so their CPU is included) and once replaying recorded answers (the SDK
/// alone, plus a lock and an array read per answer). checkAuthentication is measured next
/// to its floor (``CheckAuthenticationFloor``), timed the same way in the same run, and its
/// goals are ratios to the floor.
final class CPUTimeMeasurement: @unchecked Sendable {
    /// The flows, in report order.
    enum Flow: String, CaseIterable {
        case coldRequestor = "setRequestor, cold (empty storage)"
        case warmRequestor = "setRequestor, warm (after relaunch)"
        case checkAuthentication = "checkAuthentication, interleaved"
        case checkAuthenticationBackToBack = "checkAuthentication, back-to-back"
        case checkAuthenticationFloor = "checkAuthentication floor, interleaved"
        case checkAuthenticationFloorBackToBack = "checkAuthentication floor, back-to-back"
        case ssoAuthentication = "getAuthentication via partner SSO (picker)"
        case loginPage = "getAuthentication via login page (SDK calls only)"
        case authorization = "checkAuthorization"
        case repeatedPreauthorization = "checkPreauthorizedResources, repeated"
        case logout = "logout"
    }

    private let sandbox = PassSandbox(world: .default, clock: SandboxClock())
    private let tape = ReplayTape()
    private let scratch = BenchmarkScratch("cpu")
    private let factory: BenchmarkClientFactory
    private var samples: [ReplayTape.Mode: [Flow: Sample]] = [:]
    private var wrongOutcomes: [ReplayTape.Mode: [Flow: Int]] = [:]
    private var recordedLanding: String?
    private var coldCounter = 0

    // The long-lived clients: one signing in through partner SSO, one through the login page,
    // one whose storage the warm relaunches reuse.
    private let ssoDevice: SimulatedPartnerFramework
    private let ssoObserver = BenchmarkObserver()
    private var ssoClient: AccessEnabler!
    private let loginObserver = BenchmarkObserver()
    private var loginClient: AccessEnabler!
    private let warmStorage: URL
    /// The floor of checkAuthentication, asking the same device (through the same tape).
    private var floor: CheckAuthenticationFloor!

    init() {
        factory = BenchmarkClientFactory(
            baseURL: sandbox.baseURLForLinks, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 5)
        ssoDevice = SimulatedPartnerFramework(sandbox: sandbox)
        warmStorage = scratch.storage("warm")
    }

    deinit { scratch.remove() }

    private var transport: any HTTPTransport { ReplayingTransport(live: sandbox.inProcessTransport, tape: tape) }

    private func partner(_ device: SimulatedPartnerFramework) -> any PartnerFramework {
        ReplayingPartnerFramework(live: device, tape: tape)
    }

    /// Runs `warmups` untimed cycles, `cycles` timed live cycles, one recording cycle and
    /// `cycles` timed replayed cycles.
    static func run(cycles: Int, warmups: Int) async -> Benchmark.Section {
        let measurement = CPUTimeMeasurement()
        await measurement.prepare()
        for _ in 0..<warmups { await measurement.cycle(.live, timed: false) }
        for _ in 0..<cycles { await measurement.cycle(.live, timed: true) }
        await measurement.backToBack(.live, count: cycles)
        await measurement.cycle(.recording, timed: false)
        for _ in 0..<cycles { await measurement.cycle(.replaying, timed: true) }
        await measurement.backToBack(.replaying, count: cycles)
        return measurement.section(cycles: cycles)
    }

    private func prepare() async {
        ssoClient = factory.make(
            storage: scratch.storage("sso"), partner: partner(ssoDevice), transport: transport, observer: ssoObserver)
        loginClient = factory.make(
            storage: scratch.storage("login"), partner: nil, transport: transport, observer: loginObserver)
        let warm = factory.make(
            storage: warmStorage, partner: partner(SimulatedPartnerFramework(sandbox: sandbox)), transport: transport,
            observer: BenchmarkObserver())
        tape.begin("prepare", .live)
        for client in [ssoClient!, loginClient!, warm] {
            client.setRequestor("REF30")
            await client.waitUntilIdle()
        }
        let clock = sandbox.clock
        floor = CheckAuthenticationFloor(
            published: .init(provider: "AppleBoarded", expiresAt: clock.now.addingTimeInterval(86_400)),
            partner: partner(ssoDevice),
            supportedProviders: ["AppleBoarded"], clock: { clock.now })
    }

    /// One pass over every flow.
    private func cycle(_ mode: ReplayTape.Mode, timed: Bool) async {
        // Cold: a new AccessEnabler over an empty directory (made and removed untimed).
        coldCounter += 1
        let coldStorage = scratch.storage("cold-\(coldCounter)")
        let coldObserver = BenchmarkObserver()
        let cold = factory.make(
            storage: coldStorage, partner: partner(SimulatedPartnerFramework(sandbox: sandbox)), transport: transport,
            observer: coldObserver)
        await measure(.coldRequestor, mode, timed, cold, coldObserver) {
            $0.setRequestor("REF30")
        } check: {
            $0.requestorStatus == 1
        }
        try? FileManager.default.removeItem(at: coldStorage)

        // Warm: a relaunch over storage that already holds the DCR credentials and token.
        let warmObserver = BenchmarkObserver()
        let warm = factory.make(
            storage: warmStorage, partner: partner(SimulatedPartnerFramework(sandbox: sandbox)), transport: transport,
            observer: warmObserver)
        await measure(.warmRequestor, mode, timed, warm, warmObserver) {
            $0.setRequestor("REF30")
        } check: {
            $0.requestorStatus == 1
        }

        // Partner SSO through the picker, then what an app does with the profile.
        ssoDevice.signedIn = nil
        ssoDevice.picker = [.select(provider: "AppleBoarded", user: "alice")]
        await measure(.ssoAuthentication, mode, timed, ssoClient, ssoObserver) {
            $0.getAuthentication()
        } check: {
            $0.authenticationStatus == 1
        }
        // The check and its floor, in alternating order: each comes first, right after the
        // sign-in, in every other cycle, so neither always finds the threads the other woke.
        let checkFirst = coldCounter % 2 == 0
        if !checkFirst { await measureFloor(.checkAuthenticationFloor, mode, timed) }
        await measure(.checkAuthentication, mode, timed, ssoClient, ssoObserver) {
            $0.checkAuthentication()
        } check: {
            $0.authenticationStatus == 1
        }
        if checkFirst { await measureFloor(.checkAuthenticationFloor, mode, timed) }
        await measure(.authorization, mode, timed, ssoClient, ssoObserver) {
            $0.checkAuthorization("news")
        } check: {
            $0.tokens == 1
        }
        tape.begin("preauthorization, first", mode)
        ssoClient.checkPreauthorizedResources(["news", "sports", "movies"], cache: true)
        await ssoClient.waitUntilIdle()
        await measure(.repeatedPreauthorization, mode, timed, ssoClient, ssoObserver) {
            $0.checkPreauthorizedResources(["news", "sports", "movies"], cache: true)
        } check: {
            $0.preauthorized != nil
        }
        await measure(.logout, mode, timed, ssoClient, ssoObserver) {
            $0.logout()
        } check: {
            $0.authenticationStatus == 0
        }

        await loginPageCycle(mode, timed)
    }

    /// checkAuthentication `count` times in a row on a signed-in client (an app polling
    /// the state), between an untimed sign-in and an untimed logout.
    private func backToBack(_ mode: ReplayTape.Mode, count: Int) async {
        ssoDevice.signedIn = nil
        ssoDevice.picker = [.select(provider: "AppleBoarded", user: "alice")]
        await measure(.ssoAuthentication, mode, false, ssoClient, ssoObserver) {
            $0.getAuthentication()
        } check: {
            $0.authenticationStatus == 1
        }
        for _ in 0..<count {
            // The same tape as the interleaved checkAuthentication: the same answers.
            tape.begin(Flow.checkAuthentication.rawValue, mode)
            ssoObserver.reset()
            let cpu = await cpuTime(ssoClient) { $0.checkAuthentication() }
            record(
                .checkAuthenticationBackToBack, mode, true, cpu,
                succeeded: ssoObserver.snapshot.authenticationStatus == 1)
        }
        for _ in 0..<count { await measureFloor(.checkAuthenticationFloorBackToBack, mode, true) }
        await measure(.logout, mode, false, ssoClient, ssoObserver) {
            $0.logout()
        } check: {
            $0.authenticationStatus == 0
        }
    }

    /// getAuthentication → displayProviderDialog, setSelectedProvider → navigateToUrl, the
    /// user agent logs in (untimed: it is not the SDK), handleExternalURL → profile. The
    /// three SDK parts add up to one sample. Logout afterwards, untimed.
    private func loginPageCycle(_ mode: ReplayTape.Mode, _ timed: Bool) async {
        let flow = Flow.loginPage
        tape.begin(flow.rawValue, mode)
        loginObserver.reset()
        var cpu = await cpuTime(loginClient) { $0.getAuthentication() }
        cpu += await cpuTime(loginClient) { $0.setSelectedProvider("NotBoarded") }
        var landing: String?
        if mode == .replaying {
            landing = recordedLanding
        } else if let url = loginObserver.snapshot.navigation {
            landing = try? await SimulatedUserAgent(sandbox: sandbox).login(
                startingAt: url, username: "alice", password: "alice123",
                redirectPrefix: loginClient.configuration.redirectURL)
            if mode == .recording { recordedLanding = landing }
        }
        if let landing {
            cpu += await cpuTime(loginClient) { $0.handleExternalURL(landing) }
        }
        let state = loginObserver.snapshot
        record(flow, mode, timed, cpu, succeeded: state.providerDialogs == 1 && state.authenticationStatus == 1)
        tape.begin("login page logout", mode)
        loginClient.logout()
        await loginClient.waitUntilIdle()
    }

    private func measure(
        _ flow: Flow, _ mode: ReplayTape.Mode, _ timed: Bool, _ client: AccessEnabler, _ observer: BenchmarkObserver,
        _ call: (AccessEnabler) -> Void, check: (BenchmarkObserver.State) -> Bool
    ) async {
        tape.begin(flow.rawValue, mode)
        observer.reset()
        let cpu = await cpuTime(client, call)
        record(flow, mode, timed, cpu, succeeded: check(observer.snapshot))
    }

    /// The floor's check, timed as the SDK's: from the call until the waiting caller has the
    /// callback; it reads the same tape as the SDK's checkAuthentication.
    private func measureFloor(_ flow: Flow, _ mode: ReplayTape.Mode, _ timed: Bool) async {
        tape.begin(Flow.checkAuthentication.rawValue, mode)
        let start = ProcessMetrics.cpuSeconds()
        let status = await floor.checkAndWait()
        record(flow, mode, timed, ProcessMetrics.cpuSeconds() - start, succeeded: status == 1)
    }

    private func cpuTime(_ client: AccessEnabler, _ call: (AccessEnabler) -> Void) async -> Double {
        let start = ProcessMetrics.cpuSeconds()
        call(client)
        await client.waitUntilIdle()
        return ProcessMetrics.cpuSeconds() - start
    }

    private func record(_ flow: Flow, _ mode: ReplayTape.Mode, _ timed: Bool, _ cpu: Double, succeeded: Bool) {
        if !succeeded { wrongOutcomes[mode, default: [:]][flow, default: 0] += 1 }
        if timed { samples[mode, default: [:]][flow, default: Sample()].add(cpu * 1e6) }
    }

    private func section(cycles: Int) -> Benchmark.Section {
        let rows = Flow.allCases.map { flow -> Benchmark.Row in
            let live = samples[.live]?[flow]
            let replayed = samples[.replaying]?[flow]
            var notes: [String] = []
            for (mode, name) in [(ReplayTape.Mode.live, "live"), (.recording, "recording"), (.replaying, "replayed")] {
                if let wrong = wrongOutcomes[mode]?[flow], wrong > 0 {
                    notes.append("\(wrong) \(name) run(s) ended wrongly")
                }
            }
            var row = Benchmark.Row(
                flow.rawValue,
                figures: [
                    Benchmark.Figure("live median", live?.median, "µs"),
                    Benchmark.Figure("live p90", live?.percentile(90), "µs"),
                    Benchmark.Figure("SDK-only median", replayed?.median, "µs"),
                    Benchmark.Figure("SDK-only p90", replayed?.percentile(90), "µs"),
                ], note: notes.isEmpty ? nil : notes.joined(separator: "; "))
            if let floorFlow = Self.floors[flow] {
                let ratio = self.ratio(flow, to: floorFlow)
                row.goal = "≤ \(Self.floorMultiple) × floor (SDK-only medians)"
                row.met = met(flow, ratio)
            }
            return row
        }
        var notes = [
            "CPU = CLOCK_PROCESS_CPUTIME_ID (every thread of the process) around call + waitUntilIdle(), \(cycles) timed runs per flow and column.",
            "live: the in-process PassSandbox answers, so its CPU (routing, JSON, HMAC, SAML) and the simulated device's are included.",
            "SDK-only: the same flow replaying the sandbox's and the device's recorded answers; what remains is the SDK (plus the callback queue hop and a trivial delegate).",
            "checkAuthentication: an appleSSO profile, so each call also asks the partner framework (permission, then account); interleaved = one call per cycle among the other flows, back-to-back = \(cycles) calls in a row.",
            "checkAuthentication floor: a program doing only what such a check cannot avoid (read the published state under a lock, ask the partner framework's two silent questions through the same tape, deliver one callback on a serial callback queue to a waiting caller), timed the same way (interleaved: one per cycle, before the SDK's check in every other cycle and after it in the others; back-to-back: \(cycles) in a row after the SDK's); the goals hold the SDK-only median as a multiple of the floor's.",
            "The login-page row adds getAuthentication + setSelectedProvider + handleExternalURL; the simulated user agent's page loads are not counted.",
        ]
        if tape.misses > 0 {
            notes.append("replay misses: \(tape.misses) (a replayed flow asked for something not recorded)")
        }
        let goals = [Flow.checkAuthenticationBackToBack, .checkAuthentication].compactMap { flow -> Benchmark.Goal? in
            guard let floorFlow = Self.floors[flow] else { return nil }
            let ratio = ratio(flow, to: floorFlow)
            return Benchmark.Goal(
                flow.rawValue, Benchmark.Figure("SDK-only median / floor's", ratio), goal: "≤ \(Self.floorMultiple)",
                met: met(flow, ratio))
        }
        return Benchmark.Section(
            key: "cpuPerFlow", title: "2. CPU time per flow (in-process transport)", rows: rows, notes: notes,
            goals: goals)
    }

    /// The flows held against a floor, with their floor.
    static let floors: [Flow: Flow] = [
        .checkAuthenticationBackToBack: .checkAuthenticationFloorBackToBack,
        .checkAuthentication: .checkAuthenticationFloor,
    ]

    /// The most the SDK-only median may be, as a multiple of its floor's.
    static let floorMultiple = 1.3

    /// The SDK-only median of `flow` over the replayed median of `floor`.
    private func ratio(_ flow: Flow, to floor: Flow) -> Double? {
        guard let sdk = samples[.replaying]?[flow]?.median, let least = samples[.replaying]?[floor]?.median, least > 0
        else { return nil }
        return sdk / least
    }

    /// Whether `flow` met its goal (`ratio` to its floor), with every run of it and of its
    /// floor ending as expected.
    private func met(_ flow: Flow, _ ratio: Double?) -> Bool {
        guard let ratio, let floor = Self.floors[flow] else { return false }
        let wrong = [ReplayTape.Mode.live, .recording, .replaying].reduce(0) {
            $0 + (wrongOutcomes[$1]?[flow] ?? 0) + (wrongOutcomes[$1]?[floor] ?? 0)
        }
        return ratio <= Self.floorMultiple && wrong == 0
    }
}
