import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The diagnostics hook an app plugs its logging into: every REST exchange (method, path,
/// status, duration), every status, a delegate missing a terminal callback — and never a
/// secret.
@Suite struct DiagnosticsTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [Diagnostic] = []
        func append(_ diagnostic: Diagnostic) { lock.withLock { entries.append(diagnostic) } }
        var all: [Diagnostic] { lock.withLock { entries } }
        var exchanges: [RESTExchangeRecord] {
            all.compactMap { if case .restExchange(let record) = $0 { record } else { nil } }
        }
    }

    /// A delegate that implements no callback at all (every call's answer would be lost).
    final class Forgetful: EntitlementDelegate {}

    static func accessEnabler(_ sandbox: PassSandbox, baseURL: URL, log: Log, storage: URL) -> AccessEnabler {
        var configuration = AccessEnablerConfiguration(
            environment: .custom(baseURL), platform: .iOS, storageDirectory: storage)
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.diagnostics = { log.append($0) }
        return AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
    }

    @Test func everyExchangeAndStatusIsReportedWithoutSecrets() async throws {
        let sandbox = PassSandbox()
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("diagnostics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let log = Log()
        let ae = Self.accessEnabler(sandbox, baseURL: baseURL, log: log, storage: storage)
        try await ae.configure(requestor: "REF30")
        _ = try await ae.authenticationStatus()
        _ = try? await ae.mediaToken(for: "news")

        let exchanges = log.exchanges
        let reported = exchanges.map { "\($0.method) \($0.path) \($0.status.map(String.init) ?? "-")" }
        #expect(reported.prefix(2) == ["POST /o/client/register 201", "POST /o/client/token 201"])
        // Then the profiles alone: nothing here needs the configuration.
        #expect(reported.dropFirst(2) == ["GET /api/v2/REF30/profiles 200"])
        #expect(exchanges.allSatisfy { $0.host == "127.0.0.1" && $0.duration >= 0 && $0.failure == nil })
        #expect(
            log.all.contains(
                .status(AdvancedStatus(errorId: "N000", level: .info, message: "The user is not authenticated."))))
        // No client secret or access token in anything reported.
        let text = log.all.map { "\($0)" }.joined(separator: "\n")
        let credentials = try #require(
            try FileManager.default.contentsOfDirectory(at: storage, includingPropertiesForKeys: nil).first)
        for file in try FileManager.default.contentsOfDirectory(atPath: credentials.path)
        where file.contains("client") || file.contains("token") {
            let stored = try String(contentsOf: credentials.appendingPathComponent(file), encoding: .utf8)
            for secret in Self.quotedValues(in: stored) where secret.count >= 16 {
                #expect(!text.contains(secret), "a stored credential value appeared in the diagnostics")
            }
        }
    }

    @Test func aRefusedConnectionIsReportedAsAFailedExchange() async throws {
        let sandbox = PassSandbox()
        let refusing = try RefusingPort()
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("diagnostics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let log = Log()
        let ae = Self.accessEnabler(sandbox, baseURL: refusing.url, log: log, storage: storage)
        await #expect(throws: AccessEnablerError.self) { try await ae.configure(requestor: "REF30") }
        let exchange = try #require(log.exchanges.first)
        #expect(exchange.status == nil)
        #expect(exchange.failure?.isEmpty == false)
        #expect(exchange.description.contains("no response"))
        withExtendedLifetime(refusing) {}
    }

    @Test func aDelegateMissingATerminalCallbackIsReportedToThisInstance() async throws {
        let sandbox = PassSandbox()
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("diagnostics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let log = Log()
        let ae = Self.accessEnabler(sandbox, baseURL: baseURL, log: log, storage: storage)
        let forgetful = Forgetful()
        ae.delegate = forgetful
        ae.setRequestor("REF30")
        await ae.waitUntilIdle()
        await Task.yield()
        let missing = log.all.compactMap {
            if case .unimplementedCallback(let name, let message) = $0 { (name, message) } else { nil }
        }
        #expect(missing.map(\.0) == ["setRequestorComplete"])
        #expect(missing.first?.1.contains("setRequestorComplete") == true)
        withExtendedLifetime(forgetful) {}
    }

    /// The string values of a JSON document (credentials files hold them).
    static func quotedValues(in text: String) -> [String] {
        text.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
