import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// One seeded run of every flow against PassSandbox while ``NumberFuzzer`` puts extreme
/// numbers into Adobe Pass's answers, and the configuration's numbers are extremes too at
/// some launches: registration, set-up (configuration, profiles), a sign-in on the MVPD
/// page or on a second screen (sessions, the profile after the redirect, the polls of a
/// code) or through the partner framework (the partner session and profile), every
/// metadata opcode, authorizations and preauthorizations (both APIs), a relaunch over the
/// same storage, and logout — in rounds, the clock moved between them.
///
/// Nothing is expected of the answers but what the public API promises whatever the
/// numbers: every call ends in exactly one terminal callback (``CallLedger``), the SDK
/// settles after every step, and the process does not stop.
final class NumberFuzzRun: @unchecked Sendable {
    struct Settings: Sendable {
        var seed: UInt64
        var wire: ScenarioRunner.Wire
        /// Rounds of the whole script.
        var rounds = 2
    }

    private let settings: Settings
    private var random: SeededGenerator
    let fuzzer: NumberFuzzer
    private let sandbox: PassSandbox
    private var server: LoopbackHTTPServer?
    private let baseURL: URL
    private let storage: URL
    private let ledger = CallLedger()
    private let recorder = CallbackRecorder(revealSecrets: true)
    private let callbackQueue = DispatchQueue(label: "number-fuzz.callbacks")
    private let device: SimulatedPartnerFramework?
    private let loginScreen: AccessEnablerConfiguration.LoginScreen
    private var accessEnabler: AccessEnabler!
    private var instance = -1
    private var problems: [String] = []
    private var steps: [String] = []

    init(_ settings: Settings) throws {
        self.settings = settings
        var random = SeededGenerator(seed: settings.seed)
        fuzzer = NumberFuzzer(seed: settings.seed, chance: 0.3)
        sandbox = PassSandbox(clock: SandboxClock())
        switch settings.wire {
        case .inProcess:
            baseURL = sandbox.baseURLForLinks
        case .loopbackHTTP:
            let (server, url) = try sandbox.serveOverLoopback()
            self.server = server
            baseURL = url
        }
        storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-numbers-\(settings.seed)-\(UUID().uuidString)")
        loginScreen = random.chance(0.5) ? .secondScreen : .thisDevice
        if random.chance(0.4) {
            let device = SimulatedPartnerFramework(sandbox: sandbox)
            device.picker = [
                .select(provider: "AppleBoarded", user: "alice"), .select(provider: "AppleBoarded", user: "alice"),
            ]
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

    /// The run's header for a report.
    var label: String {
        "seed \(settings.seed), \(settings.wire), \(loginScreen.rawValue), \(device == nil ? "no partner framework" : "partner framework")"
    }

    /// How many facade calls the run made.
    var callCount: Int { ledger.callCount }

    /// Runs the rounds and returns every problem found.
    func run() async -> [String] {
        relaunch(extremeConfiguration: false)
        for round in 0..<settings.rounds {
            ledger.beginAction(round)
            await oneRound()
        }
        call("setSelectedProvider(nil)") { $0.setSelectedProvider(nil) }
        await settle()
        let found = problems + ledger.problems(abandoned: [])
        guard !found.isEmpty else { return [] }
        return found.map { "\(label): \($0)" } + ["\(label): steps: " + steps.joined(separator: "; ")]
    }

    // MARK: The script

    private func oneRound() async {
        await calls("setRequestor") { $0.setRequestor("REF30") }
        await calls("checkAuthentication, metadata") {
            $0.checkAuthentication()
            $0.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION])
            $0.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID])
        }
        await signIn()
        await calls("after the sign-in") {
            $0.checkAuthentication()
            $0.getSelectedProvider()
            $0.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION])
            $0.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "userID"])
        }
        await calls("authorizations") {
            $0.checkAuthorization("news")
            $0.getAuthorization("sports")
            $0.checkPreauthorizedResources(["news", "sports", "premium"], cache: false)
            $0.preauthorize(
                PreauthorizeRequest.Builder().setResources(resources: ["news", "premium"]).disableFeatures(features: [
                    .LOCAL_CACHE
                ]).build(),
                didCompleteWith: AccessEnablerCallback(onResponse: { _ in }, onFailure: { _ in }))
        }
        await calls("media token metadata") {
            $0.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHORIZATION, METADATA_RESOURCE_ID_KEY: "news"])
            $0.checkPreauthorizedResources(["news"], cache: true)
        }
        let seconds = random.pick([1.0, 30, 400, 3_600, 100_000])
        steps.append("advanceClock(\(Int(seconds)))")
        sandbox.clock.advance(by: seconds)
        await settle()
        // A relaunch reads what was stored; sometimes with a configuration of extremes.
        relaunch(extremeConfiguration: random.chance(0.3))
        await calls("after the relaunch") {
            $0.setRequestor("REF30")
            $0.checkAuthentication()
            $0.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION])
            $0.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHORIZATION, METADATA_RESOURCE_ID_KEY: "news"])
            $0.checkAuthorization("news")
        }
        if random.chance(0.6) { await calls("logout") { $0.logout() } }
    }

    /// A sign-in the way the run's device signs in: the partner framework, the MVPD page,
    /// or a code for a second screen.
    private func signIn() async {
        let mvpd =
            device != nil && random.chance(0.7) ? "AppleBoarded" : random.pick(["NotBoarded", "TempPass", "Degraded"])
        await calls("getAuthentication") { $0.getAuthentication() }
        await calls("setSelectedProvider(\(mvpd))") { $0.setSelectedProvider(mvpd) }
        let agent =
            settings.wire == .inProcess ? SimulatedUserAgent(sandbox: sandbox) : SimulatedUserAgent(httpBase: baseURL)
        switch recorder.lastHandOver {
        case .page(let url):
            steps.append("login(page)")
            if let landing = try? await agent.login(
                startingAt: url, username: "alice", password: "alice123", redirectPrefix: "adobepass://ios.app")
            {
                await calls("handleExternalURL") { $0.handleExternalURL(landing) }
            }
        case .registrationCode(let code):
            steps.append("login(code)")
            _ = try? await agent.activate(code: code, username: "alice", password: "alice123", mvpd: nil)
            for _ in 0..<3 {
                sandbox.clock.advance(by: 5)
                await settle()
            }
        case nil:
            break
        }
    }

    // MARK: Calls, launches, settling

    private func call(_ description: String, _ body: (AccessEnabler) -> Void) {
        steps.append(description)
        body(accessEnabler)
    }

    /// Makes the calls `body` makes, back to back, then settles.
    private func calls(_ description: String, _ body: (AccessEnabler) -> Void) async {
        call(description, body)
        await settle()
    }

    /// A new AccessEnabler over the same storage (an app launch); with
    /// `extremeConfiguration`, some of its numbers are not numbers a configuration should hold.
    private func relaunch(extremeConfiguration: Bool) {
        instance += 1
        var configuration = AccessEnablerConfiguration(
            environment: .custom(baseURL), platform: .tvOS, storageDirectory: storage, partnerFramework: device,
            callbackQueue: callbackQueue)
        configuration.loginScreen = loginScreen
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.transport = fuzzer.over(settings.wire == .inProcess ? sandbox.transport : CurlTransport())
        configuration.requestTimeout = SanitizerTiming.scaled(10)
        var extremes: [String] = []
        if extremeConfiguration {
            let durations: [Double] = [.infinity, -.infinity, .nan, -1, 0, 1e300, 1e-300, 2]
            if random.chance(0.5) {
                configuration.secondScreenPollInterval = random.pick(durations)
                extremes.append("secondScreenPollInterval \(configuration.secondScreenPollInterval)")
            }
            if random.chance(0.4) {
                configuration.requestTimeout = random.pick(durations)
                extremes.append("requestTimeout \(configuration.requestTimeout)")
            }
            if random.chance(0.4) {
                configuration.partnerInteractionTimeout = random.pick(durations)
                extremes.append("partnerInteractionTimeout \(configuration.partnerInteractionTimeout)")
            }
            if random.chance(0.3) {
                configuration.maximumResponseBodySize = random.pick([Int.max, Int.min, 0, -1, 1])
                extremes.append("maximumResponseBodySize \(configuration.maximumResponseBodySize)")
            }
            if random.chance(0.3) {
                configuration.preauthorizationBatchSize = random.pick([Int.max, Int.min, 0, -1])
                extremes.append("preauthorizationBatchSize \(configuration.preauthorizationBatchSize ?? 0)")
            }
        }
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        ledger.follow(accessEnabler, instance: instance)
        self.accessEnabler = accessEnabler
        steps.append("launch \(instance)" + (extremes.isEmpty ? "" : " (\(extremes.joined(separator: ", ")))"))
    }

    /// Waits until the SDK has nothing left to run or deliver, moving the clock through each
    /// back-off; a problem when it makes no progress for ``stallBound`` first — never because
    /// the machine is slow.
    private func settle() async {
        if await !settleWhileProgressing(accessEnabler, movingClock: sandbox.clock) {
            problems.append(
                "the SDK made no progress for \(Int(stallBound)) s before it settled after step \(steps.count): \(steps.last ?? "")"
            )
        }
    }
}
