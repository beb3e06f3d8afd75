import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 that holds every byte a client sends for a fixed delay before it
/// forwards it to the server, and passes the server's bytes back at once: each
/// request-and-answer exchange then costs one added delay, as a wide-area round trip would.
/// Each accepted connection gets its own connection to the server, so a client's kept-alive
/// connections stay kept alive through the proxy, and two requests on two connections are
/// delayed side by side (concurrent requests overlap; sequential ones add up).
///
/// The delay can change between flows (set-up runs with none); bytes already held keep the
/// deadline they were given. Connection set-up itself (the TCP handshake on loopback) is not
/// delayed.
final class DelayingLoopbackProxy: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Where clients connect: `http://127.0.0.1:{port}`.
    let baseURL: URL
    private let listener: Int32
    private let upstreamPort: UInt16
    private let lock = NSLock()
    private var delaySeconds: Double = 0
    private var open: Set<Int32> = []
    private var stopped = false

    /// Starts accepting on an ephemeral loopback port; forwards to 127.0.0.1:`upstreamPort`.
    init(upstreamPort: UInt16) throws {
        self.upstreamPort = upstreamPort
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketFD, 64) == 0 else {
            close(socketFD)
            throw Failure(description: "bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        listener = socketFD
        baseURL = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Seconds each client byte is held before it is forwarded.
    var delay: Double {
        get { lock.withLock { delaySeconds } }
        set { lock.withLock { delaySeconds = newValue } }
    }

    /// Stops accepting and closes every connection (both sides).
    func shutdownAll() {
        let sockets: Set<Int32> = lock.withLock {
            stopped = true
            return open
        }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        for socketFD in sockets { Glibc.shutdown(socketFD, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            guard let server = connectUpstream() else {
                close(client)
                continue
            }
            for socketFD in [client, server] { Self.setNoDelay(socketFD) }
            let admitted = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                open.formUnion([client, server])
                return true
            }
            guard admitted else {
                close(client)
                close(server)
                continue
            }
            startPair(client: client, server: server)
        }
        close(listener)
    }

    /// Client → server through a held queue; server → client straight through. When either
    /// direction ends, both sockets are shut down, and the last thread out closes them.
    private func startPair(client: Int32, server: Int32) {
        let held = HeldBytes()
        let finished = PairEnd(count: 3) { [self] in
            lock.withLock {
                _ = open.remove(client); _ = open.remove(server)
            }
            close(client)
            close(server)
        }
        let endBoth: @Sendable () -> Void = {
            Glibc.shutdown(client, Int32(SHUT_RDWR))
            Glibc.shutdown(server, Int32(SHUT_RDWR))
        }
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                held.push(Array(buffer[0..<count]), due: ProcessMetrics.wallSeconds() + delay)
            }
            held.finish()
            finished.leave()
        }
        Thread.detachNewThread {
            while let (bytes, due) = held.pop() {
                let wait = due - ProcessMetrics.wallSeconds()
                if wait > 0 { Self.sleep(seconds: wait) }
                guard Self.writeAll(server, bytes) else { break }
            }
            endBoth()
            finished.leave()
        }
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(server, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                guard Self.writeAll(client, Array(buffer[0..<count])) else { break }
            }
            endBoth()
            held.finish()
            finished.leave()
        }
    }

    private func connectUpstream() -> Int32? {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return nil }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socketFD)
            return nil
        }
        return socketFD
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func setNoDelay(_ socketFD: Int32) {
        var one: Int32 = 1
        setsockopt(socketFD, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func writeAll(_ socketFD: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(socketFD, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    private static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// The bytes a client sent, each chunk with the moment it may be forwarded, in order.
private final class HeldBytes: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [(bytes: [UInt8], due: Double)] = []
    private var finished = false

    func push(_ bytes: [UInt8], due: Double) {
        condition.withLock {
            chunks.append((bytes, due))
            condition.signal()
        }
    }

    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    /// The next chunk, waiting for one; `nil` once the client's side has ended and every
    /// chunk is out.
    func pop() -> (bytes: [UInt8], due: Double)? {
        condition.withLock {
            while chunks.isEmpty && !finished { condition.wait() }
            return chunks.isEmpty ? nil : chunks.removeFirst()
        }
    }
}

/// Runs `body` once all `count` threads of a connection pair have left.
private final class PairEnd: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private let body: @Sendable () -> Void

    init(count: Int, _ body: @escaping @Sendable () -> Void) {
        remaining = count
        self.body = body
    }

    func leave() {
        let last = lock.withLock { () -> Bool in
            remaining -= 1
            return remaining == 0
        }
        if last { body() }
    }
}
