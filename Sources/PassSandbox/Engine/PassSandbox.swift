import AccessEnabler
import Foundation

/// An offline Adobe Pass: the DCR and REST API V2 endpoints, the user-agent pages (the
/// authenticate URL, the MVPD login and logout pages, the second screen at
/// ``activationURL``), driven by a ``SandboxWorld`` and an injectable ``SandboxClock``, with
/// Adobe's throttling, per-endpoint fault injection and a request log.
///
/// Serve it over loopback HTTP with the sandbox's HTTP server, or in-process through
/// ``respond(to:)`` / ``inProcessTransport``. Thread-safe. Its state sits behind three
/// locks, each held only briefly: the endpoints' state (held while an endpoint runs), the
/// controls (throttle buckets and faults), and the request log. Parsing, routing, header
/// checks that need no state, and writing the answer happen outside all of them.
public final class PassSandbox: SandboxImmediateHandler, @unchecked Sendable {
    /// Guards `engine`.
    private let engineLock = NSLock()
    private let engine: SandboxEngine
    private let controls: HTTPLocked<Controls>
    let journal = HTTPLocked(Journal())
    /// The request log keeps at most this many entries (the oldest go first).
    static let logCapacity = 10_000

    /// Throttling and faults: what decides whether a request reaches its endpoint.
    private struct Controls {
        var throttle: SandboxThrottleGate
        var faults: [SandboxEndpoint: SandboxFault] = [:]
    }

    /// What the controls decided about a request.
    private enum Admission {
        /// Refused by the throttle.
        case throttled(retryAfter: Int?)
        /// Let through, with the fault (if any) it is to suffer.
        case admitted(fault: SandboxFault?)
    }

    /// The request log, the checklist monitor's history, who hears of each request, and the
    /// `Date` value of the current second (formatted once).
    struct Journal {
        var log: [SandboxLogEntry] = []
        var monitor = ChecklistMonitor()
        var observer: (@Sendable (SandboxLogEntry) -> Void)?
        var dateSecond = Int.min
        var dateText = ""
    }

    /// The clock every TTL is measured against.
    public let clock: SandboxClock

    /// Creates a sandbox serving `world`.
    public init(world: SandboxWorld = .default, clock: SandboxClock = SandboxClock()) {
        self.clock = clock
        engine = SandboxEngine(world: world, clock: clock, baseURL: URL(string: "http://sandbox.localhost")!)
        controls = HTTPLocked(Controls(throttle: SandboxThrottleGate(settings: world.throttle)))
    }

    /// Scheme, host and port of the absolute URLs the sandbox writes (authenticate redirect,
    /// login page, logout page). The HTTP server sets it to `http://127.0.0.1:PORT`; in-process it is
    /// `http://sandbox.localhost` (a name that always means this machine, so the SDK accepts
    /// its plain HTTP).
    public var baseURLForLinks: URL {
        get { engineLock.withLock { engine.baseURL } }
        set { engineLock.withLock { engine.baseURL = newValue } }
    }

    /// The world as it stands now (dashboard changes and ``setThrottle(_:)`` included).
    public var world: SandboxWorld { engineLock.withLock { engine.world } }

    // MARK: Serving

    /// Answers one request: throttling, routing, faults, the endpoint's behaviour, the
    /// request log. Every answer carries a `Date` header from the sandbox clock, so a
    /// client can measure how far its clock is from the server's.
    public func respond(to request: SandboxRequest) async -> SandboxResponse {
        switch answerAtOnce(request) {
        case .ready(let response): return response
        case .later(let rest): return await rest()
        }
    }

    /// Answers on the calling thread unless an injected latency must be waited out (the
    /// HTTP server's fast path; ``respond(to:)`` for everyone else).
    func answerAtOnce(_ request: SandboxRequest) -> SandboxStagedAnswer {
        let route = SandboxRoute(method: HTTPASCII.uppercasedToken(request.method), path: request.path)
        let subjectToThrottle =
            route?.isThrottled ?? (request.path.hasPrefix("/api/v2/") || request.path.hasPrefix("/o/client/"))
        let admission: Admission = controls.withLock { controls in
            if subjectToThrottle, let settings = controls.throttle.settings {
                let key = SandboxThrottleGate.key(for: request) { token in
                    self.engineLock.withLock { self.engine.accessTokens[token]?.clientID }
                }
                if !controls.throttle.admit(key, now: clock.now) { return .throttled(retryAfter: settings.retryAfter) }
            }
            return .admitted(fault: route.flatMap { Self.takeFault(for: $0.endpoint, from: &controls.faults) })
        }
        let fault: SandboxFault?
        switch admission {
        case .throttled(let retryAfter):
            return .ready(
                finish(SandboxThrottleGate.tooManyRequests(retryAfter: retryAfter), ObservedFacts(), request, route))
        case .admitted(let injected):
            fault = injected
        }
        guard let latency = fault?.latency, latency > 0 else {
            let (response, facts) = answer(route, request, fault: fault)
            return .ready(finish(response, facts, request, route))
        }
        return .later { [self] in
            // Capped at an hour so an absurd value cannot overflow the nanosecond count.
            try? await Task.sleep(nanoseconds: UInt64(min(latency, 3_600) * 1_000_000_000))
            let (response, facts) = answer(route, request, fault: fault)
            return finish(response, facts, request, route)
        }
    }

    /// The endpoint's answer, or what the fault puts in its place, with what the endpoint
    /// saw of the sandbox's state (for the checklist monitor). The fault's effects apply in
    /// their order (``SandboxFault``); each `switch` below names every effect, so a new one is
    /// a compiler error here until it is applied.
    private func answer(_ route: SandboxRoute?, _ request: SandboxRequest, fault: SandboxFault?) -> (
        SandboxResponse, ObservedFacts
    ) {
        guard let route else { return (SandboxEngine.notFound(path: request.path), ObservedFacts()) }
        let effects = fault?.effects ?? []
        // Effects that answer in the endpoint's place: the endpoint does nothing.
        for effect in effects {
            switch effect {
            case .dropConnection: return (SandboxResponse(status: 0, dropConnection: true), ObservedFacts())
            case .status(let status): return Self.injectedStatus(status, at: route.endpoint)
            case .latency, .malformedBody, .oversizedBody, .retryableDecisionErrors: continue
            }
        }
        if route == .checklist { return (checklistAnswer(request), ObservedFacts()) }
        var (response, facts) = engineLock.withLock { (engine.handle(route, request), engine.observed) }
        // Effects on the endpoint's own answer.
        for effect in effects {
            switch effect {
            case .latency, .dropConnection, .status:
                // Waited out before the endpoint ran (``answerAtOnce(_:)``), or answered above.
                continue
            case .malformedBody:
                let kept = response.body.prefix(response.body.count / 2)
                response = Self.json200(Array(kept) + Array("{\"garbled\":[".utf8))
                facts.errorActions = []
            case .oversizedBody(let size):
                response = Self.json200(Self.padding(bytes: size))
                facts.errorActions = []
            case .retryableDecisionErrors(let resources):
                guard route.endpoint == .authorize || route.endpoint == .preauthorize else { continue }
                let (withErrors, injected, decisions) = Self.withRetryableDecisionErrors(
                    response, resources: Set(resources))
                response = withErrors
                let retry = SandboxEnhancedError.networkReceivedError.action
                facts.errorActions += Array(repeating: retry, count: injected)
                if decisions > 0 { facts.denied = facts.errorActions.count == decisions }
            }
        }
        return (response, facts)
    }

    /// A `200` answer with `body` as JSON, what a body fault puts in place of the endpoint's.
    private static func json200(_ body: [UInt8]) -> SandboxResponse {
        SandboxResponse(status: 200, headers: [("Content-Type", SandboxResponse.jsonContentType)], body: body)
    }

    /// What a `status` fault answers at `endpoint`: 429 as Adobe's throttling does, an OAuth
    /// error on the DCR and household endpoints, an error page on the pages a person sees, an
    /// enhanced error elsewhere.
    private static func injectedStatus(
        _ status: Int, at endpoint: SandboxEndpoint
    ) -> (SandboxResponse, ObservedFacts) {
        switch endpoint {
        case _ where status == 429: return (SandboxThrottleGate.tooManyRequests(retryAfter: nil), ObservedFacts())
        case .dcrRegister, .dcrToken, .resetTempPass, .householdDeviceCode, .householdToken, .householdSAML,
            .householdRevoke:
            let error = status >= 500 ? "server_error" : "invalid_request"
            return (SandboxEngine.oauthError(error, status: status), ObservedFacts())
        case .authenticate, .login, .mvpdLogout, .activate, .checklist, .householdSignIn:
            return (SandboxEngine.errorPage("The service is unavailable.", status: status), ObservedFacts())
        default:
            var facts = ObservedFacts()
            facts.errorActions = [SandboxEnhancedError.injected(status: status).action]
            return (SandboxEnhancedError.injected(status: status).response, facts)
        }
    }

    /// `response` (a decisions answer) with the decisions of `resources` (all when empty)
    /// turned into `network_received_error` denials, how many authorized ones it turned, and
    /// how many decisions the answer has; any other answer unchanged.
    private static func withRetryableDecisionErrors(_ response: SandboxResponse, resources: Set<String>) -> (
        SandboxResponse, Int, Int
    ) {
        guard response.status == 200,
            var object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let decisions = object["decisions"] as? [[String: Any]]
        else { return (response, 0, 0) }
        var injected = 0
        let error = SandboxEnhancedError.networkReceivedError
        let errorObject: [String: Any] = [
            "status": error.status, "code": error.code, "message": error.message, "action": error.action,
        ]
        object["decisions"] = decisions.map { decision -> [String: Any] in
            guard let resource = decision["resource"] as? String, resources.isEmpty || resources.contains(resource)
            else { return decision }
            if decision["error"] == nil || decision["error"] is NSNull { injected += 1 }
            var denied = decision
            denied["authorized"] = false
            denied["token"] = nil
            denied["error"] = errorObject
            return denied
        }
        guard let body = try? JSONSerialization.data(withJSONObject: object) else { return (response, 0, 0) }
        return (SandboxResponse(status: 200, headers: response.headers, body: Array(body)), injected, decisions.count)
    }

    /// A JSON object of exactly `bytes` bytes (at least its braces): `{"padding":"aaa…"}`.
    private static func padding(bytes: Int) -> [UInt8] {
        let open = Array(#"{"padding":""#.utf8), close = Array(#""}"#.utf8)
        let fill = max(0, bytes - open.count - close.count)
        guard fill > 0 || bytes >= open.count + close.count else { return Array("{}".utf8) }
        return open + [UInt8](repeating: UInt8(ascii: "a"), count: fill) + close
    }

    /// Dates the answer by the sandbox clock, logs it, hands it to the checklist monitor (all
    /// but the monitor's own page), tells the request observer, and records it when
    /// `PASS_SANDBOX_RECORD` asks for it (see ``SandboxRequestRecorder``).
    private func finish(
        _ response: SandboxResponse, _ facts: ObservedFacts, _ request: SandboxRequest, _ route: SandboxRoute?
    ) -> SandboxResponse {
        var dated = response
        let now = clock.now
        let second = Int(now.timeIntervalSince1970.rounded(.down))
        let status = response.dropConnection ? 0 : response.status
        let device = request.header("AP-Device-Identifier").flatMap(SandboxEngine.fingerprint(in:))
        let entry = SandboxLogEntry(
            method: request.method, path: request.path, status: status, endpoint: route?.endpoint, at: now,
            device: device)
        let observed =
            route == .checklist
            ? nil : Self.observation(of: request, route: route, status: status, device: device, facts: facts, at: now)
        let (date, observer): (String, (@Sendable (SandboxLogEntry) -> Void)?) = journal.withLock { journal in
            if journal.log.count >= Self.logCapacity { journal.log.removeFirst(Self.logCapacity / 2) }
            journal.log.append(entry)
            if let observed { journal.monitor.record(observed) }
            if journal.dateSecond != second {
                journal.dateSecond = second
                journal.dateText = HTTPDate.format(secondsSince1970: second)
            }
            return (journal.dateText, journal.observer)
        }
        if !response.dropConnection { dated.headers.append(("Date", date)) }
        observer?(entry)
        SandboxRequestRecorder.shared?.record(request, status: entry.status)
        return dated
    }

    /// The checklist monitor's record of `request`, given its sequence number.
    private static func observation(
        of request: SandboxRequest, route: SandboxRoute?, status: Int, device: String?, facts: ObservedFacts,
        at now: Date
    ) -> (Int) -> ObservedRequest {
        let authorization = request.header("Authorization")
        let bearer = authorization.flatMap { value -> Int? in
            guard let parts = HTTPASCII.splitOnce(value, at: HTTPByte.space),
                HTTPASCII.equalIgnoringCase(String(parts.head), "bearer")
            else { return nil }
            return ObservedRequest.hash(token: HTTPASCII.trimmingSpaces(String(parts.tail)))
        }
        let deviceInfo = request.header("X-Device-Info")
        let sentDeviceIdentifier = request.header("AP-Device-Identifier") != nil
        let signature = ObservedRequest.signature(of: request)
        let method = HTTPASCII.uppercasedToken(request.method)
        // The names sent, for the parameter and header rules: only a client's requests (not
        // the pages a user agent opens) are held to the API's lists.
        let isClientEndpoint = route.map { ChecklistAPIReference.parameters(of: $0.endpoint) != nil } ?? false
        let bodyNames = isClientEndpoint ? ObservedRequest.bodyNames(of: request) : []
        let headerNames = isClientEndpoint ? request.headers.map { $0.name.lowercased() } : []
        // The device a launch describes, for the launch rules: a registration carries it.
        let isDCR = route == .dcrRegister || route == .dcrToken
        let description = isDCR ? deviceInfo.map(ObservedRequest.describe(deviceInfo:)) : nil
        return { sequence in
            ObservedRequest(
                sequence: sequence, at: now, method: method, path: request.path, route: route, status: status,
                deviceID: device, sentAuthorization: authorization != nil, sentDeviceIdentifier: sentDeviceIdentifier,
                sentDeviceInfo: deviceInfo != nil, bearer: bearer, signature: signature, facts: facts,
                queryNames: request.query.map(\.name), bodyNames: bodyNames, headerNames: headerNames,
                deviceDescription: description)
        }
    }

    /// An `HTTPTransport` that answers the SDK's requests in-process, without sockets.
    /// A dropped-connection fault becomes `TransportFailure.connectionLost`; the answer to a
    /// `HEAD` has no body, as over HTTP.
    public var inProcessTransport: InProcessTransport {
        InProcessTransport { [self] message throws(TransportFailure) in
            let response = await respond(to: SandboxRequest(message: message))
            if response.dropConnection { throw TransportFailure.connectionLost("The sandbox dropped the connection.") }
            let body = message.method == "HEAD" ? Data() : Data(response.body)
            return HTTPResponseMessage(status: response.status, headers: response.headers, body: body)
        }
    }

    // MARK: Faults

    /// Makes `endpoint` misbehave as `fault` says, replacing any fault already there.
    public func inject(_ fault: SandboxFault, into endpoint: SandboxEndpoint) {
        controls.withLock { $0.faults[endpoint] = fault }
    }

    /// Removes every injected fault.
    public func clearFaults() {
        controls.withLock { $0.faults.removeAll() }
    }

    /// The fault for `endpoint`, counting one use.
    private static func takeFault(for endpoint: SandboxEndpoint, from faults: inout [SandboxEndpoint: SandboxFault])
        -> SandboxFault?
    {
        guard var fault = faults[endpoint] else { return nil }
        if let remaining = fault.remaining {
            if remaining <= 1 {
                faults[endpoint] = nil
            } else {
                fault.remaining = remaining - 1; faults[endpoint] = fault
            }
            if remaining <= 0 { return nil }
        }
        return fault
    }

    // MARK: Throttling

    /// The throttle in force (the world's `throttle` until ``setThrottle(_:)`` changes it);
    /// `nil` when off.
    public var throttle: SandboxThrottle? { controls.withLock { $0.throttle.settings } }

    /// Turns Adobe's throttling on with `throttle`'s limits, or off with `nil`, at run
    /// time. Every device starts over with a full bucket. ``world`` reports the change.
    public func setThrottle(_ throttle: SandboxThrottle?) {
        controls.withLock { $0.throttle.configure(throttle) }
        engineLock.withLock { engine.world.throttle = throttle }
    }

    /// How many requests were answered `429 Too Many Requests` by the throttle (injected
    /// 429 faults not included).
    public var throttledResponseCount: Int { controls.withLock { $0.throttle.refusals } }

    // MARK: The server's word about a session

    /// Invalidates profiles server-side, as Adobe Pass does when an MVPD ends a session:
    /// the profiles of `mvpd` (every MVPD when `nil`) on the device `deviceIdentifier`
    /// (every device when `nil`; the `AP-Device-Identifier` value, with or without its
    /// `fingerprint ` prefix), for every client and requestor. Afterwards the profile
    /// endpoints leave them out (or answer `403 authenticated_profile_invalidated` when
    /// asked for that MVPD or session code) and decisions answer
    /// `403 authenticated_profile_invalidated` until the user signs in again. Profiles shared
    /// through identity tokens are invalidated with the login that created them (all of
    /// `mvpd`'s when `deviceIdentifier` is `nil`). TempPass is left alone (see
    /// ``resetTempPass(mvpd:deviceIdentifier:)``). Returns how many profiles were
    /// invalidated, shared ones included.
    @discardableResult
    public func invalidateProfiles(mvpd: String? = nil, deviceIdentifier: String? = nil) -> Int {
        let device = deviceIdentifier.map(Self.bareDeviceIdentifier)
        return engineLock.withLock {
            var count = 0
            for owner in engine.profiles.keys where device == nil || owner.deviceID == device {
                for (mvpdID, profile) in engine.profiles[owner] ?? [:]
                where (mvpd == nil || mvpdID == mvpd) && profile.kind != .temporary && !profile.invalidated {
                    engine.profiles[owner]?[mvpdID]?.invalidated = true
                    count += 1
                }
            }
            return count + engine.invalidateSharedProfiles(mvpd: mvpd, deviceID: device)
        }
    }

    /// Resets TempPass, as Adobe's TempPass reset does: `mvpd`'s (every TempPass MVPD's
    /// when `nil`) window and promotional trials on the device `deviceIdentifier` (every
    /// device when `nil`) are forgotten, so the next use starts afresh. Returns how many
    /// windows and trials were reset.
    @discardableResult
    public func resetTempPass(mvpd: String? = nil, deviceIdentifier: String? = nil) -> Int {
        let device = deviceIdentifier.map(Self.bareDeviceIdentifier)
        return engineLock.withLock { engine.resetTempPass(mvpd: mvpd, deviceID: device) }
    }

    /// The Base64 identifier of an `AP-Device-Identifier` value, or the value itself.
    private static func bareDeviceIdentifier(_ value: String) -> String {
        SandboxEngine.fingerprint(in: value) ?? HTTPASCII.trimmingSpaces(value)
    }

    // MARK: Dashboard

    /// Changes one MVPD integration as a TVE Dashboard edit would (`ssoEnabled`,
    /// `integrationActive`, `degraded`, …), in `requestor` or, when `nil`, in every service
    /// provider integrating that MVPD. Returns `false` when there is no such MVPD.
    @discardableResult
    public func updateMVPD(_ mvpdID: String, requestor: String? = nil, _ change: (inout SandboxMVPDConfig) -> Void)
        -> Bool
    {
        engineLock.withLock {
            var found = false
            for providerIndex in engine.world.serviceProviders.indices
            where requestor == nil || engine.world.serviceProviders[providerIndex].id == requestor {
                for mvpdIndex in engine.world.serviceProviders[providerIndex].mvpds.indices
                where engine.world.serviceProviders[providerIndex].mvpds[mvpdIndex].id == mvpdID {
                    change(&engine.world.serviceProviders[providerIndex].mvpds[mvpdIndex])
                    found = true
                }
            }
            return found
        }
    }

    /// Sets world-file fields of one MVPD integration (`{"ssoEnabled": false}`), checked as
    /// the world file is: an unknown MVPD, unknown key or wrong type throws, naming the key.
    public func updateMVPD(_ mvpdID: String, requestor: String? = nil, settingJSON changes: [String: Any])
        throws(SandboxWorldError)
    {
        let candidates = world.serviceProviders.filter { requestor == nil || $0.id == requestor }.flatMap(\.mvpds)
        guard let first = candidates.first(where: { $0.id == mvpdID }) else {
            throw SandboxWorldError(path: "mvpd", problem: "unknown MVPD \"\(mvpdID)\"")
        }
        _ = try first.applying(changes)  // refuses a bad change before anything moves
        updateMVPD(mvpdID, requestor: requestor) { config in
            config = (try? config.applying(changes)) ?? config
        }
    }

    // MARK: Request log

    /// Every request answered so far (method, path without query, status, endpoint, time,
    /// device).
    public var requestLog: [SandboxLogEntry] { journal.withLock { $0.log } }

    /// Empties the request log (the checklist monitor keeps its history: see
    /// ``resetChecklist()``).
    public func clearRequestLog() {
        journal.withLock { $0.log.removeAll() }
    }

    /// Calls `observer` with each request's log entry once it is answered, on the thread
    /// that answered it (`accessenabler sandbox --log-requests` prints them); `nil` stops.
    public func observeRequests(_ observer: (@Sendable (SandboxLogEntry) -> Void)?) {
        journal.withLock { $0.observer = observer }
    }

    // MARK: Partner single sign-on (for the simulated device)

    /// Answers a SAML request as the MVPD mapped to `providerMappingID` would for `username`.
    func mintSAMLResponse(samlRequest: String, providerMappingID: String, username: String) -> Result<
        String, PartnerFrameworkError
    > {
        engineLock.withLock {
            engine.mintSAMLResponse(
                samlRequest: samlRequest, providerMappingID: providerMappingID, username: username, now: clock.now)
        }
    }

    /// Runs `body` on the endpoints' state under its lock: for tests that look inside.
    func withEngine<Result>(_ body: (SandboxEngine) -> Result) -> Result {
        engineLock.withLock { body(engine) }
    }

    /// `true` when `serializedToken` is a media token this sandbox issued, unaltered.
    public func verifyMediaToken(_ serializedToken: String) -> Bool {
        engineLock.withLock { engine.verifyMediaToken(serializedToken) }
    }
}

extension SandboxRequest {
    /// Converts the SDK transport's request (absolute URL) into a sandbox request.
    init(message: HTTPRequestMessage) {
        let components = URLComponents(url: message.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? message.url.path
        let query = components?.percentEncodedQuery.map(SandboxRequest.decodeForm) ?? []
        self.init(
            method: message.method, path: path.isEmpty ? "/" : path, query: query, headers: message.headers,
            body: message.body.map(Array.init) ?? [])
    }
}
