import AccessEnabler
import AccessEnablerProviderService
import Foundation
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

/// A Unix socket server of one behaviour, for the client's faults: it reads one line per
/// connection, then answers as told.
final class FakeLineServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Writes these bytes, then keeps the connection open.
        case answer(String)
        /// Closes the connection without a word.
        case close
        /// Never answers.
        case silence
    }

    let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []

    init(path: String, behaviour: Behaviour) throws {
        self.path = path
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(descriptor, 8) == 0)
        let thread = Thread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                lock.withLock { connections.append(connection) }
                var byte: UInt8 = 0
                while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
                switch behaviour {
                case .answer(let text):
                    _ = Array(text.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                case .close: shutdown(connection, Int32(SHUT_RDWR))
                case .silence: break
                }
            }
        }
        thread.start()
    }

    /// A socket file at `path` that nobody listens on, as a process killed while listening leaves.
    static func leaveStaleSocket(at path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(descriptor)
        try #require(bound == 0)
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        for connection in lock.withLock({ connections }) { close(connection) }
        unlink(path)
    }
}
