import AccessEnablerScenarios
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client on one kept-alive TCP connection to 127.0.0.1: sends one
/// fixed request over and over and reads each response (head, then a `Content-Length`
/// body). Blocking I/O with a receive timeout; for the sandbox throughput measurement only.
final class KeepAliveClient {
    /// Why a request could not be completed.
    enum Failure: Error {
        case connect(Int32)
        case closed
        case malformed
        case timedOut
    }

    private var descriptor: Int32 = -1
    private let port: UInt16
    private var buffer: [UInt8] = []

    init(port: UInt16) { self.port = port }

    deinit { close() }

    /// Opens the connection (TCP_NODELAY, 2 s receive timeout).
    func connect() throws(Failure) {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw .connect(errno) }
        var one: Int32 = 1
        setsockopt(socketDescriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(socketDescriptor)
            throw .connect(code)
        }
        descriptor = socketDescriptor
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Sends `request` (a whole HTTP/1.1 request) and returns the response's status code;
    /// `keepAlive` is false when the server said it will close the connection.
    func exchange(_ request: [UInt8]) throws(Failure) -> (status: Int, keepAlive: Bool) {
        var sent = 0
        while sent < request.count {
            let written = request.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw .closed }
            sent += written
        }
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."), statusLine.count >= 12,
              let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw .malformed }
        var length = 0
        var keepAlive = true
        for line in lines.dropFirst() {
            let lowered = line.lowercased()
            if lowered.hasPrefix("content-length:") {
                guard let value = Int(lowered.dropFirst(15).trimmingCharacters(in: .whitespaces)) else { throw .malformed }
                length = value
            } else if lowered.hasPrefix("connection:"), lowered.contains("close") {
                keepAlive = false
            }
        }
        let total = headEnd + 4 + length
        while buffer.count < total { try fill() }
        buffer.removeFirst(total)
        return (status, keepAlive)
    }

    /// Index of the `\r\n\r\n` ending the head, reading more as needed.
    private func readUntilHeadEnd() throws(Failure) -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                var index = searchFrom
                while index + 3 < buffer.count {
                    if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
                    index += 1
                }
                searchFrom = max(0, buffer.count - 3)
            }
            if buffer.count > 64 * 1024 { throw .malformed }
            try fill()
        }
    }

    private func fill() throws(Failure) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut }
        throw .closed
    }
}
