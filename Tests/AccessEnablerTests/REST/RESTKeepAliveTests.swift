import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// Both transports and kept-alive connections a server closes: a request with a body never
/// goes out on a connection idle long enough for the server to be closing it, so it neither
/// costs the whole request timeout (URLSession) nor fails (libcurl, which never sends a body
/// twice).
@Suite("HTTP transports: kept-alive connections", .timeLimit(.minutes(20)))
struct RESTKeepAliveTests {
    private func post(_ transport: any HTTPTransport, _ server: ClosingServer, timeout: TimeInterval = 60) async
        -> Result<HTTPResponseMessage, TransportFailure>
    {
        let request = HTTPRequestMessage(
            method: "POST", url: URL(string: "http://127.0.0.1:\(server.port)/api/v2/SPX/decisions/authorize/MVPD")!,
            headers: [("Content-Type", "application/json")], body: Data(#"{"resources":["news"]}"#.utf8))
        do { return .success(try await transport.send(request, timeout: timeout)) } catch { return .failure(error) }
    }

    private func get(_ transport: any HTTPTransport, _ server: ClosingServer) async throws -> HTTPResponseMessage {
        let request = HTTPRequestMessage(
            method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)/api/v2/SPX/configuration")!)
        return try await transport.send(request, timeout: 60)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aPostAfterTheAdvertisedIdleTimeoutGoesOutOnANewConnection(kind: TransportUnderTest) async throws {
        // The server keeps the first connection for one second and drops the next request on
        // it unanswered, as a server closing an idle connection does.
        let server = try ClosingServer(keepAlive: "timeout=1, max=100")
        let transport = kind.make()
        #expect(try await get(transport, server).status == 200)
        try await Task.sleep(nanoseconds: 700_000_000)
        let result = await post(transport, server)
        guard case .success(let response) = result else {
            Issue.record("the POST met the closing connection: \(result)")
            return
        }
        #expect(response.status == 200)
        #expect(server.log == ["1 GET", "2 POST"], "the POST opened connection 2")
    }

    @Test(arguments: TransportUnderTest.allCases)
    func withoutAnAdvertisedTimeoutTheAssumedOneApplies(kind: TransportUnderTest) async throws {
        let server = try ClosingServer(keepAlive: nil)
        let transport = kind.make(assumedServerTimeout: 1)
        #expect(try await get(transport, server).status == 200)
        try await Task.sleep(nanoseconds: 700_000_000)
        let result = await post(transport, server)
        #expect((try? result.get())?.status == 200, "\(result)")
        #expect(server.log == ["1 GET", "2 POST"])
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aPostSoonAfterTheLastAnswerReusesTheConnection(kind: TransportUnderTest) async throws {
        let server = try ClosingServer(keepAlive: "timeout=30", dropsSecondRequest: false)
        let transport = kind.make()
        #expect(try await get(transport, server).status == 200)
        let result = await post(transport, server)
        #expect((try? result.get())?.status == 200, "\(result)")
        #expect(server.log == ["1 GET", "1 POST"], "no new connection while the server keeps it")
    }

    @Test func keepAliveHeadersAreRead() {
        #expect(KeepAliveReuse.advertisedTimeout("timeout=5, max=100") == 5)
        #expect(KeepAliveReuse.advertisedTimeout("max=100, Timeout = 2.5") == 2.5)
        #expect(KeepAliveReuse.advertisedTimeout("max=100") == nil)
        #expect(KeepAliveReuse.advertisedTimeout(nil) == nil)
        #expect(KeepAliveReuse.closesConnection("close"))
        #expect(KeepAliveReuse.closesConnection("Keep-Alive, Close"))
        #expect(!KeepAliveReuse.closesConnection("keep-alive"))
        #expect(!KeepAliveReuse.mayBeClosed(idle: 3.9, advertisedTimeout: nil))
        #expect(KeepAliveReuse.mayBeClosed(idle: 4, advertisedTimeout: nil))
        #expect(!KeepAliveReuse.mayBeClosed(idle: 70, advertisedTimeout: 75))
        #expect(KeepAliveReuse.mayBeClosed(idle: 74, advertisedTimeout: 75))
        #expect(KeepAliveReuse.mayBeClosed(idle: 0.5, advertisedTimeout: 1))
        #expect(KeepAliveReuse.mayBeClosed(idle: 0, advertisedTimeout: 0))
        #expect(KeepAliveReuse.isRepeatableByTheHTTPStack(body: nil))
        #expect(KeepAliveReuse.isRepeatableByTheHTTPStack(body: Data()))
        #expect(!KeepAliveReuse.isRepeatableByTheHTTPStack(body: Data("a=1".utf8)))
    }
}

/// A loopback HTTP/1.1 server that answers the first request of its first connection with
/// `Keep-Alive` and keeps the connection; a second request on that connection is read and
/// dropped without an answer (unless `dropsSecondRequest` is false). Every other connection
/// is answered normally. Notes "<connection number> <method>" for each request it reads.
private final class ClosingServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let keepAlive: String?
    private let dropsSecondRequest: Bool
    private let lock = NSLock()
    private var events: [String] = []
    private var connections = 0
    private var stopped = false

    struct SocketError: Error { var step: String }

    init(keepAlive: String?, dropsSecondRequest: Bool = true) throws {
        self.keepAlive = keepAlive
        self.dropsSecondRequest = dropsSecondRequest
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 8) == 0 else {
            close(fd)
            throw SocketError(step: "bind")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    var log: [String] { lock.withLock { events } }

    private func acceptLoop() {
        while true {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if lock.withLock({ stopped }) { return }
            guard ready > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let number = lock.withLock { () -> Int in
                connections += 1
                return connections
            }
            Thread.detachNewThread { [self] in serve(connection, number: number) }
        }
    }

    private func serve(_ connection: Int32, number: Int) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var pending = Data()
        var served = 0
        while let method = Self.readRequest(connection, buffer: &pending) {
            served += 1
            lock.withLock { events.append("\(number) \(method)") }
            if number == 1, served == 2, dropsSecondRequest { return }
            let body = #"{"ok":true}"#
            var head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            if number == 1, let keepAlive { head += "Connection: keep-alive\r\nKeep-Alive: \(keepAlive)\r\n" }
            let bytes = Array((head + "\r\n" + body).utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Reads one request (head and Content-Length body) and returns its method.
    private static func readRequest(_ connection: Int32, buffer: inout Data) -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = buffer.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.lowercased().split(separator: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count - end.upperBound >= length {
                    buffer.removeSubrange(..<(end.upperBound + length))
                    return head.split(separator: " ").first.map(String.init)
                }
            }
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
