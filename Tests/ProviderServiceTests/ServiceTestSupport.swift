import AccessEnabler
import AccessEnablerProviderService
import Foundation
import LineServerHarness
import PassSandbox
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A provider service running in this process, on a socket in a scratch directory, whose
/// identity service is an in-process PassSandbox.
final class InProcessService: @unchecked Sendable {
    let root: String
    let sandbox: PassSandbox
    let service: ProviderService
    private let running: Task<Void, Never>
    let log = LogLines()

    var socket: String { root + "/run/provider.sock" }

    init(prompt: PromptHook? = nil, sandbox: PassSandbox = PassSandbox(clock: SandboxClock.system)) throws {
        root =
            FileManager.default.temporaryDirectory.appendingPathComponent("provider-\(UUID().uuidString.prefix(8))")
            .path
        self.sandbox = sandbox
        var settings = ProviderService.Settings(
            socketPath: root + "/run/provider.sock", stateDirectory: root + "/state",
            identityProvider: sandbox.baseURLForLinks)
        settings.transport = sandbox.inProcessTransport
        settings.prompt = prompt
        let log = self.log
        service = try ProviderService(settings: settings, log: { log.append($0) })
        running = Task { [service] in await service.run() }
    }

    deinit {
        service.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Stops the service and waits until it ended.
    func stop() async {
        service.stop()
        await running.value
    }

    /// The SDK's client of this service for the app `name` of `requestor`. The service runs
    /// as a task of this process, which a loaded machine running the whole suite can hold up
    /// for many seconds: the client's waits are bounds against a hang here, not the verdict
    /// (the tests of the client's own timeouts use a server that never answers).
    func client(_ name: String = "News", requestor: String = "REF30") -> DeviceProviderService {
        var client = DeviceProviderService(requestor: requestor, appName: name, socketPath: socket)
        client.connectTimeout = 60
        client.answerTimeout = 120
        return client
    }

    /// One administrator's request line; the answer line.
    func admin(_ line: String) async throws -> [String: Any] {
        let bytes = try await ProviderServiceSocket.exchange(
            path: socket, line: line, connectTimeout: 5, answerTimeout: 30
        ).get()
        return try #require((try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any])
    }

    func grant(_ name: String = "News", requestor: String = "REF30") async throws {
        let answer = try await admin(#"{"id":1,"op":"grant","app":{"requestor":"\#(requestor)","name":"\#(name)"}}"#)
        #expect(answer["accessStatus"] as? String == "granted")
    }
}

/// Lines a service logged.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
