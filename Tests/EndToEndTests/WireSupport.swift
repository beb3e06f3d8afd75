import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

/// Wraps the sandbox and keeps every request exactly as it came off the socket (method,
/// path, query, headers, body), so tests can check what the SDK's REST client really sent.
final class RecordingSandboxHandler: SandboxRequestHandler, @unchecked Sendable {
    let sandbox: PassSandbox
    private let lock = NSLock()
    private var seen: [SandboxRequest] = []

    init(sandbox: PassSandbox) {
        self.sandbox = sandbox
    }

    func respond(to request: SandboxRequest) async -> SandboxResponse {
        lock.withLock { seen.append(request) }
        return await sandbox.respond(to: request)
    }

    /// Every request received so far, in arrival order.
    var requests: [SandboxRequest] { lock.withLock { seen } }

    /// `METHOD /path` of every request received so far.
    var lines: [String] { requests.map { "\($0.method) \($0.path)" } }

    /// The last request whose path ends with `suffix`.
    func last(_ method: String, pathEnding suffix: String) -> SandboxRequest? {
        requests.last { $0.method == method && $0.path.hasSuffix(suffix) }
    }

    /// Forgets the requests received so far.
    func reset() {
        lock.withLock { seen.removeAll() }
    }
}

/// The wire under test: PassSandbox behind ``LoopbackHTTPServer`` on a loopback port, and
/// the SDK's typed REST client talking to it through the default transport, ``CurlTransport``.
final class WireRig: @unchecked Sendable {
    static let requestor = "REF30"
    static let statement = "STATEMENT"
    static let domainName = "adobe.com"
    static let redirectURL = "adobepass://ios.app/auth"
    static let deviceIdentifier = "wire-device-0001"

    let sandbox: PassSandbox
    let recorder: RecordingSandboxHandler
    let server: LoopbackHTTPServer
    let baseURL: URL
    let credentials = InMemoryClientCredentialsCache()
    let client: RESTClient
    let context: RequestContext

    /// Starts a sandbox serving `world` and a client with a `timeout`-second request timeout.
    init(
        world: SandboxWorld = .default, statement: String = WireRig.statement,
        timeout: TimeInterval = SanitizerTiming.healthyRequestTimeout,
        clientClock: (any TimeSource)? = nil
    ) throws {
        sandbox = PassSandbox(world: world)
        recorder = RecordingSandboxHandler(sandbox: sandbox)
        server = LoopbackHTTPServer(port: 0, handler: recorder)
        try server.start()
        guard let base = server.baseURL else { throw WireRigError.notListening }
        baseURL = base
        sandbox.baseURLForLinks = base
        context = RequestContext(
            deviceIdentifier: Self.deviceIdentifier, deviceInfo: .linuxDefault(platform: .tvOS),
            userAgent: "AccessEnabler-Linux/WireTests")
        client = RESTClient(
            baseURL: base, softwareStatement: statement, transport: CurlTransport(), timeout: timeout,
            credentials: credentials, timeSource: clientClock ?? sandbox.clock,
            userAgent: "AccessEnabler-Linux/WireTests")
    }

    deinit { server.shutdown() }

    /// The sandbox clock's "now" (the instant every TTL is measured from).
    var now: Date { sandbox.clock.now }

    /// A client sharing this rig's token provider with another request timeout.
    func client(timeout: TimeInterval) -> RESTClient {
        RESTClient(
            baseURL: baseURL, tokenProvider: client.tokenProvider, transport: CurlTransport(), timeout: timeout,
            userAgent: "AccessEnabler-Linux/WireTests")
    }

    /// The context carrying a partner framework status: `accessStatus` for `provider`,
    /// signed in until a day from now.
    func partnerContext(_ accessStatus: String = "granted", provider: String? = "AppleBoarded") -> RequestContext {
        context.with(
            partnerStatus: PartnerFrameworkStatus(
                accessStatus: accessStatus, providerID: provider,
                expirationDate: provider == nil ? nil : now.addingTimeInterval(86_400)))
    }

    /// Creates a session for `mvpd`, logs `username` in through the login page as a browser
    /// would, and returns the session's code.
    @discardableResult
    func logIn(mvpd: String = "NotBoarded", username: String = "alice", password: String = "alice123") async throws
        -> String
    {
        let action = try await client.createSession(
            serviceProvider: Self.requestor, mvpd: mvpd, domainName: Self.domainName, redirectURL: Self.redirectURL,
            context: context)
        let code = try #require(action.code)
        let landed = try await SimulatedUserAgent(httpBase: baseURL).login(
            startingAt: client.authenticateURL(serviceProvider: Self.requestor, code: code).absoluteString,
            username: username, password: password, redirectPrefix: Self.redirectURL)
        #expect(landed == Self.redirectURL)
        return code
    }
}

enum WireRigError: Error {
    case notListening
}

/// What the OpenAPI description of REST API V2 and DCR asks of a request's shape.
struct WireShape {
    var method: String
    var path: String
    /// `nil` when the request has no body.
    var contentType: String?
    /// Headers the operation requires (besides Content-Type) or that the client sends.
    var required: [String]
    /// Headers the operation does not define, which the client must leave out.
    var absent: [String] = []

    static let apiHeaders = ["Authorization", "Accept", "User-Agent"]
    static let deviceHeaders = ["AP-Device-Identifier", "X-Device-Info"]
}

/// Checks `request` against `shape` and the values the rig's context sends.
func expectShape(
    _ request: SandboxRequest?, _ shape: WireShape, rig: WireRig, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let request else {
        Issue.record("No \(shape.method) \(shape.path) reached the sandbox.", sourceLocation: sourceLocation)
        return
    }
    #expect(request.method == shape.method, sourceLocation: sourceLocation)
    #expect(request.path == shape.path, sourceLocation: sourceLocation)
    #expect(request.header("Content-Type") == shape.contentType, sourceLocation: sourceLocation)
    for name in shape.required {
        #expect(request.header(name) != nil, "\(shape.path) lacks \(name)", sourceLocation: sourceLocation)
    }
    for name in shape.absent {
        #expect(request.header(name) == nil, "\(shape.path) sends \(name)", sourceLocation: sourceLocation)
    }
    if let authorization = request.header("Authorization") {
        #expect(authorization.hasPrefix("Bearer ") && authorization.count > 7, sourceLocation: sourceLocation)
    }
    if let accept = request.header("Accept") {
        #expect(accept == "application/json", sourceLocation: sourceLocation)
    }
    if let identifier = request.header("AP-Device-Identifier") {
        #expect(
            identifier == "fingerprint " + Data(WireRig.deviceIdentifier.utf8).base64EncodedString(),
            sourceLocation: sourceLocation)
    }
    if let info = request.header("X-Device-Info") {
        let object = Data(base64Encoded: info).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        #expect(
            object?["osName"] as? String != nil && object?["model"] as? String != nil,
            "X-Device-Info is not Base64 JSON", sourceLocation: sourceLocation)
    }
}

/// The form fields of a request body, decoded.
func formFields(_ request: SandboxRequest?) -> [String: String] {
    guard let request else { return [:] }
    var fields: [String: String] = [:]
    for (name, value) in SandboxRequest.decodeForm(String(decoding: request.body, as: UTF8.self)) {
        fields[name] = value
    }
    return fields
}

/// Runs `body` and returns the REST client error it threw, or `nil` when it succeeded.
func restError<T>(_ body: () async throws(RESTClientError) -> T) async -> RESTClientError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
