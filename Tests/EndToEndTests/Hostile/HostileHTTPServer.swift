import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server whose answers are whatever bytes a test gives, ended the way
/// the test says: the connection kept for the next request, closed (FIN) or reset (RST)
/// right after the bytes, or held open with nothing more said until the client gives up.
/// Toolchain only: sockets, a thread per connection.
///
/// Each request (its head and a `Content-Length` body) is handed to the responder, which
/// may be async (a test forwards to PassSandbox); the connection's thread waits for it.
/// Every wait is bounded, and ``shutdown()`` ends every connection.
final class HostileHTTPServer: @unchecked Sendable {
    /// One request as it came off the socket.
    struct Request: Sendable {
        var method: String
        /// The request target (`/api/v2/REF30/profiles?x=1`, or an absolute URL through a proxy).
        var target: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        /// The path of the target, without its query.
        var path: String {
            let withoutScheme = target.hasPrefix("http") ? (URLComponents(string: target)?.path ?? target) : target
            return String(
                withoutScheme.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// What happens to the connection once the answer's bytes are written.
    enum Ending: Sendable, Equatable {
        /// It stays open for the client's next request.
        case keepAlive
        /// The server closes its side: the client reads the end of the stream (FIN).
        case close
        /// The server resets it (`SO_LINGER` 0, then close): the client reads an error (RST).
        case reset
        /// Nothing more is said; the connection stays open until the client closes it.
        case hold
    }

    /// The bytes of one answer and how its connection ends.
    struct Answer: Sendable {
        var bytes: [UInt8]
        var ending: Ending

        init(_ bytes: [UInt8], ending: Ending = .keepAlive) {
            self.bytes = bytes
            self.ending = ending
        }
    }

    typealias Responder = @Sendable (Request) async -> Answer

    let port: UInt16
    private let listener: Int32
    private let respond: Responder
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false
    private var connectionCount = 0
    private var heldClosed = 0

    struct SocketError: Error { var step: String }

    init(_ respond: @escaping Responder) throws {
        self.respond = respond
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(step: "socket") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 64) == 0 else {
            close(fd)
            throw SocketError(step: "bind")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "hostile server accept"
        thread.start()
    }

    deinit { shutdown() }

    /// `http://127.0.0.1:PORT`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request received so far, in order.
    var requests: [Request] { lock.withLock { received } }

    /// Connections accepted so far.
    var connections: Int { lock.withLock { connectionCount } }

    /// Connections held open without an answer (``Ending/hold``) that the client closed.
    var heldConnectionsClosedByTheClient: Int { lock.withLock { heldClosed } }

    /// Stops accepting and ends every connection within a poll interval.
    func shutdown() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0, !isStopped else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            lock.withLock { connectionCount += 1 }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "hostile server connection"
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        var pending: [UInt8] = []
        var ending = Ending.keepAlive
        defer {
            switch ending {
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            case .close:
                Glibc.shutdown(connection, Int32(SHUT_WR))
                _ = waitUntilClosedByThePeer(connection, seconds: 10)
            case .hold:
                if waitUntilClosedByThePeer(connection, seconds: 600) { lock.withLock { heldClosed += 1 } }
            case .keepAlive:
                break
            }
            close(connection)
        }
        while let request = readRequest(connection, buffer: &pending) {
            lock.withLock { received.append(request) }
            let answer = answer(to: request)
            guard write(answer.bytes, to: connection) else { return }
            ending = answer.ending
            guard answer.ending == .keepAlive else { return }
        }
    }

    /// The responder's answer, waited for on this connection's thread.
    private func answer(to request: Request) -> Answer {
        let box = AnswerBox()
        let respond = respond
        Task.detached {
            box.set(await respond(request))
        }
        return box.wait() ?? Answer([], ending: .close)
    }

    private func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Reads one request: its head, then as many body bytes as its `Content-Length` says.
    /// `nil` when the client closed, the server stopped, or nothing came for a minute.
    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> Request? {
        var idle = 0
        while true {
            if let request = Self.parse(&buffer) { return request }
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if isStopped { return nil }
            guard ready > 0 else {
                idle += 1
                if idle > 600 { return nil }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Takes one whole request off the front of `buffer`, if it holds one.
    static func parse(_ buffer: inout [UInt8]) -> Request? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard buffer.count >= 4,
            let end = (0...(buffer.count - 4)).first(where: { Array(buffer[$0..<($0 + 4)]) == separator })
        else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        let headers: [(name: String, value: String)] = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        let bodyStart = end + 4
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeSubrange(..<(bodyStart + length))
        return Request(
            method: requestLine.first.map(String.init) ?? "",
            target: requestLine.count > 1 ? String(requestLine[1]) : "", headers: headers, body: body)
    }

    /// Waits until the other end closes `connection` (or resets it), reading and dropping
    /// what it sends meanwhile, for `seconds` at most or until the server stops: `true`
    /// when the other end closed it.
    private func waitUntilClosedByThePeer(_ connection: Int32, seconds: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<(seconds * 10) where !isStopped {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes {
                recv(connection, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return true }
        }
        return false
    }
}

/// Hands an answer from the responder's task to the connection's thread.
private final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: HostileHTTPServer.Answer?
    private let ready = DispatchSemaphore(value: 0)

    func set(_ answer: HostileHTTPServer.Answer) {
        lock.withLock { self.answer = answer }
        ready.signal()
    }

    /// The answer, or `nil` when none came within two minutes.
    func wait() -> HostileHTTPServer.Answer? {
        guard ready.wait(timeout: .now() + 120) == .success else { return nil }
        return lock.withLock { answer }
    }
}
