import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Synchronization
import Testing

// Helpers shared by the Regular* suites: the regular (no partner framework) flows end to end.

/// The MVPD list `displayProviderDialog` shows for requestor REF30 of the default world.
let regularDialog =
    "displayProviderDialog(AppleBoarded,PickerOnly,NotBoarded,SSODisabled,Degraded,TempPass,SVCProvider)"
let notAuthenticated = "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"
let authenticated = "setAuthenticationStatus(1,)"
/// The status a tvOS logout hands each MVPD logout page over with (the URL in `details`).
let logoutPage = "status(LOGOUT_PAGE,info)"

extension Rig {
    /// A rig (no partner framework) whose requestor REF30 is set.
    static func regular(
        _ wire: ScenarioRunner.Wire, platform: AccessEnablerConfiguration.Platform = .tvOS,
        world: SandboxWorld = .default
    ) async throws -> Rig {
        let rig = try Rig(wire) { scenario in
            scenario.platform = platform
            scenario.world = world
        }
        let signatures = try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        #expect(signatures == ["setRequestorComplete(1)"])
        return rig
    }

    /// A rig where `username` has logged in to `mvpd` through the MVPD login page.
    static func loggedIn(
        _ wire: ScenarioRunner.Wire, mvpd: String = "NotBoarded", username: String = "alice",
        platform: AccessEnablerConfiguration.Platform = .tvOS
    ) async throws
        -> Rig
    {
        let rig = try await regular(wire, platform: platform)
        try await rig.logIn(mvpd: mvpd, username: username)
        return rig
    }

    /// getAuthentication → setSelectedProvider(mvpd) → login, checking each hand-over.
    func logIn(mvpd: String = "NotBoarded", username: String = "alice") async throws {
        #expect(try await run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await run(.setSelectedProvider(mvpd)) == ["sendTrackingData(2,\(mvpd))", "navigateToUrl(authenticate)"])
        #expect(
            try await run(.login(username: username, password: username + "123")) == [
                "sendTrackingData(0,true,\(mvpd))", authenticated,
            ])
    }

    /// The run's storage directory (the configured one; the store keeps one folder per statement in it).
    var storageDirectory: URL { accessEnabler.configuration.storageDirectory }

    /// The callback lines of the last step with `name`.
    func lines(_ name: String) -> [TranscriptLine] { lastLines.filter { $0.callback == name } }
}

/// A JSON array of strings, as transcript lines hold string lists.
func strings(_ items: String...) -> JSONValue { .array(items.map { .string($0) }) }

/// The names of the callbacks that end a facade call (the hand-overs count for the interactive
/// calls): the SDK's own definition (``DelegateCall/Name/endsACall``), not a list of the tests.
let terminalCallbackNames = Set(DelegateCall.Name.allCases.filter(\.endsACall).map(\.callbackName))

/// Whether the callback of `signature` (``CallbackSignature``) ends a facade call.
func isTerminal(_ signature: String) -> Bool {
    let name = signature.prefix { $0 != "(" }
    return terminalCallbackNames.contains(String(name))
}

/// One HTTP request the SDK sent, as a test transport saw it.
struct SentRequest: Sendable {
    var method: String
    var url: URL
    var headers: [(name: String, value: String)]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var line: String { "\(method) \(url.path)" }
}

/// A transport decorator that keeps every request (method, URL, headers) for assertions.
final class RequestCapture: HTTPTransport, @unchecked Sendable {
    let inner: any HTTPTransport
    private let lock = NSLock()
    private var sent: [SentRequest] = []
    private var timeline: [String] = []

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var requests: [SentRequest] { lock.withLock { sent } }
    var lines: [String] { requests.map(\.line) }
    /// `start HOST PATH` when a request leaves, `end HOST PATH STATUS` when its answer is back
    /// (`end HOST PATH failed: WHY` when the transport failed): what a failing test prints.
    var events: [String] { lock.withLock { timeline } }
    func reset() {
        lock.withLock {
            sent.removeAll(); timeline.removeAll()
        }
    }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let name = "\(request.url.host ?? "?"):\(request.url.port ?? 0) \(request.url.path)"
        lock.withLock {
            sent.append(
                SentRequest(
                    method: request.method, url: request.url, headers: request.headers.map { ($0.name, $0.value) }))
            timeline.append("start " + name)
        }
        do {
            let response = try await inner.send(request, timeout: timeout)
            lock.withLock { timeline.append("end \(name) \(response.status)") }
            return response
        } catch {
            lock.withLock { timeline.append("end \(name) failed: \(error)") }
            throw error
        }
    }
}

/// In-process transport to several sandboxes: each request goes to the sandbox whose
/// base URL host matches, as separate servers would receive them.
struct RoutingTransport: HTTPTransport {
    let routes: [(host: String, transport: InProcessTransport)]

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        guard let route = routes.first(where: { $0.host == request.url.host }) else {
            throw .cannotConnect("no sandbox at \(request.url.host ?? "?")")
        }
        return try await route.transport.send(request, timeout: timeout)
    }
}

/// A facade over one or more sandboxes with a configuration the test chooses (timeout,
/// platform, storage check, extra service providers, a base URL nobody serves), for the
/// rows the scenario rig cannot express. Requests are captured with their headers.
final class RegularHarness: @unchecked Sendable {
    let wire: ScenarioRunner.Wire
    let clock: SandboxClock
    let sandboxes: [PassSandbox]
    let baseURLs: [URL]
    let recorder = CallbackRecorder(revealSecrets: true)
    let capture: RequestCapture
    let storage: URL
    private var servers: [LoopbackHTTPServer] = []
    private let callbackQueue = DispatchQueue(label: "regular.harness.callbacks")
    private(set) var accessEnabler: AccessEnabler!
    private let makeConfiguration: () -> AccessEnablerConfiguration
    let storageCheck: IntegrityCheckType
    let softwareStatement: String

    /// Starts one sandbox per world (sharing one clock) and an AccessEnabler pointed at the
    /// first (or at `environmentURL`).
    ///
    /// With `sharing`, the new harness is another app on the same sandboxes (their clock and
    /// wire), with storage of its own: another device, or another app of the same device.
    /// `storage` is a storage directory to use instead of a new one (another AccessEnabler of
    /// the same app on the same device). `configure` changes the configuration last (single
    /// sign-on tokens, for example).
    init(
        _ wire: ScenarioRunner.Wire, worlds: [SandboxWorld] = [.default],
        platform: AccessEnablerConfiguration.Platform = .tvOS,
        requestTimeout: TimeInterval = SanitizerTiming.healthyRequestTimeout, environmentURL: URL? = nil,
        softwareStatement: String = "STATEMENT",
        storageCheck: IntegrityCheckType = .INTEGRITY_CHECK_NONE, sharing: RegularHarness? = nil,
        storage sharedStorage: URL? = nil,
        configure: @escaping @Sendable (inout AccessEnablerConfiguration) -> Void = { _ in }
    ) throws {
        self.wire = sharing?.wire ?? wire
        self.storageCheck = storageCheck
        self.softwareStatement = softwareStatement
        let clock = sharing?.clock ?? SandboxClock()
        self.clock = clock
        let sandboxes = sharing?.sandboxes ?? worlds.map { PassSandbox(world: $0, clock: clock) }
        self.sandboxes = sandboxes
        var urls: [URL] = []
        let transport: any HTTPTransport
        if let sharing {
            // The first app's servers and routes serve this one too.
            urls = sharing.baseURLs
            transport = sharing.capture.inner
        } else {
            switch wire {
            case .loopbackHTTP:
                for sandbox in sandboxes {
                    let server = LoopbackHTTPServer(port: 0, handler: sandbox)
                    _ = try server.start()
                    servers.append(server)
                    sandbox.baseURLForLinks = server.baseURL!
                    urls.append(server.baseURL!)
                }
                transport = CurlTransport()
            case .inProcess:
                var routes: [(host: String, transport: InProcessTransport)] = []
                for (index, sandbox) in sandboxes.enumerated() {
                    let url = URL(string: "http://sandbox\(index).localhost")!
                    sandbox.baseURLForLinks = url
                    urls.append(url)
                    routes.append((url.host!, sandbox.inProcessTransport))
                }
                transport = RoutingTransport(routes: routes)
            }
        }
        baseURLs = urls
        capture = RequestCapture(transport)
        storage =
            sharedStorage
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "accessenabler-regular-\(UUID().uuidString)")
        let (capture, storage, queue) = (capture, storage, callbackQueue)
        let environment = environmentURL ?? urls[0]
        makeConfiguration = {
            var configuration = AccessEnablerConfiguration(
                environment: .custom(environment), platform: platform, storageDirectory: storage,
                transport: capture, clock: SandboxTimeSource(clock), callbackQueue: queue)
            configuration.requestTimeout = requestTimeout
            // These rows are about the MVPD page; the second-screen suites cover the other way.
            configuration.loginScreen = .thisDevice
            configure(&configuration)
            return configuration
        }
        relaunch()
    }

    deinit { stop() }

    /// Stops the servers and removes the storage.
    func stop() {
        accessEnabler = nil
        servers.forEach { $0.shutdown() }
        servers.removeAll()
        try? FileManager.default.removeItem(at: storage)
    }

    /// Shuts the loopback servers down: from now on connections are refused.
    func stopServing() {
        servers.forEach { $0.shutdown() }
    }

    /// A new AccessEnabler over the same storage (an app relaunch), with another request
    /// timeout when one is given.
    func relaunch(requestTimeout: TimeInterval? = nil) {
        var configuration = makeConfiguration()
        if let requestTimeout { configuration.requestTimeout = requestTimeout }
        let accessEnabler = AccessEnabler(
            storageCheck: storageCheck, softwareStatement: softwareStatement, configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        self.accessEnabler = accessEnabler
    }

    /// Makes facade calls, waits (bounded) until everything ran and was delivered, and
    /// returns the callback signatures they produced.
    @discardableResult
    func call(_ body: (AccessEnabler) -> Void) async -> [String] {
        recorder.reset()
        capture.reset()
        body(accessEnabler)
        await settle()
        return recorder.takeSignatures()
    }

    /// Waits until the facade is idle, recording an issue instead of hanging once the SDK has
    /// made no progress for ``stallBound``. A throttling or retry back-off is waited out by
    /// moving the sandboxes' clock to its end.
    func settle() async {
        let finished = await settleWhileProgressing(accessEnabler, movingClock: clock)
        #expect(finished, "the facade made no progress for \(Int(stallBound)) s before it became idle")
    }

    /// The REST/DCR calls of the last `call` (`METHOD /path`).
    var restCalls: [String] { capture.lines }

    /// What went over the wire during the last `call` and what each sandbox received since
    /// its log was last cleared: what a failing expectation prints to explain itself.
    var wireStory: String {
        let received = sandboxes.enumerated().map { index, sandbox in
            "sandbox \(index) received: " + sandbox.requestLog.map(\.path).joined(separator: ", ")
        }
        return (["the SDK's requests:"] + capture.events + received).joined(separator: "\n")
    }

    /// Logs `username` in to `mvpd` through the login page of the sandbox serving it.
    func logIn(mvpd: String, username: String = "alice", expectDialog: [String]? = nil) async throws {
        let dialog = await call { $0.getAuthentication() }
        if let expectDialog { #expect(dialog == expectDialog, "\(wireStory)") }
        #expect(
            await call { $0.setSelectedProvider(mvpd) } == [
                "sendTrackingData(2,\(mvpd))", "navigateToUrl(authenticate)",
            ])
        let landing = try await userAgent(for: recorder.lastNavigationURL ?? "")
            .login(
                startingAt: recorder.lastNavigationURL ?? "", username: username, password: username + "123",
                redirectPrefix: "adobepass://ios.app")
        #expect(await call { $0.handleExternalURL(landing) } == ["sendTrackingData(0,true,\(mvpd))", authenticated])
    }

    /// A user agent for the sandbox that serves `url`.
    func userAgent(for url: String) -> SimulatedUserAgent {
        let index = baseURLs.firstIndex { url.hasPrefix($0.absoluteString) } ?? 0
        switch wire {
        case .loopbackHTTP: return SimulatedUserAgent(httpBase: baseURLs[index])
        case .inProcess: return SimulatedUserAgent(sandbox: sandboxes[index])
        }
    }
}

/// How long, in seconds of real time, a test waits for an SDK that makes no progress at all
/// — no event posted or handled, no request or other child task started or ended — before
/// it reports a hang. A busy machine slows the SDK down but never stops it, so a test that
/// waits on progress passes at any load; a stuck SDK is reported a minute after it stopped.
let stallBound = SanitizerTiming.scaled(60)

/// Runs `work` for as long as `accessEnabler` makes progress: `false` once it has made none
/// for ``stallBound`` while `work` still waited (the work is then left running). An SDK
/// that is quiescent counts as moving unless `quiescenceIsProgress` is `false`: then only
/// what `work` waits for may still be scheduled.
func whileProgressing(
    _ accessEnabler: AccessEnabler, quiescenceIsProgress: Bool = true, _ work: @escaping @Sendable () async -> Void
) async -> Bool {
    let done: (@Sendable () -> Bool)? = quiescenceIsProgress ? { @Sendable in accessEnabler.quiescenceNow != nil } : nil
    return await unlessStalled(for: stallBound, progress: { accessEnabler.progress }, done: done, work) != nil
}

/// Waits until `accessEnabler` has nothing left to run or deliver: `false` once it has made
/// no progress for ``stallBound`` first (a hang), never because the machine is slow. With
/// `clock` (the manual clock of the sandboxes), each throttling or retry back-off is waited
/// out by moving that clock to its end. Idleness — what the calls stored reaching the disk —
/// is waited for in short slices, so a back-off that starts meanwhile sends the wait back to
/// move the clock instead of waiting it out in real time.
func settleWhileProgressing(_ accessEnabler: AccessEnabler, movingClock clock: SandboxClock?) async -> Bool {
    // Ends the slices below once the wait was given up, so none is left behind.
    let givenUp = LockedFlag()
    let settled = await whileProgressing(accessEnabler) {
        while !givenUp.isSet {
            if let clock {
                while case .waitingForClock(let until) = await accessEnabler.waitUntilQuiescent() {
                    if until > clock.now { clock.advance(by: until.timeIntervalSince(clock.now)) }
                }
            }
            if await withinDeadline(seconds: 2, { await accessEnabler.waitUntilIdle() }) { return }
        }
    }
    givenUp.set()
    return settled
}

/// A flag set once, read from any thread.
final class LockedFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// Runs `work`; `false` when it had not finished after `seconds` (it is left running). For
/// waits that have nothing to measure progress by: give them a margin a machine at load 20
/// meets.
func withinDeadline(seconds: Double, _ work: @escaping @Sendable () async -> Void) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let once = ResumeOnce(continuation)
        Task {
            await work(); once.resume(true)
        }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            once.resume(false)
        }
    }
}

private final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?
    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }
    func resume(_ value: Bool) {
        let pending = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: value)
    }
}

/// A world with requestor REF30 integrating only `mvpds` (each with alice and bob), for a
/// second service provider.
func secondaryWorld(mvpds: [String]) -> SandboxWorld {
    let users = [
        SandboxUser(
            username: "alice", password: "alice123", userID: "u-alice", householdID: "h-1", zip: ["10001"],
            resources: ["news", "sports"]),
        SandboxUser(
            username: "bob", password: "bob123", userID: "u-bob", householdID: "h-2", zip: ["94105"],
            resources: ["news"]),
    ]
    return SandboxWorld(
        softwareStatements: ["STATEMENT": ["REF30"]],
        serviceProviders: [
            SandboxServiceProvider(
                id: "REF30",
                mvpds: mvpds.map { SandboxMVPDConfig(id: $0, displayName: "\($0) (secondary)", users: users) })
        ])
}

/// A delegate that keeps every advanced status whole (enhanced error included) and checks
/// that each callback arrives on the queue carrying `queueKey`.
final class StatusCollector: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
    static let queueKey = DispatchSpecificKey<String>()
    private let lock = NSLock()
    private var collected: [AdvancedStatus] = []
    private var names: [String] = []
    private var offQueue = 0
    private let expectedQueue: String

    /// Marks `queue` so callbacks can be checked to arrive on it.
    init(queue: DispatchQueue, name: String) {
        queue.setSpecific(key: Self.queueKey, value: name)
        expectedQueue = name
    }

    var statuses: [AdvancedStatus] { lock.withLock { collected } }
    var callbacks: [String] { lock.withLock { names } }
    var callbacksOffQueue: Int { lock.withLock { offQueue } }

    private func note(_ name: String) {
        let onQueue = DispatchQueue.getSpecific(key: Self.queueKey) == expectedQueue
        lock.withLock {
            names.append(name)
            if !onQueue { offQueue += 1 }
        }
    }

    func status(_ status: AdvancedStatus) {
        note("status")
        lock.withLock { collected.append(status) }
    }

    func setRequestorComplete(_ status: Int32) { note("setRequestorComplete") }
    func setAuthenticationStatus(_ status: Int32, errorCode code: String) { note("setAuthenticationStatus") }
    func displayProviderDialog(_ mvpds: [MVPD]) { note("displayProviderDialog") }
    func navigateToUrl(_ url: String) { note("navigateToUrl") }
    func setToken(_ token: String, forResource resource: String) { note("setToken") }
    func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {
        note("tokenRequestFailed")
    }
    func sendTrackingData(_ data: [String], forEventType event: Int32) { note("sendTrackingData") }
}
