import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a conversation with the device's provider service failed, before any answer.
package enum ProviderServiceSocketFailure: Error, Sendable, Equatable {
    /// Nothing listens at the path (no file, or a socket nobody serves).
    case notRunning(path: String, reason: String)
    /// The socket refuses this process (its user may not open it).
    case refused(path: String, reason: String)
    /// No whole answer within the time allowed.
    case timedOut(path: String, seconds: TimeInterval)
    /// The service closed the connection before its answer ended (it stopped or restarted).
    case connectionLost(path: String)
    /// The answer is not a line of the protocol (too long, not JSON, not the answer asked for).
    case badAnswer(path: String, reason: String)
    /// The call was cancelled.
    case cancelled
    /// Anything else the system reported.
    case other(path: String, reason: String)

    /// A short code, as statuses carry it.
    package var code: String {
        switch self {
        case .notRunning: "serviceNotRunning"
        case .refused: "serviceRefused"
        case .timedOut: "timeout"
        case .connectionLost: "connectionLost"
        case .badAnswer: "badAnswer"
        case .cancelled: "cancelled"
        case .other: "serviceUnavailable"
        }
    }

    /// A sentence a person can act on.
    package var message: String {
        switch self {
        case .notRunning(let path, let reason):
            "The TV provider service is not running: nothing answers at \(path) (\(reason)). Start it with "
                + "`accessenabler provider-service`."
        case .refused(let path, let reason):
            "The TV provider service at \(path) does not let this process in (\(reason)): it serves another user."
        case .timedOut(let path, let seconds):
            "The TV provider service at \(path) did not answer within "
                + "\(WholeNumber.clamped(seconds, rounding: .up, as: Int.self)) s."
        case .connectionLost(let path):
            "The TV provider service at \(path) closed the connection before answering (it stopped or restarted)."
        case .badAnswer(let path, let reason):
            "The TV provider service at \(path) answered something that is not its protocol: \(reason)."
        case .cancelled: "The question to the TV provider service was cancelled."
        case .other(let path, let reason): "The TV provider service at \(path) could not be asked: \(reason)."
        }
    }
}

/// A client's end of the provider service's Unix socket: connects, writes one line, reads
/// lines, each step bounded in time, on a thread of its own (a wait never holds one of
/// Swift's few cooperative threads). Cancelling the calling task ends the wait at once.
package final class ProviderServiceSocket: @unchecked Sendable {
    /// The longest answer line read.
    package static let maximumAnswerLength = 256 * 1024

    private let path: String
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var cancelled = false

    private init(path: String) { self.path = path }

    /// Sends `line` to the service at `path` and returns its first answer line (without
    /// the newline).
    package static func exchange(
        path: String, line: String, connectTimeout: TimeInterval, answerTimeout: TimeInterval
    ) async -> Result<[UInt8], ProviderServiceSocketFailure> {
        let socket = ProviderServiceSocket(path: path)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    let result = socket.open(timeout: connectTimeout).flatMap {
                        socket.write(line, timeout: answerTimeout)
                    }
                    .flatMap { socket.readLine(timeout: answerTimeout) }
                    socket.finish()
                    continuation.resume(returning: result)
                }
                thread.name = "accessenabler.provider-service-client"
                thread.start()
            }
        } onCancel: {
            socket.cancel()
        }
    }

    /// Sends `line` to the service at `path`, then hands each line it sends to `received`
    /// until the connection ends or ``cancel()`` is called; returns why it ended. Blocks
    /// the calling thread.
    package static func listen(
        path: String, line: String, connectTimeout: TimeInterval, registered: (ProviderServiceSocket) -> Bool,
        received: ([UInt8]) -> Void
    ) -> ProviderServiceSocketFailure {
        let socket = ProviderServiceSocket(path: path)
        defer { socket.finish() }
        guard registered(socket) else { return .cancelled }
        if case .failure(let failure) = socket.open(timeout: connectTimeout).flatMap({
            socket.write(line, timeout: connectTimeout)
        }) {
            return failure
        }
        while true {
            switch socket.readLine(timeout: nil) {
            case .success(let line): received(line)
            case .failure(let failure): return failure
            }
        }
    }

    /// Ends a wait under way: the blocked read or connect returns `.cancelled`.
    package func cancel() {
        lock.withLock {
            cancelled = true
            if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: Steps

    private var buffered: [UInt8] = []

    private func open(timeout: TimeInterval) -> Result<Void, ProviderServiceSocketFailure> {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= 107 else {
            return .failure(.other(path: path, reason: "a socket path must have 1 to 107 bytes"))
        }
        let created = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard created >= 0 else { return .failure(.other(path: path, reason: Self.errorText())) }
        let proceed = lock.withLock {
            descriptor = created
            return !cancelled
        }
        guard proceed else { return .failure(.cancelled) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(created, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected == 0 { return .success(()) }
        switch errno {
        case ENOENT, ECONNREFUSED, ENOTDIR: return .failure(.notRunning(path: path, reason: Self.errorText()))
        case EACCES, EPERM: return .failure(.refused(path: path, reason: Self.errorText()))
        case EAGAIN, EINPROGRESS:
            // The service's backlog is full: wait for room, within the connect timeout.
            guard wait(for: Int16(POLLOUT), timeout: timeout) else {
                return .failure(lock.withLock { cancelled } ? .cancelled : .timedOut(path: path, seconds: timeout))
            }
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(created, SOL_SOCKET, SO_ERROR, &problem, &length)
            return problem == 0
                ? .success(()) : .failure(.notRunning(path: path, reason: String(cString: strerror(problem))))
        default:
            return .failure(.other(path: path, reason: Self.errorText()))
        }
    }

    private func write(_ line: String, timeout: TimeInterval) -> Result<Void, ProviderServiceSocketFailure> {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        let deadline = Date().addingTimeInterval(timeout)
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                written += count
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN {
                if wait(for: Int16(POLLOUT), timeout: deadline.timeIntervalSinceNow) { continue }
                return .failure(lock.withLock { cancelled } ? .cancelled : .timedOut(path: path, seconds: timeout))
            }
            return .failure(lock.withLock { cancelled } ? .cancelled : .connectionLost(path: path))
        }
        return .success(())
    }

    /// The next line, within `timeout` seconds (`nil`: as long as it takes).
    private func readLine(timeout: TimeInterval?) -> Result<[UInt8], ProviderServiceSocketFailure> {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .success(line)
            }
            guard buffered.count <= Self.maximumAnswerLength else {
                return .failure(.badAnswer(path: path, reason: "a line longer than \(Self.maximumAnswerLength) bytes"))
            }
            guard wait(for: Int16(POLLIN), timeout: deadline.map { $0.timeIntervalSinceNow }) else {
                return .failure(lock.withLock { cancelled } ? .cancelled : .timedOut(path: path, seconds: timeout ?? 0))
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if lock.withLock({ cancelled }) { return .failure(.cancelled) }
            guard count > 0 else { return .failure(.connectionLost(path: path)) }
            buffered += chunk[0..<count]
        }
    }

    /// Waits until `events` (or a hang-up) on the socket; `false` when the time ran out.
    /// `timeout` `nil` waits as long as it takes.
    private func wait(for events: Int16, timeout: TimeInterval?) -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            var slice: Int32 = -1
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return false }
                slice = Int32(min(left * 1_000, 60_000).rounded(.up))
            }
            var poller = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&poller, 1, slice)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return true }
        }
    }

    private func finish() {
        lock.withLock {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
