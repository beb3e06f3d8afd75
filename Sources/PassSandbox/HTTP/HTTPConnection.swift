import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One accepted client, served on its own thread: blocking reads guarded by `poll`
/// deadlines, requests parsed by `HTTPRequestParser` and answered in order.
///
/// The server owns the descriptor's lifetime (it closes it after `run()` returns);
/// the connection only reads, writes and half-closes it. `abort()` may be called from
/// another thread at any time while the descriptor is open: it wakes the thread
/// whether it is waiting for bytes, writing, or waiting for the handler.
///
/// The connection is also the task executor its handler runs on: while the thread waits
/// for an answer it runs the handler's jobs itself. The handler therefore never needs a
/// thread of Swift's shared pool, and a process whose pool is busy or blocked (tests that
/// block, heavy load) cannot starve the server.
final class HTTPConnection: TaskExecutor, @unchecked Sendable {
    let descriptor: Int32
    private let limits: LoopbackHTTPServerLimits
    private let handler: any SandboxRequestHandler
    /// The same handler when it can answer on this thread without a task.
    private let immediateHandler: (any SandboxImmediateHandler)?
    private let acceptedAt: UInt64
    /// `connection N`, handed to the handler with every request.
    private let label: String

    /// Guards `aborted`, `idleSince`, `pendingResponse` and `jobs`, and signals the
    /// handler's answer.
    private let condition = NSCondition()
    private var aborted = false
    /// Since when (uptime nanoseconds) the connection has been waiting for the first byte
    /// of a request; `nil` while a request is being read or answered.
    private var idleSince: UInt64?
    private var pendingResponse: SandboxResponse?
    /// Handler jobs waiting for this connection's thread.
    private var jobs: [UnownedJob] = []
    /// Set once this thread no longer drains `jobs`: later jobs go to a global queue.
    private var jobsHandedOff = false

    /// Bytes read per `recv`.
    private static let readChunkSize = 64 * 1024
    /// How long a closing connection keeps discarding input so the client reads the
    /// last response instead of a reset.
    private static let lingerNanoseconds: UInt64 = 2_000_000_000
    /// How much input a closing connection discards at most.
    private static let lingerMaxBytes = 4 << 20

    init(descriptor: Int32, serial: UInt64, limits: LoopbackHTTPServerLimits, handler: any SandboxRequestHandler) {
        self.descriptor = descriptor
        self.limits = limits
        self.handler = handler
        self.immediateHandler = handler as? any SandboxImmediateHandler
        self.acceptedAt = DispatchTime.now().uptimeNanoseconds
        self.label = "connection \(serial)"
    }

    /// Stops the connection from another thread: the serving thread wakes up and
    /// returns without writing more.
    func abort() {
        condition.lock()
        aborted = true
        condition.broadcast()
        condition.unlock()
        // Wakes a poll, recv or send in progress on the serving thread.
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private var isAborted: Bool {
        condition.lock()
        defer { condition.unlock() }
        return aborted
    }

    /// Since when the connection has been idle between requests (or since it was
    /// accepted, before its first request); `nil` while it reads or answers one.
    var idleFor: UInt64? {
        condition.lock()
        defer { condition.unlock() }
        return aborted ? nil : idleSince
    }

    /// Closes the connection if it is still idle, as a server may close an idle
    /// kept-alive connection at any time (RFC 9112 §9.5): the server does it to make
    /// room when it is full. Returns `false` when the connection is busy or gone.
    func evictIfIdle() -> Bool {
        condition.lock()
        guard !aborted, idleSince != nil else {
            condition.unlock()
            return false
        }
        aborted = true
        condition.broadcast()
        condition.unlock()
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        return true
    }

    /// Marks the connection idle (waiting for a request's first byte) or busy; `false`
    /// when it was evicted or aborted meanwhile.
    private func setIdle(since start: UInt64?) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        idleSince = start
        return !aborted
    }

    /// Serves requests until the client leaves, an error or timeout closes the
    /// connection, or `abort()` is called.
    func run() {
        var parser = HTTPRequestParser(maxHeaderBytes: limits.maxHeaderBytes, maxRequestBytes: limits.maxRequestBytes)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readChunkSize, alignment: 1)
        defer { chunk.deallocate() }
        var servedRequests = 0
        var lastResponseAt = acceptedAt
        // The phase the parser was last seen in while waiting for bytes, and since when.
        var trackedPhase: HTTPRequestParser.Phase?
        var phaseStartedAt = acceptedAt

        while !isAborted {
            switch parser.nextEvent() {
            case .request(let request):
                let keepAliveRequested = request.wantsKeepAlive
                var sandboxRequest = request.sandboxRequest
                sandboxRequest.connection = label
                guard let response = answer(sandboxRequest) else { return }
                if response.dropConnection { return }
                let keepAlive = keepAliveRequested && !HTTPResponseEncoder.asksToClose(response)
                let bytes = HTTPResponseEncoder.encode(
                    response, keepAlive: keepAlive, omittingBody: request.method == "HEAD")
                // Idle from the moment the answer goes out, read before the client can have
                // it: a client that has its answer and opens another connection finds this
                // one idle since earlier, however late this thread runs again.
                lastResponseAt = DispatchTime.now().uptimeNanoseconds
                guard HTTPSocket.sendAll(descriptor, bytes) else { return }
                guard keepAlive else { return closeAfterLastResponse() }
                servedRequests += 1
                trackedPhase = nil

            case .failure(let error):
                let response = HTTPResponseEncoder.errorResponse(status: error.status, message: error.message)
                if HTTPSocket.sendAll(descriptor, HTTPResponseEncoder.encode(response, keepAlive: false)) {
                    closeAfterLastResponse()
                }
                return

            case .needMoreBytes:
                if parser.awaitsContinue {
                    guard HTTPSocket.sendAll(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
                    parser.continueSent()
                }
                let phase = parser.phase
                if phase != trackedPhase {
                    trackedPhase = phase
                    phaseStartedAt = DispatchTime.now().uptimeNanoseconds
                }
                let deadline = self.deadline(
                    for: phase, servedRequests: servedRequests, lastResponseAt: lastResponseAt,
                    phaseStartedAt: phaseStartedAt)
                if phase == .awaitingRequest {
                    guard setIdle(since: servedRequests == 0 ? acceptedAt : lastResponseAt) else { return }
                }
                let waited = HTTPSocket.waitReadable(descriptor, until: deadline)
                if phase == .awaitingRequest {
                    // Busy from here: the server no longer picks this connection to close.
                    guard setIdle(since: nil) else { return }
                }
                if waited == .timedOut {
                    if phase == .readingBody { sendTimeoutAndClose() }
                    // A silent or slow client before its head is complete is simply dropped.
                    return
                }
                let count = HTTPSocket.receive(descriptor, into: chunk)
                guard count > 0 else { return }
                parser.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            }
        }
    }

    /// When the wait for the next bytes must end, uptime nanoseconds.
    private func deadline(
        for phase: HTTPRequestParser.Phase, servedRequests: Int, lastResponseAt: UInt64, phaseStartedAt: UInt64
    ) -> UInt64 {
        switch phase {
        case .awaitingRequest where servedRequests == 0, .readingHead where servedRequests == 0:
            // The first head must be complete within headerTimeout of the connection's start.
            return acceptedAt + Self.nanoseconds(limits.headerTimeout)
        case .awaitingRequest:
            return lastResponseAt + Self.nanoseconds(limits.idleTimeout)
        case .readingHead:
            return phaseStartedAt + Self.nanoseconds(limits.headerTimeout)
        case .readingBody:
            return phaseStartedAt + Self.nanoseconds(limits.bodyTimeout)
        }
    }

    /// The handler's answer: computed on this thread when the handler can answer at once,
    /// else by a task running on this connection's own thread. `nil` when the connection
    /// was aborted meanwhile.
    private func answer(_ request: SandboxRequest) -> SandboxResponse? {
        let work: @Sendable () async -> SandboxResponse
        if let immediateHandler {
            switch immediateHandler.answerAtOnce(request) {
            case .ready(let response): return response
            case .later(let rest): work = rest
            }
        } else {
            let handler = self.handler
            work = { await handler.respond(to: request) }
        }
        Task(executorPreference: self) {
            let response = await work()
            self.deliver(response)
        }
        condition.lock()
        while true {
            if let response = pendingResponse {
                pendingResponse = nil
                condition.unlock()
                return response
            }
            if aborted {
                // The handler may still be running: its remaining jobs run elsewhere.
                let leftover = jobs
                jobs.removeAll()
                jobsHandedOff = true
                condition.unlock()
                leftover.forEach(runElsewhere)
                return nil
            }
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
                continue
            }
            condition.wait()
        }
    }

    /// Takes a job of the handler's task; this connection's thread runs it.
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        if jobsHandedOff {
            condition.unlock()
            runElsewhere(unowned)
            return
        }
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    private func runElsewhere(_ job: UnownedJob) {
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }

    private func deliver(_ response: SandboxResponse) {
        condition.lock()
        pendingResponse = response
        condition.signal()
        condition.unlock()
    }

    private func sendTimeoutAndClose() {
        let response = HTTPResponseEncoder.errorResponse(status: 408, message: "Request body not received in time.")
        if HTTPSocket.sendAll(descriptor, HTTPResponseEncoder.encode(response, keepAlive: false)) {
            closeAfterLastResponse()
        }
    }

    /// Half-closes after the last response and discards what the client still sends
    /// (an unread body, pipelined requests) for a short while. Closing with unread
    /// input would reset the connection and could destroy the response before the
    /// client reads it.
    private func closeAfterLastResponse() {
        Glibc.shutdown(descriptor, Int32(SHUT_WR))
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.lingerNanoseconds
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readChunkSize, alignment: 1)
        defer { chunk.deallocate() }
        var discarded = 0
        while discarded < Self.lingerMaxBytes, !isAborted,
            HTTPSocket.waitReadable(descriptor, until: deadline) == .readable
        {
            let count = HTTPSocket.receive(descriptor, into: chunk)
            guard count > 0 else { return }
            discarded += count
        }
    }

    private static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(0, min(seconds, 1e9)) * 1_000_000_000)
    }
}
