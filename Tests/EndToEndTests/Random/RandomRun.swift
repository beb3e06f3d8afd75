import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// One seeded random run of the facade against PassSandbox: calls in any order (every facade
/// call, logout, setRequestor and setSelectedProvider(nil) included, on iOS and tvOS, the
/// second screen included), bursts fired without waiting, server faults (5xx, 429, a `retry`
/// error, malformed, oversized or dropped answers, latency), relaunches over the same
/// storage, moves of the clock, and async API calls cancelled at any moment.
///
/// With ``Clock/manual`` the sandbox and the SDK share a manual clock and the SDK talks to
/// the sandbox in-process; settling moves the clock through each back-off, as the scenario
/// runner does. With ``Clock/wall`` both read the wall clock, the SDK waits on real dispatch
/// timers (``SystemSleeper``) and talks HTTP over loopback: back-offs are waited out in real
/// time, so this mode draws few of them.
///
/// Every wait is bounded; ``run()`` returns the problems found (a call ending twice or never,
/// a settle that did not end within its bound), each naming the seed and the action.
final class RandomRun: @unchecked Sendable {
    enum Clock: String, Sendable {
        case manual, wall
    }

    struct Settings: Sendable {
        var seed: UInt64
        var actions: Int
        var clock: Clock
    }

    private let settings: Settings
    private var random: SeededGenerator
    private let sandbox: PassSandbox
    private var server: LoopbackHTTPServer?
    private let baseURL: URL
    private let storage: URL
    private let ledger = CallLedger()
    private let recorder = CallbackRecorder(revealSecrets: true)
    private let callbackQueue = DispatchQueue(label: "random-run.callbacks")
    private let device: SimulatedPartnerFramework?
    private let platform: AccessEnablerConfiguration.Platform
    private let loginScreen: AccessEnablerConfiguration.LoginScreen
    private var accessEnabler: AccessEnabler!
    private var instance = -1
    /// Instances the app quit while calls of theirs waited for a person.
    private var abandoned: Set<Int> = []
    private var asyncCalls: [Task<Void, Never>] = []
    /// Faults that make the SDK wait a second or more (429, `retry`) still allowed: on the
    /// wall clock each costs real time.
    private var slowFaultsLeft: Int
    private var problems: [String] = []
    /// What the run did, for the report of a failure.
    private var actions: [String] = []

    init(_ settings: Settings) throws {
        self.settings = settings
        var random = SeededGenerator(seed: settings.seed)
        let clock: SandboxClock = settings.clock == .manual ? SandboxClock() : .system
        sandbox = PassSandbox(clock: clock)
        switch settings.clock {
        case .manual:
            baseURL = sandbox.baseURLForLinks
        case .wall:
            let (server, url) = try sandbox.serveOverLoopback()
            self.server = server
            baseURL = url
        }
        storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-random-\(settings.seed)-\(UUID().uuidString)")
        platform = random.chance(0.5) ? .tvOS : .iOS
        loginScreen = random.chance(0.5) ? .secondScreen : .thisDevice
        slowFaultsLeft = settings.clock == .manual ? 6 : 1
        if random.chance(0.4) {
            let device = SimulatedPartnerFramework(sandbox: sandbox)
            device.accessStatus = random.pick(SimulatedAccessStatus.allCases)
            device.promptAnswer = random.pick([.granted, .denied, .notDetermined])
            device.picker = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.pickerChoice(&random) }
            self.device = device
        } else {
            device = nil
        }
        self.random = random
    }

    deinit {
        server?.shutdown()
        try? FileManager.default.removeItem(at: storage)
    }

    /// The run's header for a report: seed, clock, platform, login screen, partner framework.
    var label: String {
        "seed \(settings.seed), \(settings.clock) clock, \(platform.rawValue), \(loginScreen.rawValue), \(device == nil ? "no partner framework" : "partner framework")"
    }

    /// How many facade calls the run made.
    var callCount: Int { ledger.callCount }

    /// Runs the actions, ends what is left open, and returns every problem found.
    func run() async -> [String] {
        relaunch()
        call("setRequestor(REF30)") { $0.setRequestor("REF30") }
        for index in 0..<settings.actions {
            ledger.beginAction(index)
            await act(index)
        }
        ledger.beginAction(settings.actions)
        // The person backs out of whatever still waits for them: every flow ends.
        call("setSelectedProvider(nil)") { $0.setSelectedProvider(nil) }
        await settle(after: "the final setSelectedProvider(nil)")
        for task in asyncCalls {
            let ended = await whileProgressing(accessEnabler, quiescenceIsProgress: false) { await task.value }
            if !ended {
                problems.append(
                    "an async call had not returned when the SDK had made no progress for \(Int(stallBound)) s")
            }
        }
        await settle(after: "the async calls")
        let found = problems + ledger.problems(abandoned: abandoned)
        guard !found.isEmpty else { return [] }
        return found.map { "\(label): \($0)" } + [
            "\(label): actions: " + actions.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: "; ")
        ]
    }

    // MARK: Actions

    private func act(_ index: Int) async {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<40:
            oneCall()
        case 40..<55:
            // A burst: several calls back to back, nobody waiting in between.
            for _ in 0..<Int.random(in: 2...6, using: &random) { oneCall() }
        case 55..<70:
            await settle(after: "action \(index)")
        case 70..<76:
            await logIn()
        case 76..<84:
            injectFault()
        case 84..<88:
            if settings.clock == .manual {
                let seconds = random.pick([1.0, 5, 30, 400, 3_600, 100_000])
                actions.append("advanceClock(\(Int(seconds)))")
                sandbox.clock.advance(by: seconds)
            }
        case 88..<92:
            await relaunchAfterSettling()
        default:
            asyncCallCancelled()
        }
    }

    /// One facade call, drawn at random.
    private func oneCall() {
        let mvpds = [
            "AppleBoarded", "PickerOnly", "NotBoarded", "SSODisabled", "Degraded", "TempPass", "SVCProvider", "Unknown",
        ]
        let resources = ["news", "sports", "premium", "unknown"]
        switch Int.random(in: 0..<22, using: &random) {
        case 0: call("setRequestor(REF30)") { $0.setRequestor("REF30") }
        case 1: call("setRequestor(NOPE)") { $0.setRequestor("NOPE") }
        case 2, 3: call("checkAuthentication") { $0.checkAuthentication() }
        case 4, 5:
            let force = random.chance(0.3)
            if random.chance(0.3) {
                let filter = Array(mvpds.shuffled(using: &random).prefix(3))
                call("getAuthentication(force: \(force), filter: \(filter))") {
                    $0.getAuthentication(force, withData: nil, andFilter: filter)
                }
            } else {
                call("getAuthentication(force: \(force))") { $0.getAuthentication(force, withData: nil) }
            }
        case 6, 7:
            let mvpd = random.pick(mvpds)
            call("setSelectedProvider(\(mvpd))") { $0.setSelectedProvider(mvpd) }
        case 8: call("setSelectedProvider(nil)") { $0.setSelectedProvider(nil) }
        case 9:
            let url = random.pick([
                "adobepass://ios.app", "adobepass://ios.app?code=BOGUS", "https://elsewhere.example/", "not a url",
            ])
            call("handleExternalURL(\(url))") { $0.handleExternalURL(url) }
        case 10, 11:
            let resource = random.pick(resources)
            call("checkAuthorization(\(resource))") { $0.checkAuthorization(resource) }
        case 12:
            let resource = random.pick(resources)
            call("getAuthorization(\(resource))") { $0.getAuthorization(resource) }
        case 13:
            let asked = Array(resources.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)))
            let cache = random.chance(0.5)
            call("checkPreauthorizedResources(\(asked), cache: \(cache))") {
                $0.checkPreauthorizedResources(asked, cache: cache)
            }
        case 14:
            let asked = Array(resources.shuffled(using: &random).prefix(2))
            let request = PreauthorizeRequest.Builder().setResources(resources: asked).build()
            call("preauthorize(\(asked))") {
                $0.preauthorize(
                    request, didCompleteWith: AccessEnablerCallback(onResponse: { _ in }, onFailure: { _ in }))
            }
        case 15, 16: call("logout") { $0.logout() }
        case 17: call("getSelectedProvider") { $0.getSelectedProvider() }
        case 18, 19:
            let query: [String: Any] = random.pick([
                [METADATA_OPCODE_KEY: METADATA_AUTHENTICATION],
                [METADATA_OPCODE_KEY: METADATA_AUTHORIZATION, METADATA_RESOURCE_ID_KEY: "news"],
                [METADATA_OPCODE_KEY: METADATA_DEVICE_ID],
                [METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "tokenSource"],
                [METADATA_OPCODE_KEY: 99],
            ])
            call("getMetadata(\(query[METADATA_OPCODE_KEY] ?? ""))") { $0.getMetadata(query) }
        case 20:
            let svc = random.chance(0.5)
            call("setOptions(handleSVC: \(svc))") { $0.setOptions(["handleSVC": svc]) }
        default:
            call("checkAuthentication") { $0.checkAuthentication() }
        }
    }

    private func call(_ description: String, _ body: (AccessEnabler) -> Void) {
        actions.append(description)
        body(accessEnabler)
    }

    /// The person completes the last hand-over: the login page of the last `navigateToUrl`,
    /// or the second-screen page with the last registration code.
    private func logIn() async {
        let agent =
            settings.clock == .manual ? SimulatedUserAgent(sandbox: sandbox) : SimulatedUserAgent(httpBase: baseURL)
        switch recorder.lastHandOver {
        case .page(let url):
            actions.append("login(page)")
            // A page of an abandoned flow, a fault on the login endpoints: the redirect may not come.
            if let landing = try? await agent.login(
                startingAt: url, username: "alice", password: "alice123", redirectPrefix: "adobepass://ios.app")
            {
                call("handleExternalURL(landing)") { $0.handleExternalURL(landing) }
            }
        case .registrationCode(let code):
            actions.append("login(code)")
            _ = try? await agent.activate(code: code, username: "alice", password: "alice123", mvpd: nil)
            if settings.clock == .manual {
                // The SDK's next polls find the profile.
                for _ in 0..<2 {
                    sandbox.clock.advance(by: 5)
                    await settle(after: "a poll")
                }
            }
        case nil:
            return
        }
    }

    private func injectFault() {
        let endpoints: [SandboxEndpoint] = [
            .dcrRegister, .dcrToken, .configuration, .createSession, .profiles, .profileForCode, .partnerSession,
            .partnerProfile,
            .authorize, .preauthorize, .logout, .authenticate, .login,
        ]
        let endpoint = random.pick(endpoints)
        let remaining = Int.random(in: 1...2, using: &random)
        var kinds = ["500", "503", "malformed", "drop", "latency", "oversized"]
        if slowFaultsLeft > 0 { kinds += ["429", "retry"] }
        let kind = random.pick(kinds)
        let fault: SandboxFault
        switch kind {
        case "500": fault = SandboxFault(status: 500, remaining: remaining)
        case "503": fault = SandboxFault(status: 503, remaining: remaining)
        case "malformed": fault = SandboxFault(malformedBody: true, remaining: remaining)
        case "drop": fault = SandboxFault(dropConnection: true, remaining: remaining)
        case "latency": fault = SandboxFault(latency: random.pick([0.01, 0.05, 0.2]), remaining: remaining)
        case "oversized": fault = SandboxFault(oversizedBody: 5 << 20, remaining: 1)
        case "429":
            slowFaultsLeft -= 1
            fault = SandboxFault(status: 429, remaining: 1)
        default:
            // network_received_error, whose action is `retry`.
            slowFaultsLeft -= 1
            fault = SandboxFault(status: 403, remaining: 1)
        }
        actions.append("fault(\(endpoint), \(kind))")
        sandbox.inject(fault, into: endpoint)
    }

    /// An async API call, cancelled at once or after a moment.
    private func asyncCallCancelled() {
        let accessEnabler = self.accessEnabler!
        let which = Int.random(in: 0..<5, using: &random)
        let delay = random.pick([0, 0, 1_000_000, 20_000_000] as [UInt64])
        actions.append("async call \(which), cancelled after \(delay / 1_000_000) ms")
        let task = Task { () -> Void in
            switch which {
            case 0: _ = try? await accessEnabler.authenticate()
            case 1: _ = try? await accessEnabler.mediaToken(for: "news")
            case 2: try? await accessEnabler.configure(requestor: "REF30")
            case 3: _ = try? await accessEnabler.authenticationStatus()
            default: _ = try? await accessEnabler.selectProvider("NotBoarded")
            }
        }
        asyncCalls.append(task)
        if delay == 0 {
            task.cancel()
        } else {
            Task {
                try? await Task.sleep(nanoseconds: delay)
                task.cancel()
            }
        }
    }

    // MARK: Lifecycle

    /// A new AccessEnabler over the same storage: an app launch.
    private func relaunch() {
        instance += 1
        var configuration = AccessEnablerConfiguration(
            environment: .custom(baseURL), platform: platform, storageDirectory: storage, partnerFramework: device,
            callbackQueue: callbackQueue)
        configuration.loginScreen = loginScreen
        configuration.requestTimeout = SanitizerTiming.scaled(5)
        switch settings.clock {
        case .manual:
            configuration.clock = SandboxTimeSource(sandbox.clock)
            configuration.transport = sandbox.transport
        case .wall:
            configuration.transport = CurlTransport()
        }
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        ledger.follow(accessEnabler, instance: instance)
        self.accessEnabler = accessEnabler
        actions.append("launch \(instance)")
    }

    /// Settles, then relaunches: half the time the person first backs out of what waits
    /// for them (every call of this instance then ends), half the time the app just quits.
    private func relaunchAfterSettling() async {
        if random.chance(0.5) {
            call("setSelectedProvider(nil)") { $0.setSelectedProvider(nil) }
        } else {
            abandoned.insert(instance)
        }
        await settle(after: "the relaunch")
        relaunch()
        call("setRequestor(REF30)") { $0.setRequestor("REF30") }
    }

    /// Waits until the SDK has nothing left to run or deliver, unless it makes no progress
    /// for ``stallBound``; with the manual clock, moving it through each back-off.
    private func settle(after what: String) async {
        let settled = await settleWhileProgressing(
            accessEnabler, movingClock: settings.clock == .manual ? sandbox.clock : nil)
        if !settled {
            problems.append(
                "the SDK made no progress for \(Int(stallBound)) s before it settled after \(what) (action \(actions.count))"
            )
        }
    }

    private static func pickerChoice(_ random: inout SeededGenerator) -> PickerChoice {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .select(provider: "AppleBoarded", user: "alice")
        case 1: .select(provider: "PickerOnly", user: "alice")
        case 2: .other
        default: .cancel
        }
    }
}
