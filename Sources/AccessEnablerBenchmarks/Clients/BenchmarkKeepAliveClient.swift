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
    /// What `recv` reads into, allocated once.
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)

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
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
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
            let written = request.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw .closed }
            sent += written
        }
        let headEnd = try readUntilHeadEnd()
        // The head is read byte by byte: this client shares the cores with the server it
        // measures, so its own parsing should cost as little as possible.
        let head = buffer[..<headEnd]
        guard head.count >= 12, head.starts(with: "HTTP/1.".utf8),
            let status = Self.number(in: head[(head.startIndex + 9)..<(head.startIndex + 12)])
        else { throw .malformed }
        var length = 0
        var keepAlive = true
        var lineStart = head.startIndex
        while lineStart < head.endIndex {
            let lineEnd = head[lineStart...].firstIndex(of: 13) ?? head.endIndex
            let line = head[lineStart..<lineEnd]
            if Self.hasPrefixIgnoringCase(line, "content-length:") {
                guard let value = Self.number(in: line.dropFirst(15).drop { $0 == 32 }) else { throw .malformed }
                length = value
            } else if Self.hasPrefixIgnoringCase(line, "connection:"),
                Self.containsIgnoringCase(line.dropFirst(11), "close")
            {
                keepAlive = false
            }
            lineStart = lineEnd + 2
        }
        let total = headEnd + 4 + length
        while buffer.count < total { try fill() }
        buffer.removeFirst(total)
        return (status, keepAlive)
    }

    /// The decimal number the bytes spell, or `nil`.
    private static func number(in bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < 16, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    /// Whether `line` starts with `prefix` (lower case ASCII), ignoring case.
    private static func hasPrefixIgnoringCase(_ line: ArraySlice<UInt8>, _ prefix: String) -> Bool {
        line.count >= prefix.utf8.count && zip(line, prefix.utf8).allSatisfy { ($0 | 0x20) == $1 }
    }

    /// Whether `bytes` contain `word` (lower case ASCII), ignoring case.
    private static func containsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ word: String) -> Bool {
        let pattern = Array(word.utf8)
        guard bytes.count >= pattern.count else { return false }
        return (bytes.startIndex...(bytes.endIndex - pattern.count)).contains { start in
            zip(bytes[start...], pattern).allSatisfy { ($0 | 0x20) == $1 }
        }
    }

    /// Index of the `\r\n\r\n` ending the head, reading more as needed.
    private func readUntilHeadEnd() throws(Failure) -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                var index = searchFrom
                while index + 3 < buffer.count {
                    if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                        return index
                    }
                    index += 1
                }
                searchFrom = max(0, buffer.count - 3)
            }
            if buffer.count > 64 * 1024 { throw .malformed }
            try fill()
        }
    }

    private func fill() throws(Failure) {
        let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: scratch[..<count])
            return
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut }
        throw .closed
    }
}
