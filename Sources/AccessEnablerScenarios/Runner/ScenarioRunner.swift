import AccessEnabler
import Foundation
import PassSandbox

/// Runs a ``Scenario`` against a fresh PassSandbox and simulated device, one step at a
/// time, each to quiescence, recording the transcript.
public final class ScenarioRunner: @unchecked Sendable {
    /// How the SDK reaches the sandbox.
    public enum Wire: Sendable {
        /// Real HTTP over loopback through URLSession.
        case loopbackHTTP
        /// Straight into the sandbox in-process.
        case inProcess
    }

    private let scenario: Scenario
    private let wire: Wire
    private var server: LoopbackHTTPServer?
    private var storage: URL!
    /// The run's temporary storage directory (removed by ``stop()``).
    public var storageDirectory: URL? { storage }
    private var options: [String: Any] = [:]
    private var stepIndex = 0
    /// Callbacks and HTTP trace lines share this queue, so the transcript keeps the order
    /// in which the SDK produced them.
    private let callbackQueue = DispatchQueue(label: "accessenabler.scenario.callbacks")

    /// Every callback and marker so far.
    public let recorder: CallbackRecorder
    /// The sandbox serving this run (available after ``start()``).
    public private(set) var sandbox: PassSandbox!
    /// The simulated device, unless the scenario has none.
    public private(set) var device: SimulatedPartnerFramework?
    /// The AccessEnabler under test (replaced by a `restart` step).
    public private(set) var accessEnabler: AccessEnabler?
    /// Where the SDK reaches the sandbox.
    public private(set) var baseURL: URL!
    /// Counts every REST/DCR call the SDK makes (reset it to measure a flow).
    public private(set) var meter: CountingTransport!
    /// Adjusts each AccessEnabler's configuration after the runner set it up (test rigs use
    /// it for settings the scenario format does not carry, such as the poll interval).
    public var configure: (@Sendable (inout AccessEnablerConfiguration) -> Void)?
    /// The most real time, in seconds, the SDK may take to settle after a step (each
    /// throttling back-off moved through on the scenario clock); past it the run ends with
    /// ``ScenarioStall``. Default 60.
    public var settleTimeout: TimeInterval = 60
    /// The step under way, for ``ScenarioStall``.
    private var currentStep: (index: Int, name: String) = (0, "")

    /// Prepares a run. `observer` sees each transcript line as it is produced; HTTP trace
    /// lines reach it only with `traceHTTP`, but they are always recorded, so expectations
    /// may name REST calls either way. Media tokens are redacted in the transcript unless
    /// `revealSecrets` (for test rigs that verify them).
    public init(scenario: Scenario, wire: Wire = .loopbackHTTP, traceHTTP: Bool = false, revealSecrets: Bool = false, observer: (@Sendable (TranscriptLine) -> Void)? = nil) {
        self.scenario = scenario
        self.wire = wire

        var filtered: (@Sendable (TranscriptLine) -> Void)?
        if let observer {
            filtered = { line in
                if line["http"] == nil || traceHTTP { observer(line) }
            }
        }
        self.recorder = CallbackRecorder(observer: filtered, revealSecrets: revealSecrets)
    }

    /// Runs every step and checks the expectations.
    public func run() async throws -> ScenarioResult {
        try start()
        defer { stop() }
        for next in scenario.steps {
            try await self.step(next)
        }
        return result()
    }

    /// Runs one step: its marker, the step itself, then waits for quiescence. Throws
    /// ``ScenarioStall`` when the step does not settle within ``settleTimeout``.
    public func step(_ step: Scenario.Step) async throws {
        recorder.append(.step(stepIndex, name: step.name))
        currentStep = (stepIndex, step.name)
        stepIndex += 1
        try await perform(step)
        try await settleOrStall()
    }

    /// Waits until the SDK has nothing left to run or deliver. A call waiting out a
    /// throttling back-off is not quiescent: the scenario clock is moved to the end of the
    /// wait. Waiting for a person (a provider choice, a login page, a second-screen code) is.
    ///
    /// Returns `false` when that did not happen within ``settleTimeout`` seconds of real
    /// time (the SDK is left as it is).
    @discardableResult
    public func settle() async -> Bool {
        guard let accessEnabler else { return true }
        let clock = sandbox.clock
        let giveUp = Date().addingTimeInterval(settleTimeout)
        while true {
            let left = giveUp.timeIntervalSinceNow
            guard left > 0, let quiescence = await withinRealTime(left, { await accessEnabler.waitUntilQuiescent() }) else { return false }
            if case .waitingForClock(let until) = quiescence {
                let now = clock.now
                if until > now { clock.advance(by: until.timeIntervalSince(now)) }
                continue
            }
            // Idle: what the calls stored goes to disk, and a failed write's status is
            // delivered. Bounded in short slices, so a back-off that starts meanwhile (which
            // `waitUntilIdle` would wait out in real time) sends us back to move the clock.
            if await withinRealTime(min(left, 2), { await accessEnabler.waitUntilIdle() }) != nil { break }
        }
        // The transcript's HTTP lines are queued on the callback queue as exchanges end
        // (one whose flow was abandoned meanwhile ends no event): let them land too.
        let queue = callbackQueue
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in queue.async { continuation.resume() } }
        return true
    }

    /// ``settle()``, throwing ``ScenarioStall`` for the current step when it times out.
    private func settleOrStall() async throws(ScenarioStall) {
        guard await settle() else {
            throw ScenarioStall(step: currentStep.index, name: currentStep.name, seconds: settleTimeout)
        }
    }

    /// The transcript so far, checked against the scenario's expectations.
    public func result() -> ScenarioResult {
        let lines = recorder.lines
        return ScenarioResult(lines: lines, unmetExpectation: ScenarioResult.firstUnmet(scenario.expect, in: lines))
    }

    // MARK: Set-up

    /// Starts the sandbox (and its HTTP server), the device and the AccessEnabler.
    public func start() throws {
        sandbox = PassSandbox(world: scenario.world, clock: SandboxClock())
        storage = ScenarioScratch.makeDirectory()
        switch wire {
        case .loopbackHTTP:
            let (server, url) = try sandbox.serveOverLoopback()
            self.server = server
            baseURL = url
        case .inProcess:
            baseURL = sandbox.baseURLForLinks
        }
        if scenario.device.present {
            device = SimulatedPartnerFramework(sandbox: sandbox)
            apply(scenario.device)
        }
        options = scenario.options.mapValues { $0.foundationValue }
        makeAccessEnabler()
    }

    /// Stops everything and removes the run's storage.
    public func stop() {
        accessEnabler = nil
        server?.shutdown()
        if let storage { ScenarioScratch.remove(storage) }
    }

    /// Builds a new AccessEnabler over the run's storage (a relaunch when one existed).
    public func makeAccessEnabler() {
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.platform = scenario.platform
        if let loginScreen = scenario.loginScreen { configuration.loginScreen = loginScreen }
        configuration.storageDirectory = storage
        configuration.partnerFramework = device
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.callbackQueue = callbackQueue
        let wireTransport: any HTTPTransport = wire == .inProcess ? sandbox.transport : URLSessionTransport()
        if meter == nil { meter = CountingTransport(wireTransport) }
        let recorder = self.recorder
        let queue = callbackQueue
        configuration.transport = meter
        // The `--trace-http` lines come from the SDK's diagnostics hook, as an app's log would.
        configuration.diagnostics = { diagnostic in
            guard case .restExchange(let exchange) = diagnostic else { return }
            queue.async { recorder.append(.http(method: exchange.method, path: exchange.path.isEmpty ? "/" : exchange.path, status: exchange.status)) }
        }
        configure?(&configuration)
        let accessEnabler = AccessEnabler(softwareStatement: scenario.softwareStatement, configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        if !options.isEmpty { accessEnabler.setOptions(options) }
        self.accessEnabler = accessEnabler
    }

    private func apply(_ spec: Scenario.Device) {
        guard let device else { return }
        device.accessStatus = Self.accessStatus(spec.accessStatus)
        device.promptAnswer = Self.accessStatus(spec.promptAnswer)
        device.signedIn = spec.signedIn.map(systemSignIn)
        device.picker = spec.picker.map(Self.pickerChoice)
        device.failure = spec.failure.flatMap(PartnerFrameworkError.init(caseName:))
    }

    private func systemSignIn(_ signIn: Scenario.SignIn) -> SystemSignIn {
        SystemSignIn(provider: signIn.provider, username: signIn.user, expiresAt: sandbox.clock.now.addingTimeInterval(signIn.expiresIn))
    }

    private static func accessStatus(_ text: String) -> SimulatedAccessStatus {
        switch text {
        case "denied": .denied
        case "restricted": .restricted
        case "notDetermined": .notDetermined
        case "error": .error
        default: .granted
        }
    }

    private static func pickerChoice(_ entry: Scenario.PickerEntry) -> PickerChoice {
        switch entry {
        case .select(let provider, let user): .select(provider: provider, user: user)
        case .other: .other
        case .cancel: .cancel
        }
    }

    // MARK: Steps

    private func perform(_ step: Scenario.Step) async throws {
        guard let ae = accessEnabler else { return }
        switch step {
        case .setRequestor(let id, let serviceProviders):
            if let serviceProviders { ae.setRequestor(id, serviceProviders: serviceProviders) } else { ae.setRequestor(id) }
        case .checkAuthentication: ae.checkAuthentication()
        case .getAuthentication(let force, let filter, let featured):
            if filter.isEmpty && featured.isEmpty {
                force ? ae.getAuthentication(true, withData: nil) : ae.getAuthentication()
            } else {
                ae.getAuthentication(force, withData: nil, andFilter: [TV_PROVIDERS: filter, FEATURED_TV_PROVIDERS: featured])
            }
        case .setSelectedProvider(let id): ae.setSelectedProvider(id)
        case .login(let username, let password):
            try await settleOrStall()
            switch recorder.lastHandOver {
            case .page(let url):
                // A rejected login leaves the user on the form: no redirect, nothing to hand over.
                if let landing = try? await userAgent().login(startingAt: url, username: username, password: password, redirectPrefix: ae.configuration.redirectURL) {
                    ae.handleExternalURL(landing)
                }
            case .registrationCode(let code):
                try await signInOnSecondScreen(code: code, username: username, password: password)
            case nil:
                return
            }
        case .handleExternalURL(let url): ae.handleExternalURL(url)
        case .checkAuthorization(let resource): ae.checkAuthorization(resource)
        case .getAuthorization(let resource): ae.getAuthorization(resource)
        case .checkPreauthorizedResources(let resources, let cache): ae.checkPreauthorizedResources(resources, cache: cache)
        case .preauthorize(let resources, let disable):
            let request = PreauthorizeRequest.Builder()
                .setResources(resources: resources)
                .disableFeatures(features: Set(disable.compactMap(PreauthorizeRequest.Feature.init(rawValue:))))
                .build()
            let recorder = recorder
            ae.preauthorize(request, didCompleteWith: AccessEnablerCallback(
                onResponse: { recorder.recordPreauthorize($0, failure: false) },
                onFailure: { recorder.recordPreauthorize($0, failure: true) }))
        case .getMetadata(let opCode, let key, let resource):
            var query: [String: Any] = [:]
            switch opCode {
            case "authentication": query[METADATA_OPCODE_KEY] = METADATA_AUTHENTICATION
            case "authorization": query[METADATA_OPCODE_KEY] = METADATA_AUTHORIZATION; query[METADATA_RESOURCE_ID_KEY] = resource ?? key ?? ""
            case "deviceId": query[METADATA_OPCODE_KEY] = METADATA_DEVICE_ID
            default: query[METADATA_OPCODE_KEY] = METADATA_USER_META; query[METADATA_USER_META_KEY] = key ?? ""
            }
            ae.getMetadata(query)
        case .getSelectedProvider: ae.getSelectedProvider()
        case .logout:
            let before = recorder.lastNavigationURL
            ae.logout()
            // Settled, not only waited for: the logout request may wait out a back-off.
            try await settleOrStall()
            // The app's hidden web view follows the MVPD logout page back to the redirect URL.
            if scenario.platform == .iOS, let url = recorder.lastNavigationURL, url != before,
               let landing = try? await userAgent().follow(url, redirectPrefix: ae.configuration.redirectURL) {
                ae.handleExternalURL(landing)
            }
        case .device(let change):
            // Only the keys given change: what the device learned meanwhile (a picker sign-in) stays.
            guard let device else { return }
            if let v = change.accessStatus { device.accessStatus = Self.accessStatus(v) }
            if let v = change.promptAnswer { device.promptAnswer = Self.accessStatus(v) }
            if let v = change.signedIn { device.signedIn = v.map(systemSignIn) }
            if let v = change.picker { device.picker = v.map(Self.pickerChoice) }
            if let v = change.failure { device.failure = v.flatMap(PartnerFrameworkError.init(caseName:)) }
        case .world(let mvpd, let changes):
            try sandbox.updateMVPD(mvpd, settingJSON: changes.mapValues { $0.foundationValue })
        case .advanceClock(let seconds):
            sandbox.clock.advance(by: seconds)
        case .throttle(let throttle):
            sandbox.setThrottle(throttle)
        case .invalidateProfiles(let mvpd):
            _ = sandbox.invalidateProfiles(mvpd: mvpd)
        case .resetTempPass(let mvpd):
            _ = sandbox.resetTempPass(mvpd: mvpd)
        case .restart:
            try await settleOrStall()
            accessEnabler = nil
            makeAccessEnabler()
        case .setOptions(let values):
            let dictionary = values.mapValues { $0.foundationValue }
            options.merge(dictionary) { $1 }
            ae.setOptions(dictionary)
        case .fault(let endpoint, let status, let malformed, let drop, let latency, let count):
            guard let endpoint = SandboxEndpoint(rawValue: endpoint) else { return }
            sandbox.inject(SandboxFault(latency: latency, status: status, malformedBody: malformed, dropConnection: drop, remaining: count), into: endpoint)
        case .clearFaults:
            sandbox.clearFaults()
        }
    }

    /// The person enters `code` on a second screen and signs in; then the scenario clock
    /// moves one poll interval at a time (bounded by the code's lifetime) until the SDK's
    /// polling has found the profile and ended the authentication.
    private func signInOnSecondScreen(code: String, username: String, password: String) async throws(ScenarioStall) {
        guard let ae = accessEnabler else { return }
        let before = recorder.authenticationStatusCount
        // A rejected sign-in leaves the person on the page: the SDK keeps polling.
        guard (try? await userAgent().activate(code: code, username: username, password: password, mvpd: nil)) != nil else { return }
        let interval = max(ae.configuration.secondScreenPollInterval, 3)
        let limit = Int((1_800 / interval).rounded(.up)) + 1
        var polls = 0
        while recorder.authenticationStatusCount == before, polls < limit {
            sandbox.clock.advance(by: interval)
            try await settleOrStall()
            polls += 1
        }
    }

    private func userAgent() -> SimulatedUserAgent {
        switch wire {
        case .loopbackHTTP: SimulatedUserAgent(httpBase: baseURL)
        case .inProcess: SimulatedUserAgent(sandbox: sandbox)
        }
    }
}
