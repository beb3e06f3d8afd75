import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The Chrome DevTools protocol over the browser's pipes: each message is one JSON object
/// followed by a NUL byte. Commands carry an `id`; the browser answers with the same `id`
/// (`result` or `error`). Events (no `id`) are not needed by the harness and are dropped.
///
/// A thread of its own reads the pipe (polling, so it also notices ``stop()``), so no
/// Swift concurrency thread ever blocks on the browser. Every command has a deadline.
final class DevToolsConnection: @unchecked Sendable {
    private let commandDescriptor: Int32
    private let lock = NSLock()
    /// Serialises writes; separate from `lock`, so a write the browser is slow to take never
    /// holds up the reader.
    private let writeLock = NSLock()
    private var nextID = 1
    private var pending: [Int: (method: String, continuation: CheckedContinuation<Result<Data, BrowserError>, Never>)] =
        [:]
    private var closedReason: String?
    private var stopRequested = false

    /// Starts reading `replyDescriptor` (which the connection closes when it stops).
    init(commandDescriptor: Int32, replyDescriptor: Int32) {
        self.commandDescriptor = commandDescriptor
        // Writing to a pipe whose reader died must fail with EPIPE, not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        let thread = Thread { [self] in readLoop(replyDescriptor) }
        thread.name = "DevTools pipe reader"
        thread.start()
    }

    /// Stops the reader (within a fraction of a second) and fails every waiting command.
    func stop() {
        lock.withLock { stopRequested = true }
        failAll("the browser was closed")
    }

    /// Sends `method` with `params` (to the page attached as `sessionID`, when given) and
    /// returns the `result` object's JSON.
    func call(_ method: String, _ params: [String: Any] = [:], sessionID: String? = nil, timeout: TimeInterval)
        async throws(BrowserError) -> Data
    {
        let id: Int = lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let sessionID { message["sessionId"] = sessionID }
        guard var bytes = try? JSONSerialization.data(withJSONObject: message, options: []) else {
            throw .scriptFailed("the parameters of \(method) are not JSON")
        }
        bytes.append(0)
        let frame = bytes
        let outcome: Result<Data, BrowserError> = await withCheckedContinuation { continuation in
            let closed: String? = lock.withLock {
                if let closedReason { return closedReason }
                pending[id] = (method, continuation)
                return nil
            }
            if let closed {
                continuation.resume(returning: .failure(.disconnected(closed)))
                return
            }
            if let failure = write(frame) {
                finish(id, .failure(failure))
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
                self?.finish(id, .failure(.timedOut("\(method) took more than \(timeout) seconds")))
            }
        }
        return try outcome.get()
    }

    // MARK: Plumbing

    /// Resumes the command `id`, if it still waits.
    private func finish(_ id: Int, _ result: Result<Data, BrowserError>) {
        let waiting = lock.withLock { pending.removeValue(forKey: id) }
        waiting?.continuation.resume(returning: result)
    }

    private func failAll(_ reason: String) {
        let waiting: [(method: String, continuation: CheckedContinuation<Result<Data, BrowserError>, Never>)] =
            lock.withLock {
                if closedReason == nil { closedReason = reason }
                defer { pending.removeAll() }
                return Array(pending.values)
            }
        for entry in waiting {
            entry.continuation.resume(
                returning: .failure(.disconnected("\(reason) (while waiting for \(entry.method))")))
        }
    }

    /// Writes one whole frame; `nil` on success.
    private func write(_ frame: Data) -> BrowserError? {
        writeLock.lock()
        defer { writeLock.unlock() }
        return frame.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> BrowserError? in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(commandDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return .disconnected("cannot write to the browser: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
            return nil
        }
    }

    /// Reads frames until the browser closes the pipe or ``stop()`` is called.
    private func readLoop(_ descriptor: Int32) {
        var buffered: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var reason = "the browser closed its pipe"
        while true {
            if lock.withLock({ stopRequested }) { reason = "the browser was closed"; break }
            var watch = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, 200)
            if ready < 0 {
                if errno == EINTR { continue }
                reason = "cannot wait for the browser: \(String(cString: strerror(errno)))"
                break
            }
            if ready == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                reason = "cannot read from the browser: \(String(cString: strerror(errno)))"
                break
            }
            if count == 0 { break }
            buffered.append(contentsOf: chunk[0..<count])
            while let end = buffered.firstIndex(of: 0) {
                deliver(Data(buffered[0..<end]))
                buffered.removeSubrange(0...end)
            }
        }
        close(descriptor)
        failAll(reason)
    }

    /// Hands a reply to the command waiting for it.
    private func deliver(_ message: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: message, options: []) as? [String: Any],
            let id = (object["id"] as? NSNumber)?.intValue
        else { return }  // an event
        if let error = object["error"] as? [String: Any] {
            let method = lock.withLock { pending[id]?.method } ?? "a command"
            finish(id, .failure(.protocolError(method: method, message: error["message"] as? String ?? "\(error)")))
            return
        }
        let result = object["result"] ?? [String: Any]()
        finish(id, .success((try? JSONSerialization.data(withJSONObject: result, options: [])) ?? Data("{}".utf8)))
    }
}
