import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server for loopback use, built on POSIX sockets and threads only,
/// that hands every request to a `SandboxRequestHandler`.
///
/// - Connections are persistent (HTTP/1.1 by default, HTTP/1.0 with
///   `Connection: keep-alive`; `Connection: close` from either side is honoured).
///   Pipelined requests are answered in order.
/// - Request bodies are framed by `Content-Length` or `Transfer-Encoding: chunked` (decoded;
///   trailer fields are dropped). Any other transfer coding is refused with 501.
/// - Refusals close the connection after answering: malformed request line, field,
///   `Content-Length` or chunk, an HTTP/1.1 request without exactly one valid `Host`, or
///   framing that cannot be trusted (`Transfer-Encoding` with `Content-Length` or in
///   HTTP/1.0) → 400, head or trailers over `maxHeaderBytes` → 431, request over
///   `maxRequestBytes` → 413, an `Expect` other than `100-continue` → 417, HTTP version
///   other than 1.0/1.1 → 505, body slower than `bodyTimeout` → 408. A head slower than
///   `headerTimeout` or a kept-alive connection silent for `idleTimeout` is closed without
///   an answer.
/// - Every response carries `Content-Length` (except 204 and 304, which have no body),
///   `Date` and `Connection: keep-alive` or `close`. A response with
///   `dropConnection` set closes the connection without a byte written. Answers to
///   HEAD are sent without their body; `Expect: 100-continue` gets `100 Continue` unless
///   the body is already arriving.
/// - At `maxConnections`, a new client makes the server close its longest-idle
///   connection instead of being turned away; idle clients cannot lock others out.
/// - Each connection is served by its own thread; handlers run as tasks, so a slow
///   handler delays only its own connection. Because handlers need Swift
///   concurrency's shared threads, an in-process client must not block those threads
///   while it waits for an answer (use async APIs such as `URLSession.data(for:)`).
public final class LoopbackHTTPServer: Sendable {
    private enum Lifecycle {
        case idle
        case running(listener: Int32, wakeRead: Int32, wakeWrite: Int32, port: Int)
        case stopping(wakeRead: Int32, wakeWrite: Int32)
        case stopped
    }

    private struct State {
        var lifecycle = Lifecycle.idle
        var connections: [ObjectIdentifier: HTTPConnection] = [:]
        /// Numbers the connections (`connection 1`, `connection 2`, …).
        var accepted: UInt64 = 0
        /// Idle connections closed to make room for new clients.
        var evicted = 0
    }

    private let host: String
    private let requestedPort: Int
    private let limits: LoopbackHTTPServerLimits
    private let handler: any SandboxRequestHandler
    private let state = HTTPLocked(State())
    /// Entered for the accept thread and every connection thread.
    private let workers = DispatchGroup()

    /// Creates a server; nothing is bound until `start()`.
    /// - Parameters:
    ///   - host: Numeric IPv4 or IPv6 address to bind (`localhost` means `127.0.0.1`).
    ///   - port: Port to bind; 0 picks a free one.
    ///   - limits: Size limits and timeouts applied to every client.
    ///   - handler: Answers every request.
    public init(
        host: String = "127.0.0.1", port: Int = 0, limits: LoopbackHTTPServerLimits = .init(),
        handler: any SandboxRequestHandler
    ) {
        self.host = host
        self.requestedPort = port
        self.limits = limits
        self.handler = handler
    }

    /// Binds (with `SO_REUSEADDR`), listens and starts accepting connections.
    /// - Returns: The port actually bound.
    /// - Throws: `LoopbackHTTPServerError`; a server starts at most once.
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state in
            guard case .idle = state.lifecycle else { throw LoopbackHTTPServerError.alreadyStarted }
            let listener = try HTTPSocket.listen(host: host, port: requestedPort)
            guard let wake = HTTPSocket.makePipe() else {
                let reason = HTTPSocket.lastError()
                close(listener.descriptor)
                throw LoopbackHTTPServerError.listenFailed("pipe: \(reason)")
            }
            state.lifecycle = .running(
                listener: listener.descriptor, wakeRead: wake.read, wakeWrite: wake.write, port: listener.port)
            workers.enter()
            let thread = Thread { [self] in
                acceptConnections(listener: listener.descriptor, wake: wake.read)
                close(listener.descriptor)
                workers.leave()
            }
            thread.name = "LoopbackHTTPServer.accept"
            thread.start()
            return listener.port
        }
    }

    /// The port being listened on; `nil` before `start()` and after `shutdown()`.
    public var port: Int? {
        state.withLock { state in
            if case .running(_, _, _, let port) = state.lifecycle { return port }
            return nil
        }
    }

    /// `http://HOST:PORT` while listening, `nil` otherwise.
    public var baseURL: URL? {
        guard let port else { return nil }
        let authority = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(authority):\(port)")
    }

    /// Stops the server: closes the listener and every connection (requests in
    /// progress get no answer) and waits for all of the server's threads to end.
    /// When it returns the port is closed. Calling it again, or before `start()`,
    /// does nothing more.
    public func shutdown() {
        let wakeWrite: Int32? = state.withLock { state in
            switch state.lifecycle {
            case .idle:
                state.lifecycle = .stopped
                return nil
            case .running(_, let wakeRead, let wakeWrite, _):
                state.lifecycle = .stopping(wakeRead: wakeRead, wakeWrite: wakeWrite)
                // Under the lock, so no connection can close its descriptor meanwhile.
                for connection in state.connections.values { connection.abort() }
                return wakeWrite
            case .stopping, .stopped:
                return nil
            }
        }
        if let wakeWrite {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        workers.wait()
        state.withLock { state in
            if case .stopping(let wakeRead, let wakeWrite) = state.lifecycle {
                close(wakeRead)
                close(wakeWrite)
                state.lifecycle = .stopped
            }
        }
    }

    deinit {
        shutdown()
    }

    /// The accept thread: waits on the listener and the wake pipe until shutdown.
    private func acceptConnections(listener: Int32, wake: Int32) {
        while true {
            let ready = HTTPSocket.waitReadable([listener, wake], until: nil)
            if ready.contains(1) { return }
            while let descriptor = HTTPSocket.accept(from: listener, sendTimeout: limits.idleTimeout) {
                serve(descriptor)
            }
            if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                // Out of descriptors: back off instead of spinning on a listener that stays readable.
                if HTTPSocket.waitReadable([wake], until: DispatchTime.now().uptimeNanoseconds + 100_000_000) == [0] {
                    return
                }
            }
        }
    }

    /// How many idle connections were closed so far to make room for new clients.
    public var evictedConnectionCount: Int { state.withLock { $0.evicted } }

    /// How many open connections wait, idle, for their next request (the ones the server
    /// may close to make room).
    package var idleConnectionCount: Int { state.withLock { $0.connections.values.filter { $0.idleFor != nil }.count } }

    /// Registers a new connection and starts its thread. When the server is full, the
    /// connection that has been idle longest (between requests, or silent since it was
    /// accepted) is closed to make room, so idle kept-alive clients cannot lock others
    /// out; when every connection is busy, or the server is stopping, the new socket is
    /// closed at once.
    private func serve(_ descriptor: Int32) {
        let accepted: HTTPConnection? = state.withLock { state in
            guard case .running = state.lifecycle else { return nil }
            if state.connections.count >= limits.maxConnections {
                guard Self.evictLongestIdle(from: &state) else { return nil }
            }
            state.accepted += 1
            let connection = HTTPConnection(
                descriptor: descriptor, serial: state.accepted, limits: limits, handler: handler)
            state.connections[ObjectIdentifier(connection)] = connection
            workers.enter()
            return connection
        }
        guard let connection = accepted else {
            close(descriptor)
            return
        }
        let thread = Thread { [self] in
            connection.run()
            state.withLock { state in _ = state.connections.removeValue(forKey: ObjectIdentifier(connection)) }
            // Closed only after leaving the registry, so `abort()` never touches a reused descriptor.
            close(connection.descriptor)
            workers.leave()
        }
        thread.name = "LoopbackHTTPServer.connection"
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// Must be called with the state lock held: closes the connection idle the longest
    /// and takes it out of the registry (its thread still ends on its own and closes the
    /// descriptor). `false` when no connection is idle.
    private static func evictLongestIdle(from state: inout State) -> Bool {
        while true {
            var oldest: (key: ObjectIdentifier, connection: HTTPConnection, since: UInt64)?
            for (key, connection) in state.connections {
                if let since = connection.idleFor, since < oldest?.since ?? .max { oldest = (key, connection, since) }
            }
            guard let oldest else { return false }
            // It may have become busy since it was looked at; then try the next one.
            if oldest.connection.evictIfIdle() {
                state.connections[oldest.key] = nil
                state.evicted += 1
                return true
            }
        }
    }
}
