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
    /// The apps by name: `A`, and the scenario's `apps`.
    private var apps: [String: ScenarioApp] = [:]
    /// The scenario clock's reading at ``start()``: identity tokens are valid for 24 hours from it.
    private var startedAt = Date()
    private var stepIndex = 0
    /// Callbacks and HTTP trace lines share this queue, so the transcript keeps the order
    /// in which the SDK produced them.
    private let callbackQueue = DispatchQueue(label: "accessenabler.scenario.callbacks")
    /// How far the devices' wall clocks were set away from the sandbox's time (`jumpDeviceClock`).
    private let deviceClock = DeviceClockJump()

    /// The top-level app's recorder; its ``CallbackRecorder/lines`` are the whole transcript,
    /// every app's lines included.
    public let recorder: CallbackRecorder
    /// The sandbox serving this run (available after ``start()``).
    public private(set) var sandbox: PassSandbox!
    /// The top-level app's simulated device, unless the scenario has none.
    public var device: SimulatedPartnerFramework? { device(ofApp: Scenario.topLevelApp) }
    /// The top-level app's AccessEnabler (replaced by a `restart` step).
    public var accessEnabler: AccessEnabler? { accessEnabler(ofApp: Scenario.topLevelApp) }
    /// The top-level app's temporary storage directory (removed by ``stop()``).
    public var storageDirectory: URL? { storageDirectory(ofApp: Scenario.topLevelApp) }
    /// Where the SDK reaches the sandbox.
    public private(set) var baseURL: URL!
    /// Counts every REST/DCR call the SDK makes (reset it to measure a flow).
    public private(set) var meter: CountingTransport!
    /// Adjusts each AccessEnabler's configuration, every app's, after the runner set it up
    /// (test rigs use it for settings the scenario format does not carry, such as the poll
    /// interval).
    public var configure: (@Sendable (inout AccessEnablerConfiguration) -> Void)?
    /// The most real time, in seconds, the SDK may go without progress — no event posted or
    /// handled, no request or other child task started or ended — while it settles after a
    /// step (each throttling back-off moved through on the scenario clock); past it the run
    /// ends with ``ScenarioStall``. A step that keeps moving is never cut off, however busy
    /// the machine. Default 60.
    public var settleTimeout: TimeInterval = 60
    /// The step under way, for ``ScenarioStall``.
    private var currentStep: (index: Int, name: String) = (0, "")
    /// Set once ``finish()`` wrote the checklist's lines.
    private var finished = false

    /// Prepares a run. `observer` sees each transcript line as it is produced; HTTP trace
    /// lines reach it only with `traceHTTP`, but they are always recorded, so expectations
    /// may name REST calls either way. Media tokens are redacted in the transcript unless
    /// `revealSecrets` (for test rigs that verify them).
    public init(
        scenario: Scenario, wire: Wire = .loopbackHTTP, traceHTTP: Bool = false, revealSecrets: Bool = false,
        observer: (@Sendable (TranscriptLine) -> Void)? = nil
    ) {
        self.scenario = scenario
        self.wire = wire

        var filtered: (@Sendable (TranscriptLine) -> Void)?
        if let observer {
            filtered = { line in
                if line["http"] == nil || traceHTTP { observer(line) }
            }
        }
        // With several apps every app's lines name it, the top-level app's (`A`) included.
        self.recorder = CallbackRecorder(
            observer: filtered, revealSecrets: revealSecrets, app: scenario.apps.isEmpty ? nil : Scenario.topLevelApp)
    }

    /// Runs every step, ends the transcript with what the checklist monitor found
    /// (``finish()``) and checks the expectations.
    public func run() async throws -> ScenarioResult {
        try start()
        defer { stop() }
        for (index, next) in scenario.steps.enumerated() {
            try await self.step(next, app: scenario.app(ofStep: index))
        }
        return finish()
    }

    /// Ends the transcript with what the sandbox's checklist monitor found during the run —
    /// a line `{"checklist": RULE, "request": …, "detail": …}` per violation of Adobe's REST
    /// API V2 Checklist, a line `{"checklistNotice": RULE, …}` per notice, then
    /// `{"checklistViolations": N}` (violations only) — and returns the result. Later calls
    /// add nothing.
    @discardableResult
    public func finish() -> ScenarioResult {
        if !finished {
            finished = true
            let checklist = sandbox.checklist
            for violation in checklist.violations {
                recorder.appendRunLine(
                    .checklist(rule: violation.rule, request: violation.request, detail: violation.detail))
            }
            for notice in checklist.notices {
                recorder.appendRunLine(
                    .checklistNotice(rule: notice.rule, request: notice.request, detail: notice.detail))
            }
            recorder.appendRunLine(.checklistViolations(checklist.violations.count))
        }
        return result()
    }

    /// Runs one step for `app` (`A`: the top-level app): its marker, the step itself, then
    /// waits until every app is quiescent. Throws ``ScenarioStall`` when that does not
    /// happen within ``settleTimeout``, and ``ScenarioError`` for an app the scenario does
    /// not have or a step the run cannot carry out (a second-screen login that needs an
    /// `mvpd`, an identity token the sandbox cannot sign).
    public func step(_ step: Scenario.Step, app name: String = Scenario.topLevelApp) async throws {
        guard let app = apps[name] else {
            throw ScenarioError(
                path: "$.steps[\(stepIndex)].app",
                reason: "no app \"\(name)\" in the scenario (it has \(scenario.appNames.joined(separator: ", ")))")
        }
        app.recorder.append(.step(stepIndex, name: step.name))
        currentStep = (stepIndex, step.name)
        stepIndex += 1
        try await perform(step, for: app)
        try await settleOrStall()
    }

    /// The AccessEnabler of the app named `name`, if the scenario has that app.
    public func accessEnabler(ofApp name: String) -> AccessEnabler? { apps[name]?.accessEnabler }

    /// The recorder of the app named `name` (its lines carry `"app": name` unless it is `A`).
    public func recorder(ofApp name: String) -> CallbackRecorder? { apps[name]?.recorder }

    /// The simulated device of the app named `name`, unless it has none.
    public func device(ofApp name: String) -> SimulatedPartnerFramework? { apps[name]?.device }

    /// The storage directory of the app named `name` (another app's when it shares it).
    public func storageDirectory(ofApp name: String) -> URL? { apps[name]?.storage }

    /// The service token (a JWS) the app named `name` presents now, or `nil`. A secret: for
    /// test rigs that send it themselves; never print it.
    public func serviceToken(ofApp name: String) -> String? { apps[name]?.tokens.serviceToken }

    /// The platform identity (a JWS) the app named `name` presents now, or `nil`. A secret:
    /// for test rigs that send it themselves; never print it.
    public func platformIdentity(ofApp name: String) -> String? { apps[name]?.tokens.platformIdentity }

    /// Waits until the SDK has nothing left to run or deliver. A call waiting out a
    /// throttling back-off is not quiescent: the scenario clock is moved to the end of the
    /// wait. Waiting for a person (a provider choice, a login page, a second-screen code) is.
    ///
    /// Returns `false` when the SDK made no progress for ``settleTimeout`` seconds of real
    /// time before that happened (the SDK is left as it is).
    /// With several apps, every one of them: the clock moves to the earliest end of a wait,
    /// and the check starts over, as that may have woken another app.
    @discardableResult
    public func settle() async -> Bool {
        let running = scenario.appNames.compactMap { apps[$0]?.accessEnabler }
        guard !running.isEmpty else { return true }
        let clock = sandbox.clock
        let bound = settleTimeout
        // Any app's progress counts: one app's work may be what another waits for.
        let progress: @Sendable () -> UInt64 = { running.reduce(0) { $0 &+ $1.progress } }
        var seen = progress()
        var movedAt = ContinuousClock.now
        settling: while true {
            var earliestWake: Date?
            for accessEnabler in running {
                let waited = await unlessStalled(
                    for: bound, progress: progress, done: { accessEnabler.quiescenceNow != nil }
                ) {
                    await accessEnabler.waitUntilQuiescent()
                }
                guard let quiescence = waited else { return false }
                if case .waitingForClock(let until) = quiescence { earliestWake = min(earliestWake ?? until, until) }
            }
            if let until = earliestWake {
                let now = clock.now
                if until > now { clock.advance(by: until.timeIntervalSince(now)) }
                continue
            }
            // Idle: what the calls stored goes to disk, and a failed write's status is
            // delivered. Waited for in short slices, so a back-off that starts meanwhile
            // (which `waitUntilIdle` would wait out in real time) sends us back to move the
            // clock; the slices end in a stall only when nothing has moved for the bound.
            for accessEnabler in running {
                if await withinRealTime(2, { await accessEnabler.waitUntilIdle() }) == nil {
                    let now = progress()
                    if now != seen {
                        (seen, movedAt) = (now, .now)
                    } else if ContinuousClock.now - movedAt >= stallBound(bound) {
                        return false
                    }
                    continue settling
                }
            }
            break
        }
        // The transcript's HTTP lines are queued on the callback queue as exchanges end
        // (one whose flow was abandoned meanwhile ends no event): let them land too.
        let queue = callbackQueue
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
        return true
    }

    /// ``settle()``, throwing ``ScenarioStall`` for the current step when it times out.
    private func settleOrStall() async throws(ScenarioStall) {
        guard await settle() else {
            throw ScenarioStall(step: currentStep.index, name: currentStep.name, seconds: settleTimeout)
        }
    }

    /// The transcript so far, checked against the scenario's expectations, with what the
    /// checklist monitor found so far.
    public func result() -> ScenarioResult {
        ScenarioResult(lines: recorder.lines, expectations: scenario.expect, checklist: sandbox.checklist)
    }

    // MARK: Set-up

    /// Starts the sandbox (and its HTTP server), and each app: its storage, device, identity
    /// tokens and AccessEnabler. Throws ``ScenarioError`` for an identity token the sandbox
    /// cannot sign.
    public func start() throws {
        sandbox = PassSandbox(world: scenario.world, clock: SandboxClock())
        startedAt = sandbox.clock.now
        switch wire {
        case .loopbackHTTP:
            let (server, url) = try sandbox.serveOverLoopback()
            self.server = server
            baseURL = url
        case .inProcess:
            baseURL = sandbox.baseURLForLinks
        }
        var settings = [Scenario.topLevelApp: ScenarioApp.Settings(topLevelOf: scenario)]
        for (name, app) in scenario.apps { settings[name] = ScenarioApp.Settings(app, in: scenario) }
        // Apps with storage of their own first: the others take the directory of the app
        // their chain of sharing ends at.
        var directories: [String: URL] = [:]
        for name in scenario.appNames where settings[name]?.storage == .own {
            directories[name] = ScenarioScratch.makeDirectory()
        }
        for name in scenario.appNames {
            guard let settings = settings[name] else { continue }
            var owner = name
            var hops = 0
            while case .sharedWith(let next)? = scenario.apps[owner]?.storage, hops <= scenario.apps.count {
                owner = next
                hops += 1
            }
            guard let storage = directories[owner] else { continue }
            let device = settings.device.present ? SimulatedPartnerFramework(sandbox: sandbox) : nil
            let recorder = name == Scenario.topLevelApp ? self.recorder : self.recorder.recorder(forApp: name)
            let app = ScenarioApp(
                name: name, settings: settings, storage: storage, ownsStorage: owner == name, recorder: recorder,
                device: device)
            apply(settings.device, to: device)
            let place = name == Scenario.topLevelApp ? "$" : "$.apps.\(name)"
            app.tokens.serviceToken = try mint(settings.serviceToken, kind: .serviceToken, at: "\(place).serviceToken")
            app.tokens.platformIdentity = try mint(
                settings.platformIdentity, kind: .platformIdentity, at: "\(place).platformIdentity")
            apps[name] = app
        }
        for name in scenario.appNames {
            if let app = apps[name] { makeAccessEnabler(for: app) }
        }
    }

    /// Stops everything and removes the run's storage.
    public func stop() {
        for app in apps.values { app.accessEnabler = nil }
        server?.shutdown()
        for app in apps.values where app.ownsStorage {
            // What the released AccessEnablers still hand to the disk (a new device's identity
            // is claimed after its creation) lands first: nothing recreates the directory.
            StorageWrites.waitUntilWritten(under: app.storage)
            ScenarioScratch.remove(app.storage)
        }
    }

    /// Builds a new AccessEnabler for the top-level app over its storage (a relaunch when
    /// one existed).
    public func makeAccessEnabler() {
        if let app = apps[Scenario.topLevelApp] { makeAccessEnabler(for: app) }
    }

    /// Builds a new AccessEnabler for `app` over its storage (a relaunch when one existed).
    private func makeAccessEnabler(for app: ScenarioApp) {
        let settings = app.settings
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.platform = settings.platform
        if let loginScreen = settings.loginScreen { configuration.loginScreen = loginScreen }
        configuration.storageDirectory = app.storage
        configuration.partnerFramework = app.device
        configuration.clock = SandboxTimeSource(sandbox.clock, jump: deviceClock)
        // Every app delivers on the one queue, so the shared transcript keeps one order.
        configuration.callbackQueue = callbackQueue
        let wireTransport: any HTTPTransport = wire == .inProcess ? sandbox.transport : CurlTransport()
        if meter == nil { meter = CountingTransport(wireTransport) }
        let recorder = app.recorder
        let queue = callbackQueue
        configuration.transport = meter
        // The `--trace-http` lines come from the SDK's diagnostics hook, as an app's log would.
        configuration.diagnostics = { diagnostic in
            guard case .restExchange(let exchange) = diagnostic else { return }
            queue.async {
                recorder.append(
                    .http(
                        method: exchange.method, path: exchange.path.isEmpty ? "/" : exchange.path,
                        status: exchange.status))
            }
        }
        // The providers read the app's current tokens, so a `serviceToken` /
        // `platformIdentity` step counts from the app's next request.
        configuration.serviceToken = { [tokens = app.tokens] in tokens.serviceToken }
        configuration.platformIdentity = { [tokens = app.tokens] in tokens.platformIdentity }
        configuration.providerChoice = ProviderChoice(rawValue: settings.providerChoice.rawValue) ?? .onDevice
        configure?(&configuration)
        let accessEnabler = AccessEnabler(softwareStatement: settings.softwareStatement, configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        if !app.options.isEmpty { accessEnabler.setOptions(app.options) }
        app.accessEnabler = accessEnabler
    }

    /// The JWS the sandbox signs for `token` (`nil`: none), valid until 24 hours after the
    /// run started; `path` names where the scenario asked for it, for the error.
    private func mint(_ token: Scenario.IdentityToken?, kind: SandboxIdentityKind, at path: String)
        throws(ScenarioError) -> String?
    {
        guard let token else { return nil }
        let issuer =
            token.issuer
            ?? (kind == .serviceToken
                ? SandboxIdentityService.defaultServiceTokenIssuer : SandboxIdentityService.defaultPlatformIssuer)
        let validFor = startedAt.addingTimeInterval(86_400).timeIntervalSince(sandbox.clock.now)
        do {
            return try sandbox.issueIdentityToken(subject: token.subject, issuer: issuer, validFor: validFor)
        } catch {
            throw ScenarioError(path: path, reason: "the sandbox cannot sign this token: \(error)")
        }
    }

    private func apply(_ spec: Scenario.Device, to device: SimulatedPartnerFramework?) {
        guard let device else { return }
        device.accessStatus = Self.accessStatus(spec.accessStatus)
        device.promptAnswer = Self.accessStatus(spec.promptAnswer)
        device.signedIn = spec.signedIn.map(systemSignIn)
        device.picker = spec.picker.map(Self.pickerChoice)
        device.failure = spec.failure.flatMap(PartnerFrameworkError.init(caseName:))
    }

    private func systemSignIn(_ signIn: Scenario.SignIn) -> SystemSignIn {
        SystemSignIn(
            provider: signIn.provider, username: signIn.user,
            expiresAt: sandbox.clock.now.addingTimeInterval(signIn.expiresIn))
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

    /// Releases `app`'s AccessEnabler and builds a new one over its storage. The released
    /// instance ends the calls it still had (a sign-in waiting for a code, say): their
    /// callbacks belong to this step, so the release is waited for — this function holds no
    /// reference of its own to the AccessEnabler, and one that something else still holds
    /// for a moment (a bounded wait given up on) is waited for, within ``settleTimeout``.
    private func restart(_ app: ScenarioApp) async throws {
        try await settleOrStall()
        let released = app.accessEnabler?.releaseWatch
        app.accessEnabler = nil
        if let released { _ = await withinRealTime(settleTimeout) { await released.waitUntilEnded() } }
        makeAccessEnabler(for: app)
    }

    private static func pickerChoice(_ entry: Scenario.PickerEntry) -> PickerChoice {
        switch entry {
        case .select(let provider, let user): .select(provider: provider, user: user)
        case .other: .other
        case .cancel: .cancel
        }
    }

    // MARK: Steps

    private func perform(_ step: Scenario.Step, for app: ScenarioApp) async throws {
        if case .restart = step { return try await restart(app) }
        guard let ae = app.accessEnabler else { return }
        let recorder = app.recorder
        let device = app.device
        switch step {
        case .setRequestor(let id, let serviceProviders):
            if let serviceProviders {
                ae.setRequestor(id, serviceProviders: serviceProviders)
            } else {
                ae.setRequestor(id)
            }
        case .checkAuthentication: ae.checkAuthentication()
        case .getAuthentication(let force, let filter, let featured):
            if filter.isEmpty && featured.isEmpty {
                force ? ae.getAuthentication(true, withData: nil) : ae.getAuthentication()
            } else {
                ae.getAuthentication(
                    force, withData: nil, andFilter: [TV_PROVIDERS: filter, FEATURED_TV_PROVIDERS: featured])
            }
        case .setSelectedProvider(let id): ae.setSelectedProvider(id)
        case .login(let username, let password, let mvpd):
            try await settleOrStall()
            switch recorder.lastHandOver {
            case .page(let url):
                // The app's web view: it follows every redirect and hands the redirect URL
                // (a custom scheme) to the app, with no tap.
                do {
                    let landing = try await userAgent().login(
                        startingAt: url, username: username, password: password,
                        redirectPrefix: ae.configuration.redirectURL)
                    ae.handleExternalURL(landing)
                } catch {
                    // The person stays on the page: nothing to hand over.
                    recorder.append(.loginRefused(error.description))
                }
            case .registrationCode(let code):
                try await signInOnSecondScreen(app, code: code, username: username, password: password, mvpd: mvpd)
            case nil:
                recorder.append(
                    .loginRefused(
                        "Nothing to log in to: the app has shown no login page (navigateToUrl) and no registration code (REGCODE)."
                    ))
            }
        case .handleExternalURL(let url): ae.handleExternalURL(url)
        case .checkAuthorization(let resource): ae.checkAuthorization(resource)
        case .getAuthorization(let resource): ae.getAuthorization(resource)
        case .checkPreauthorizedResources(let resources, let cache):
            ae.checkPreauthorizedResources(resources, cache: cache)
        case .preauthorize(let resources, let disable):
            let request = PreauthorizeRequest.Builder()
                .setResources(resources: resources)
                .disableFeatures(features: Set(disable.compactMap(PreauthorizeRequest.Feature.init(rawValue:))))
                .build()
            ae.preauthorize(
                request,
                didCompleteWith: AccessEnablerCallback(
                    onResponse: { recorder.recordPreauthorize($0, failure: false) },
                    onFailure: { recorder.recordPreauthorize($0, failure: true) }))
        case .getMetadata(let opCode, let key, let resource):
            var query: [String: Any] = [:]
            switch opCode {
            case "authentication": query[METADATA_OPCODE_KEY] = METADATA_AUTHENTICATION
            case "authorization":
                query[METADATA_OPCODE_KEY] = METADATA_AUTHORIZATION;
                query[METADATA_RESOURCE_ID_KEY] = resource ?? key ?? ""
            case "deviceId": query[METADATA_OPCODE_KEY] = METADATA_DEVICE_ID
            default: query[METADATA_OPCODE_KEY] = METADATA_USER_META; query[METADATA_USER_META_KEY] = key ?? ""
            }
            ae.getMetadata(query)
        case .getSelectedProvider: ae.getSelectedProvider()
        case .logout:
            var before = recorder.lastNavigationURL
            _ = recorder.takeLogoutPages()
            ae.logout()
            // Settled, not only waited for: the logout request may wait out a back-off.
            try await settleOrStall()
            // The app's hidden web view follows each MVPD logout page back to the redirect URL;
            // the SDK hands the next page over in answer (a logout of several MVPDs).
            while app.settings.platform == .iOS, let url = recorder.lastNavigationURL, url != before,
                let landing = try? await userAgent().follow(url, redirectPrefix: ae.configuration.redirectURL)
            {
                before = url
                ae.handleExternalURL(landing)
                try await settleOrStall()
            }
        case .profiles:
            try await settleOrStall()
            recorder.append(.profiles(ae.profiles))
        case .selectProfile(let mvpd):
            try await settleOrStall()
            recorder.append(.selectProfile(mvpd, selected: ae.selectProfile(mvpd: mvpd)))
        case .openLogoutPages:
            try await settleOrStall()
            // The person's phone: its browser loads each page and follows the MVPD's
            // redirects; where they end (the app's redirect URL) means nothing to a phone.
            for url in recorder.takeLogoutPages() {
                do {
                    _ = try await userAgent().follow(url, redirectPrefix: ae.configuration.redirectURL)
                    recorder.append(.logoutPage(url))
                } catch {
                    recorder.append(.logoutPage(url, failure: error.description))
                }
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
        case .jumpDeviceClock(let seconds):
            deviceClock.jump(by: seconds)
        case .throttle(let throttle):
            sandbox.setThrottle(throttle)
        case .invalidateProfiles(let mvpd):
            _ = sandbox.invalidateProfiles(mvpd: mvpd)
        case .resetTempPass(let mvpd):
            _ = sandbox.resetTempPass(mvpd: mvpd)
        case .restart:
            // Handled by ``restart(_:)``, before this function holds the AccessEnabler.
            break
        case .setOptions(let values):
            let dictionary = values.mapValues { $0.foundationValue }
            app.options.merge(dictionary) { $1 }
            ae.setOptions(dictionary)
        case .fault(let endpoint, let fault):
            sandbox.inject(fault, into: endpoint)
        case .clearFaults:
            sandbox.clearFaults()
        case .serviceToken(let token):
            app.tokens.serviceToken = try mint(
                token, kind: .serviceToken, at: "$.steps[\(currentStep.index)].serviceToken")
        case .platformIdentity(let token):
            app.tokens.platformIdentity = try mint(
                token, kind: .platformIdentity, at: "$.steps[\(currentStep.index)].platformIdentity")
        case .serverLogout(let mvpd):
            sandbox.serverLogout(mvpd: mvpd)
        }
    }

    /// The person enters `code` on a second screen, chooses `mvpd` when the page asks for a
    /// provider, and signs in; then the scenario clock moves one poll interval at a time
    /// (bounded by the code's lifetime) until the app's polling has found the profile and
    /// ended the authentication. A page that asks for a provider the step does not give (or
    /// does not offer the one it gives) is a fault of the scenario: ``ScenarioError``. Any
    /// other refusal (a wrong password, an expired code) is a `{"login": "refused"}` line.
    private func signInOnSecondScreen(
        _ app: ScenarioApp, code: String, username: String, password: String, mvpd: String?
    ) async throws {
        guard let ae = app.accessEnabler else { return }
        let recorder = app.recorder
        let before = recorder.authenticationStatusCount
        do {
            try await userAgent().activate(code: code, username: username, password: password, mvpd: mvpd)
        } catch .providerChoiceRequired(let offered) {
            throw ScenarioError(
                path: "$.steps[\(currentStep.index)].login.mvpd",
                reason:
                    "is required: the /activate page asks the person to choose a provider (it offers \(offered.joined(separator: ", ")))"
            )
        } catch .providerNotOffered(let chosen, let offered) {
            throw ScenarioError(
                path: "$.steps[\(currentStep.index)].login.mvpd",
                reason: "the /activate page does not offer \"\(chosen)\" (it offers \(offered.joined(separator: ", ")))"
            )
        } catch {
            // A rejected sign-in leaves the person on the page: the SDK keeps polling.
            recorder.append(.loginRefused(error.description))
            return
        }
        let interval = max(ae.configuration.secondScreenPollInterval, 3)
        let limit = Int((TimeInterval(sandbox.world.authenticationSessionTTL) / interval).rounded(.up)) + 1
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
