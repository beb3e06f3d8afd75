import AccessEnabler
import Foundation

/// An offline Adobe Pass: the DCR and REST API V2 endpoints, the user-agent pages (the
/// authenticate URL, the MVPD login and logout pages, the second screen at
/// ``activationURL``), driven by a ``SandboxWorld`` and an
/// injectable ``SandboxClock``, with per-endpoint fault injection and a request log.
///
/// Serve it over loopback HTTP with the sandbox's HTTP server, or in-process through
/// ``respond(to:)`` / ``inProcessTransport``. Thread-safe: one internal lock guards the
/// state; a request holds it only while it is being answered.
public final class PassSandbox: SandboxRequestHandler, @unchecked Sendable {
    private let lock = NSLock()
    private let engine: SandboxEngine
    private var faults: [SandboxEndpoint: SandboxFault] = [:]
    private var log: [SandboxLogEntry] = []
    /// The request log keeps at most this many entries (the oldest go first).
    static let logCapacity = 10_000

    /// The clock every TTL is measured against.
    public let clock: SandboxClock

    /// Creates a sandbox serving `world`.
    public init(world: SandboxWorld = .default, clock: SandboxClock = SandboxClock()) {
        self.clock = clock
        engine = SandboxEngine(world: world, clock: clock, baseURL: URL(string: "http://sandbox.invalid")!)
    }

    /// Scheme, host and port of the absolute URLs the sandbox writes (authenticate redirect,
    /// login page, logout page). The HTTP server sets it to `http://127.0.0.1:PORT`.
    public var baseURLForLinks: URL {
        get { lock.withLock { engine.baseURL } }
        set { lock.withLock { engine.baseURL = newValue } }
    }

    /// The world as it stands now (dashboard changes included).
    public var world: SandboxWorld { lock.withLock { engine.world } }

    // MARK: Serving

    /// Answers one request: routing, faults, the endpoint's behaviour, the request log.
    public func respond(to request: SandboxRequest) async -> SandboxResponse {
        let route = SandboxRoute(method: request.method.uppercased(), path: request.path)
        let fault: SandboxFault? = route.flatMap { route in lock.withLock { takeFault(for: route.endpoint) } }
        if let latency = fault?.latency, latency > 0 {
            // Capped at an hour so an absurd value cannot overflow the nanosecond count.
            try? await Task.sleep(nanoseconds: UInt64(min(latency, 3_600) * 1_000_000_000))
        }
        return lock.withLock {
            let response: SandboxResponse
            if let route {
                response = answer(route, request, fault: fault)
            } else {
                response = .text("Not Found", status: 404)
            }
            record(SandboxLogEntry(method: request.method, path: request.path, status: response.dropConnection ? 0 : response.status, endpoint: route?.endpoint))
            return response
        }
    }

    /// Must be called with the lock held.
    private func answer(_ route: SandboxRoute, _ request: SandboxRequest, fault: SandboxFault?) -> SandboxResponse {
        if fault?.dropConnection == true { return SandboxResponse(status: 0, dropConnection: true) }
        if let status = fault?.status {
            switch route.endpoint {
            case .dcrRegister, .dcrToken: return SandboxEngine.oauthError(status >= 500 ? "server_error" : "invalid_request", status: status)
            case .authenticate, .login, .mvpdLogout, .activate: return SandboxEngine.errorPage("The service is unavailable.", status: status)
            default: return SandboxEnhancedError.injected(status: status).response
            }
        }
        var response = engine.handle(route, request)
        if fault?.malformedBody == true {
            let kept = response.body.prefix(response.body.count / 2)
            response = SandboxResponse(status: 200, headers: [("Content-Type", SandboxResponse.jsonContentType)], body: Array(kept) + Array("{\"garbled\":[".utf8))
        }
        return response
    }

    /// An `HTTPTransport` that answers the SDK's requests in-process, without sockets.
    /// A dropped-connection fault becomes `TransportFailure.connectionLost`.
    public var inProcessTransport: InProcessTransport {
        InProcessTransport { [self] message throws(TransportFailure) in
            let response = await respond(to: SandboxRequest(message: message))
            if response.dropConnection { throw TransportFailure.connectionLost("The sandbox dropped the connection.") }
            return HTTPResponseMessage(status: response.status, headers: response.headers, body: Data(response.body))
        }
    }

    // MARK: Faults

    /// Makes `endpoint` misbehave as `fault` says, replacing any fault already there.
    public func inject(_ fault: SandboxFault, into endpoint: SandboxEndpoint) {
        lock.withLock { faults[endpoint] = fault }
    }

    /// Removes every injected fault.
    public func clearFaults() {
        lock.withLock { faults.removeAll() }
    }

    /// Must be called with the lock held: the fault for `endpoint`, counting one use.
    private func takeFault(for endpoint: SandboxEndpoint) -> SandboxFault? {
        guard var fault = faults[endpoint] else { return nil }
        if let remaining = fault.remaining {
            if remaining <= 1 { faults[endpoint] = nil } else { fault.remaining = remaining - 1; faults[endpoint] = fault }
            if remaining <= 0 { return nil }
        }
        return fault
    }

    // MARK: Dashboard

    /// Changes one MVPD integration as a TVE Dashboard edit would (`ssoEnabled`,
    /// `integrationActive`, `degraded`, …), in `requestor` or, when `nil`, in every service
    /// provider integrating that MVPD. Returns `false` when there is no such MVPD.
    @discardableResult
    public func updateMVPD(_ mvpdID: String, requestor: String? = nil, _ change: (inout SandboxMVPDConfig) -> Void) -> Bool {
        lock.withLock {
            var found = false
            for providerIndex in engine.world.serviceProviders.indices where requestor == nil || engine.world.serviceProviders[providerIndex].id == requestor {
                for mvpdIndex in engine.world.serviceProviders[providerIndex].mvpds.indices where engine.world.serviceProviders[providerIndex].mvpds[mvpdIndex].id == mvpdID {
                    change(&engine.world.serviceProviders[providerIndex].mvpds[mvpdIndex])
                    found = true
                }
            }
            return found
        }
    }

    /// Sets world-file fields of one MVPD integration (`{"ssoEnabled": false}`), checked as
    /// the world file is: an unknown MVPD, unknown key or wrong type throws, naming the key.
    public func updateMVPD(_ mvpdID: String, requestor: String? = nil, settingJSON changes: [String: Any]) throws(SandboxWorldError) {
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

    /// Every request answered so far (method, path without query, status, endpoint).
    public var requestLog: [SandboxLogEntry] { lock.withLock { log } }

    /// Empties the request log.
    public func clearRequestLog() {
        lock.withLock { log.removeAll() }
    }

    /// Must be called with the lock held.
    private func record(_ entry: SandboxLogEntry) {
        if log.count >= Self.logCapacity { log.removeFirst(Self.logCapacity / 2) }
        log.append(entry)
    }

    // MARK: Partner single sign-on (for the simulated device)

    /// Answers a SAML request as the MVPD mapped to `providerMappingID` would for `username`.
    func mintSAMLResponse(samlRequest: String, providerMappingID: String, username: String) -> Result<String, PartnerFrameworkError> {
        lock.withLock { engine.mintSAMLResponse(samlRequest: samlRequest, providerMappingID: providerMappingID, username: username, now: clock.now) }
    }

    /// `true` when `serializedToken` is a media token this sandbox issued, unaltered.
    public func verifyMediaToken(_ serializedToken: String) -> Bool {
        lock.withLock { engine.verifyMediaToken(serializedToken) }
    }
}

extension SandboxRequest {
    /// Converts the SDK transport's request (absolute URL) into a sandbox request.
    init(message: HTTPRequestMessage) {
        let components = URLComponents(url: message.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? message.url.path
        let query = components?.percentEncodedQuery.map(SandboxRequest.decodeForm) ?? []
        self.init(method: message.method, path: path.isEmpty ? "/" : path, query: query, headers: message.headers, body: message.body.map(Array.init) ?? [])
    }
}
