import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// The default transport and the machine around it: proxies from the environment as curl
/// reads them (a fresh process, since the environment is the process's), and HTTPS verified
/// against the system's certificate store.
@Suite(.timeLimit(.minutes(10)))
struct CurlTransportEnvironmentTests {
    private static let answer = HostileAnswers.plain(body: Array(#"{"via":"server"}"#.utf8))
    private static let proxied = HostileAnswers.plain(body: Array(#"{"via":"proxy"}"#.utf8))

    /// The proxy variables of this process cleared, then `variables` set: what the child reads.
    private func environment(_ variables: [String: String]) -> [String: String] {
        var cleared: [String: String] = [:]
        for name in [
            "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
        ] { cleared[name] = "" }
        return cleared.merging(variables) { _, new in new }
    }

    private func run(_ url: URL, environment variables: [String: String]) async throws -> String? {
        try await ChildProcessGate.shared.withGate {
            let child = try TransportHelper.start(.curl, url: url, environment: environment(variables))
            _ = try await child.waitForExit(timeout: 120)
            return TransportHelper.outcome(in: child.output)
        }
    }

    @Test func httpProxyFromTheEnvironmentCarriesTheRequest() async throws {
        let server = try HostileHTTPServer { _ in .init(Self.answer) }
        let proxy = try HostileHTTPServer { _ in .init(Self.proxied) }
        defer {
            server.shutdown()
            proxy.shutdown()
        }
        let url = server.baseURL.appendingPathComponent("api/v2/REF30/configuration")
        #expect(try await run(url, environment: ["http_proxy": proxy.baseURL.absoluteString]) == "answer 200")
        #expect(proxy.requests.map(\.target) == [url.absoluteString], "the proxy got the absolute URL")
        #expect(server.requests.isEmpty)
    }

    @Test func noProxyListsTheHostsReachedDirectly() async throws {
        let server = try HostileHTTPServer { _ in .init(Self.answer) }
        let proxy = try HostileHTTPServer { _ in .init(Self.proxied) }
        defer {
            server.shutdown()
            proxy.shutdown()
        }
        let url = server.baseURL.appendingPathComponent("api/v2/REF30/configuration")
        #expect(
            try await run(url, environment: ["http_proxy": proxy.baseURL.absoluteString, "NO_PROXY": "127.0.0.1"])
                == "answer 200")
        #expect(proxy.requests.isEmpty)
        #expect(server.requests.map(\.target) == ["/api/v2/REF30/configuration"])
    }

    @Test func withNoProxyVariableTheRequestGoesDirectly() async throws {
        let server = try HostileHTTPServer { _ in .init(Self.answer) }
        defer { server.shutdown() }
        let url = server.baseURL.appendingPathComponent("api/v2/REF30/configuration")
        #expect(try await run(url, environment: [:]) == "answer 200")
        #expect(server.requests.count == 1)
    }

    /// A TLS server whose certificate no authority of the system's store signed: the
    /// request is refused before anything is sent (`openssl s_server`; skipped without it).
    @Test func anUntrustedCertificateIsRefused() async throws {
        guard
            let openssl = ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            print(
                "CurlTransportEnvironmentTests: no openssl command here, so no TLS server: the check of certificate "
                    + "verification was skipped"
            )
            return
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let key = scratch.appendingPathComponent("key.pem").path
        let certificate = scratch.appendingPathComponent("certificate.pem").path
        try await ChildProcessGate.shared.withGate {
            let made = try RunningCommand(
                URL(fileURLWithPath: openssl),
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                    "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            #expect(try await made.waitForExit(timeout: 120) == 0, "\(made.errors)")
            let (placeholder, port) = try LibCurlLoopbackPort.reserve()
            close(placeholder)
            let server = try RunningCommand(
                URL(fileURLWithPath: openssl),
                ["s_server", "-accept", "127.0.0.1:\(port)", "-key", key, "-cert", certificate, "-www", "-quiet"])
            defer { server.stopForcefully() }
            // s_server says nothing with -quiet once it listens: wait until it accepts.
            #expect(
                await HostileTransportTests.eventually { LibCurlLoopbackPort.accepts(port) || !server.isRunning },
                "s_server listened")
            let request = HTTPRequestMessage(method: "GET", url: URL(string: "https://127.0.0.1:\(port)/")!)
            let result: Result<HTTPResponseMessage, TransportFailure>
            do throws(TransportFailure) {
                result = .success(try await CurlTransport().send(request, timeout: 30))
            } catch {
                result = .failure(error)
            }
            guard case .failure(.cannotConnect(let detail)) = result else {
                Issue.record("a self-signed certificate was not refused: \(result)")
                return
            }
            #expect(
                detail.contains("PEER_FAILED_VERIFICATION") || detail.lowercased().contains("certificate"), "\(detail)")
        }
    }
}

/// Loopback ports for servers a test starts as other programs.
enum LibCurlLoopbackPort {
    /// A free loopback port, held by the returned socket until it is closed.
    static func reserve() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(fd >= 0 && bound)
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on the loopback `port`.
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
