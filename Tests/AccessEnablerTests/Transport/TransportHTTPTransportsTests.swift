import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// Both transports (``CurlTransport``, the default, and ``URLSessionTransport``) against
/// throwaway loopback sockets: a listener that never answers, a closed port, a redirect, a
/// truncated body, bodies over the size limit and a plain answer.
@Suite("HTTP transports", .timeLimit(.minutes(20)))
struct TransportHTTPTransportsTests {
    private func send(
        _ kind: TransportUnderTest, _ url: URL, timeout: TimeInterval = 60, body: Data? = nil, limit: Int? = nil
    ) async -> Result<HTTPResponseMessage, TransportFailure> {
        let transport = kind.make()
        let request = HTTPRequestMessage(
            method: body == nil ? "GET" : "POST", url: url,
            headers: [("Accept", "application/json"), ("X-Test", "one")], body: body, maximumResponseBodySize: limit)
        do {
            return .success(try await transport.send(request, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func listenerThatNeverAnswersTimesOut(kind: TransportUnderTest) async throws {
        let listener = try RawListener()
        let result = await send(
            kind, URL(string: "http://127.0.0.1:\(listener.port)/api/v2/SPX/configuration")!, timeout: 0.5)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure == .timedOut)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func closedPortCannotConnect(kind: TransportUnderTest) async throws {
        let result = try await RawListener.withRefusingPort { port in
            await send(kind, URL(string: "http://127.0.0.1:\(port)/")!, timeout: 60)
        }
        guard case .failure(.cannotConnect) = result else {
            Issue.record("expected cannotConnect, got \(result)")
            return
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func redirectIsReturnedAsIs(kind: TransportUnderTest) async throws {
        let listener = try RawListener()
        listener.answerOnce(
            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/elsewhere\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        let result = await send(kind, URL(string: "http://127.0.0.1:\(listener.port)/api/v2/authenticate/SPX/C1")!)
        let response = try result.get()
        #expect(response.status == 302)
        #expect(response.header("Location") == "http://127.0.0.1:9/elsewhere")
    }

    @Test(arguments: TransportUnderTest.allCases)
    func truncatedBodyIsConnectionLost(kind: TransportUnderTest) async throws {
        let listener = try RawListener()
        listener.answerOnce(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"profiles\":")
        let result = await send(kind, URL(string: "http://127.0.0.1:\(listener.port)/api/v2/SPX/profiles")!)
        guard case .failure(.connectionLost) = result else {
            Issue.record("expected connectionLost, got \(result)")
            return
        }
    }

    /// 64 MiB offered: far more than the socket buffers between the two ends can hold
    /// (about 10 MiB on loopback), so a client that read it all would let the server write
    /// it all, and one that stopped lets it write little more than those buffers.
    private static let huge = 64 << 20

    @Test(arguments: TransportUnderTest.allCases)
    func aBodyGrowingPastTheLimitIsNotReadPastIt(kind: TransportUnderTest) async throws {
        let listener = try RawListener()
        // No Content-Length: the body runs until the server closes.
        listener.streamOnce(
            head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n", bodyBytes: Self.huge
        )
        let result = await send(
            kind, URL(string: "http://127.0.0.1:\(listener.port)/api/v2/SPX/configuration")!, limit: 256 << 10)
        guard case .failure(.responseTooLarge(let limit)) = result else {
            Issue.record("expected responseTooLarge, got \(result)")
            return
        }
        #expect(limit == 256 << 10)
        let sent = listener.bodyBytesSent()
        #expect(sent < Self.huge / 4, "the transport stopped reading: the server could write only \(sent) bytes")
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aContentLengthOverTheLimitIsRefusedBeforeTheBody(kind: TransportUnderTest) async throws {
        let listener = try RawListener()
        listener.streamOnce(
            head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(Self.huge)\r\n\r\n",
            bodyBytes: Self.huge)
        let result = await send(
            kind, URL(string: "http://127.0.0.1:\(listener.port)/api/v2/SPX/configuration")!, limit: 1 << 20)
        guard case .failure(.responseTooLarge(1 << 20)) = result else {
            Issue.record("expected responseTooLarge, got \(result)")
            return
        }
        #expect(listener.bodyBytesSent() < Self.huge / 4)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aBodyAtTheLimitIsRead(kind: TransportUnderTest) async throws {
        let listener = try RawListener()
        listener.streamOnce(
            head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300000\r\n\r\n",
            bodyBytes: 300_000)
        let response = try await send(
            kind, URL(string: "http://127.0.0.1:\(listener.port)/api/v2/SPX/configuration")!, limit: 300_000
        ).get()
        #expect(response.body.count == 300_000)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func plainAnswerCarriesStatusHeadersAndBody(kind: TransportUnderTest) async throws {
        let listener = try RawListener()
        let body = #"{"profiles":{}}"#
        listener.answerOnce(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        )
        let result = await send(
            kind, URL(string: "http://127.0.0.1:\(listener.port)/api/v2/SPX/profiles")!, body: Data("a=1".utf8))
        let response = try result.get()
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == body)
        let received = listener.receivedRequest()
        #expect(received.hasPrefix("POST /api/v2/SPX/profiles HTTP/1.1\r\n"))
        #expect(received.lowercased().contains("x-test: one\r\n"))
        #expect(received.hasSuffix("\r\n\r\na=1"))
    }
}

/// A loopback TCP listener on an ephemeral port. It either never accepts (the kernel
/// still completes the handshake, so a client waits for an answer that never comes) or
/// answers one connection with fixed bytes and closes it. Every wait is bounded.
private final class RawListener: @unchecked Sendable {
    let port: UInt16
    private let socketFD: Int32
    private let lock = NSLock()
    private var request = ""
    private let done = DispatchSemaphore(value: 0)
    private var serving = false

    struct SocketError: Error { var step: String }

    init() throws {
        (socketFD, port) = try Self.bindLoopback()
        guard listen(socketFD, 8) == 0 else {
            close(socketFD)
            throw SocketError(step: "listen")
        }
    }

    deinit {
        if serving { _ = done.wait(timeout: .now() + 60) }
        close(socketFD)
    }

    /// A port nothing listens on (bound, then closed).
    /// A loopback port bound by a socket that never listens: connecting is refused, and no
    /// other test can take the port while `body` runs (closing it first would let a parallel
    /// test's server reuse it).
    static func withRefusingPort<T>(_ body: (UInt16) async throws -> T) async throws -> T {
        let (fd, port) = try bindLoopback()
        defer { close(fd) }
        return try await body(port)
    }

    private static func bindLoopback() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw SocketError(step: "bind")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw SocketError(step: "getsockname")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Accepts one connection on a background thread, reads the request (headers plus a
    /// Content-Length body), writes `response` and closes.
    func answerOnce(_ response: String) {
        serving = true
        let listenFD = socketFD
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            var poller = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 60_000) > 0 else { return }
            let connection = accept(listenFD, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !Self.isComplete(received) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received.append(contentsOf: buffer[0..<count])
            }
            lock.withLock { request = String(decoding: received, as: UTF8.self) }
            let bytes = Array(response.utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(connection, Int32(SHUT_RDWR))
        }
    }

    /// Accepts one connection, reads the request, writes `head` and then up to `bodyBytes`
    /// bytes of body in 64 KiB pieces, half a millisecond apart (about 128 MB/s, a fast
    /// network rather than a memory copy), until the client stops reading (a write fails),
    /// and closes. ``bodyBytesSent()`` then says how much of the body went out. After the
    /// first MiB it waits (a minute at most) for the client to close the connection, so a
    /// client that gives up on the body is told apart from one that reads on, however late
    /// a busy machine lets it act; one that reads on gets the rest after the wait.
    func streamOnce(head: String, bodyBytes: Int) {
        serving = true
        let listenFD = socketFD
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            var poller = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 60_000) > 0 else { return }
            let connection = accept(listenFD, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !Self.isComplete(received) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received.append(contentsOf: buffer[0..<count])
            }
            let headBytes = Array(head.utf8)
            _ = headBytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
            var sent = 0
            var waitedForTheClient = false
            while sent < bodyBytes {
                if !waitedForTheClient, sent >= 1 << 20 {
                    waitedForTheClient = true
                    Self.waitUntilClosedByThePeer(connection, seconds: 60)
                }
                let count = piece.withUnsafeBytes {
                    send(connection, $0.baseAddress, min($0.count, bodyBytes - sent), Int32(MSG_NOSIGNAL))
                }
                if count <= 0 { break }
                sent += count
                usleep(500)
            }
            lock.withLock { streamed = sent }
            shutdown(connection, Int32(SHUT_RDWR))
        }
    }

    private var streamed = 0

    /// How many body bytes ``streamOnce(head:bodyBytes:)`` wrote before the client stopped reading.
    func bodyBytesSent() -> Int {
        if serving { _ = done.wait(timeout: .now() + 60); done.signal() }
        return lock.withLock { streamed }
    }

    /// The request bytes received by ``answerOnce(_:)``.
    func receivedRequest() -> String {
        if serving { _ = done.wait(timeout: .now() + 60); done.signal() }
        return lock.withLock { request }
    }

    /// Waits until the other end closes `connection` (or resets it), reading and dropping
    /// whatever it sends meanwhile, for `seconds` at most.
    private static func waitUntilClosedByThePeer(_ connection: Int32, seconds: Int) {
        let giveUp = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while DispatchTime.now().uptimeNanoseconds < giveUp {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            if poller.revents & Int16(POLLHUP | POLLERR) != 0 { return }
            let count = recv(connection, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return }
        }
    }

    private static func isComplete(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let length =
            head.split(separator: "\r\n")
            .first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.count - text[..<end.upperBound].utf8.count >= length
    }
}
