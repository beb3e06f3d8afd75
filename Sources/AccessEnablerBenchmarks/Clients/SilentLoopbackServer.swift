import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1 that never answers, except `GET /warm` (so a client can open a
/// connection it keeps alive): every other request is read and left unanswered until the
/// client gives up. The waiting measurement's server.
///
/// A thread per connection blocks in `read`, so the server itself uses no CPU while a
/// client waits.
final class SilentLoopbackServer: @unchecked Sendable {
    /// The port it listens on.
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var stopped = false

    /// Listens on an ephemeral port of 127.0.0.1.
    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SilentServerError(reason: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 64) == 0,
            withUnsafeMutablePointer(
                to: &address,
                { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }) == 0
        else {
            close(descriptor)
            throw SilentServerError(reason: "bind or listen: errno \(errno)")
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The base URL of the server.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops listening and closes every connection.
    func shutdown() {
        let open: [Int32] = lock.withLock {
            stopped = true
            defer { connections.removeAll() }
            return connections
        }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in open {
            Glibc.shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let keep: Bool = lock.withLock {
                guard !stopped else { return false }
                connections.append(connection)
                return true
            }
            guard keep else {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    /// Answers each `GET /warm` on the connection; reads, and never answers, anything else.
    private func serve(_ connection: Int32) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var answering = true
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            guard answering else { continue }
            pending.append(contentsOf: buffer[0..<count])
            while let end = Self.headEnd(in: pending) {
                let head = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeSubrange(0..<(end + 4))
                guard head.hasPrefix("GET /warm ") else {
                    answering = false
                    break
                }
                let answer = Array(
                    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nKeep-Alive: timeout=60\r\nContent-Type: application/json\r\n\r\n{}"
                        .utf8)
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            }
        }
    }

    /// Where the first request head ends (the index of its blank line), if it has arrived.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// The silent server could not listen.
struct SilentServerError: Error, CustomStringConvertible {
    var reason: String
    var description: String { "the silent loopback server could not start: \(reason)" }
}
