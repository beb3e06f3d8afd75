import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// One request as the sandbox received it, reduced to what the partner suites check.
struct ProbedRequest: Sendable, Equatable {
    var method: String
    var path: String
    /// The raw `AP-Partner-Framework-Status` header, when one was sent.
    var partnerStatusHeader: String?

    var line: String { "\(method) \(path)" }

    /// The header decoded as the documentation describes it (Base64 JSON), independently of
    /// the SDK's own encoder.
    var partnerStatus: DecodedPartnerStatus? { partnerStatusHeader.flatMap(DecodedPartnerStatus.init(header:)) }
}

/// `AP-Partner-Framework-Status`, read with Foundation only: the test's own reading of the
/// wire format, so a wrong field name in the SDK cannot pass.
struct DecodedPartnerStatus: Sendable, Equatable {
    var accessStatus: String?
    var providerID: String?
    /// `frameworkProviderInfo.expirationDate` exactly as sent (epoch milliseconds, a string).
    var expirationDate: String?
    var hasError: Bool

    init?(header: String) {
        guard let data = Data(base64Encoded: header),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        let permission = object["frameworkPermissionInfo"] as? [String: Any]
        let provider = object["frameworkProviderInfo"] as? [String: Any]
        accessStatus = permission?["accessStatus"] as? String
        hasError = permission?["error"] != nil
        providerID = provider?["id"] as? String
        expirationDate = provider?["expirationDate"] as? String
    }

    /// The expiration as a date, when it is the documented milliseconds string.
    var expiration: Date? { expirationDate.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } }
}

/// Sits in front of a ``PassSandbox`` and records every request it receives (over the
/// loopback server) or every request the SDK hands the in-process transport.
final class PartnerStatusProbe: SandboxRequestHandler, @unchecked Sendable {
    private let sandbox: PassSandbox
    private let lock = NSLock()
    private var received: [ProbedRequest] = []

    init(sandbox: PassSandbox) { self.sandbox = sandbox }

    var requests: [ProbedRequest] { lock.withLock { received } }

    func reset() { lock.withLock { received.removeAll() } }

    private func record(_ method: String, _ path: String, _ header: String?) {
        lock.withLock { received.append(ProbedRequest(method: method, path: path, partnerStatusHeader: header)) }
    }

    /// Loopback wire: what the sandbox received after real HTTP.
    func respond(to request: SandboxRequest) async -> SandboxResponse {
        record(request.method, request.path, request.header("AP-Partner-Framework-Status"))
        return await sandbox.respond(to: request)
    }

    /// In-process wire: what the SDK handed the transport, then the sandbox's answer.
    var inProcessTransport: InProcessTransport {
        let inner = sandbox.inProcessTransport
        return InProcessTransport { [self] message throws(TransportFailure) in
            record(message.method, message.url.path, message.header("AP-Partner-Framework-Status"))
            return try await inner.send(message, timeout: SanitizerTiming.healthyRequestTimeout)
        }
    }
}

/// A facade wired to the sandbox through a ``PartnerStatusProbe``, with a simulated device
/// signed in at system level: for the checks of what actually went over the wire.
final class PartnerHeaderRig: @unchecked Sendable {
    let sandbox = PassSandbox(world: .default, clock: SandboxClock())
    let device: SimulatedPartnerFramework
    let probe: PartnerStatusProbe
    let recorder = CallbackRecorder(revealSecrets: true)
    let accessEnabler: AccessEnabler
    private var server: LoopbackHTTPServer?
    private let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
        "accessenabler-partner-\(UUID().uuidString)")

    init(_ wire: ScenarioRunner.Wire, signedIn provider: String?, expiresIn: TimeInterval = 86_400) throws {
        device = SimulatedPartnerFramework(sandbox: sandbox)
        probe = PartnerStatusProbe(sandbox: sandbox)
        var configuration = AccessEnablerConfiguration()
        switch wire {
        case .loopbackHTTP:
            let server = LoopbackHTTPServer(port: 0, handler: probe)
            _ = try server.start()
            self.server = server
            sandbox.baseURLForLinks = server.baseURL!
            configuration.transport = CurlTransport()
        case .inProcess:
            configuration.transport = probe.inProcessTransport
        }
        configuration.environment = .custom(sandbox.baseURLForLinks)
        configuration.platform = .tvOS
        configuration.loginScreen = .thisDevice
        configuration.storageDirectory = storage
        configuration.partnerFramework = device
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.requestTimeout = SanitizerTiming.healthyRequestTimeout
        configuration.callbackQueue = DispatchQueue(label: "partner.header.rig.callbacks")
        let expiry = sandbox.clock.now.addingTimeInterval(expiresIn)
        device.signedIn = provider.map { SystemSignIn(provider: $0, username: "alice", expiresAt: expiry) }
        accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
    }

    deinit {
        server?.shutdown()
        try? FileManager.default.removeItem(at: storage)
    }

    /// Runs one facade call to quiescence; returns its callback signatures (the probe keeps
    /// only the requests of this call).
    @discardableResult
    func call(_ body: (AccessEnabler) -> Void) async -> [String] {
        recorder.reset()
        probe.reset()
        body(accessEnabler)
        await accessEnabler.waitUntilIdle()
        lastLines = recorder.callbacks
        return recorder.takeSignatures()
    }

    /// The full callback lines of the last call (for values signatures leave out).
    private(set) var lastLines: [TranscriptLine] = []

    /// The request made to `path`, if exactly one was.
    func request(_ line: String) -> ProbedRequest? {
        let matching = probe.requests.filter { $0.line == line }
        return matching.count == 1 ? matching[0] : nil
    }
}
