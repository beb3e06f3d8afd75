import Foundation

#if canImport(Glibc)
import Glibc
#endif

private struct HTTPTestReadResult: Sendable {
    var bytes: [UInt8]
    var closed: Bool
}

/// A response as the raw test client read it.
struct HTTPTestResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs blocking work on a thread of its own, so that waiting on a socket never
/// occupies the few threads that Swift concurrency (and so the server's handlers)
/// runs on.
func httpTestOnOwnThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// A loopback TCP client for the server tests: sends exact bytes and reads responses
/// or the end of the stream, every wait bounded. Reads happen on a thread of their own.
/// One client is used by one test at a time.
final class HTTPTestClient: @unchecked Sendable {
    enum ConnectError: Error, Equatable {
        case refused
        case failed(Int32)
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    private(set) var sawEndOfStream = false

    /// Connects to 127.0.0.1:port.
    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectError.failed(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw error == ECONNREFUSED ? ConnectError.refused : ConnectError.failed(error)
        }
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Sends all bytes; false if the server is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Sends UTF-8 text.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Half-closes the sending side: the server reads end of stream.
    func finishSending() { Glibc.shutdown(descriptor, Int32(SHUT_WR)) }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    /// How long a read waits for bytes that should come (an answer, the server closing the
    /// connection) before it gives up: a bound for a hang only, which a loaded machine meets.
    static let patience: Double = 60

    /// Reads one response framed by Content-Length (no body when absent); `nil` when
    /// the stream ended or `timeout` passed first.
    func readResponse(timeout: Double = patience) async -> HTTPTestResponse? {
        await httpTestOnOwnThread { self.blockingReadResponse(timeout: timeout) }
    }

    /// Reads one response head only (the answer to a HEAD request announces a body it does
    /// not send); the body is left empty. `nil` when the stream ended or `timeout` passed.
    func readResponseHead(timeout: Double = patience) async -> HTTPTestResponse? {
        await httpTestOnOwnThread { self.blockingReadResponse(timeout: timeout, headOnly: true) }
    }

    /// Reads until the server closes the connection or `timeout` passes; returns the
    /// bytes not yet consumed by `readResponse` and whether the stream ended.
    func readUntilClosed(timeout: Double = patience) async -> (bytes: [UInt8], closed: Bool) {
        let result = await httpTestOnOwnThread { () -> HTTPTestReadResult in
            let result = self.blockingReadUntilClosed(timeout: timeout)
            return HTTPTestReadResult(bytes: result.bytes, closed: result.closed)
        }
        return (result.bytes, result.closed)
    }

    private func blockingReadResponse(timeout: Double, headOnly: Bool = false) -> HTTPTestResponse? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let response = takeResponse(headOnly: headOnly) { return response }
            guard fill(until: deadline) else { return nil }
        }
    }

    private func blockingReadUntilClosed(timeout: Double) -> (bytes: [UInt8], closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while fill(until: deadline) {}
        let bytes = buffer
        buffer = []
        return (bytes, sawEndOfStream)
    }

    /// Reads more bytes into the buffer; false at end of stream, on error or timeout.
    private func fill(until deadline: Date) -> Bool {
        guard !sawEndOfStream else { return false }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return false }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(remaining * 1000) + 1)
        guard ready > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else {
            // 0 is an orderly close; a reset counts as closed too.
            sawEndOfStream = true
            return false
        }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    private func takeResponse(headOnly: Bool = false) -> HTTPTestResponse? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headEnd = buffer.firstRange(of: separator) else { return nil }
        let headText = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length =
            headOnly ? 0 : headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        let bodyStart = headEnd.upperBound
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeSubrange(0..<(bodyStart + length))
        return HTTPTestResponse(status: status, headers: headers, body: body)
    }
}
