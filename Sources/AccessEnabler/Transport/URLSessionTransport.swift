import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Real HTTP through Foundation's `URLSession`.
///
/// - Ephemeral session: no cookies, no cache, no stored credentials.
/// - Redirects are not followed: a 3xx comes back as the response, so the caller sees
///   exactly what the server said.
/// - Never waits past the timeout: besides `URLRequest.timeoutInterval`, the transport
///   keeps its own deadline (on the process's deadline watchdog, cancelled when the answer arrives) and gives
///   up with ``TransportFailure/timedOut`` when it passes.
/// - Keeps connections alive, but never sends a request with a body on a kept-alive
///   connection the server may be closing (idle for about its keep-alive timeout): such a
///   request goes out on a new connection instead. Without this, a POST that meets a
///   connection the server just closed costs the whole request timeout (see
///   `KeepAliveReuse` in the source for why detecting and repeating it is not an option).
/// - Reads no more of a body than the request's ``HTTPRequestMessage/maximumResponseBodySize``:
///   a `Content-Length` over it, or a body that grows past it, ends the exchange at once
///   with ``TransportFailure/responseTooLarge(limit:)``; what is left is never read.
/// - Failures map onto ``TransportFailure``: refused or unresolvable → `cannotConnect`,
///   reset or truncated → `connectionLost`, task cancelled → `cancelled`.
public struct URLSessionTransport: HTTPTransport {
    private let holder: SessionHolder

    /// `true`: every exchange has its deadline on the process's deadline watchdog.
    public var keepsItsDeadline: Bool { true }

    /// One transport for the whole process, the default of `AccessEnablerConfiguration`:
    /// every AccessEnabler that does not bring its own shares its connections.
    public static let shared = URLSessionTransport()

    /// Creates a transport with its own ephemeral session.
    public init() {
        holder = SessionHolder(assumedServerTimeout: KeepAliveReuse.assumedServerTimeout)
    }

    /// A transport that assumes servers close idle connections after `assumedServerTimeout`
    /// seconds when they do not say (tests use a short one).
    init(assumedServerTimeout: TimeInterval) {
        holder = SessionHolder(assumedServerTimeout: assumedServerTimeout)
    }

    /// Sends `request` and returns the whole response (a 3xx included), or throws a
    /// ``TransportFailure`` no later than `timeout` seconds after the call.
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let boundedTimeout = max(0.001, timeout)
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: boundedTimeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        urlRequest.httpBody = request.body

        let exchange = PendingExchange(limit: request.maximumResponseBodySize)
        let host = SessionHolder.key(for: request.url)
        let (session, delegate) = holder.session(for: request, host: host)
        let result: Result<HTTPResponseMessage, TransportFailure> = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>) in
                exchange.install(continuation)
                // No completion handler: the session's delegate hands the body over as it
                // arrives, so the exchange can stop reading past its limit.
                let task = session.dataTask(with: urlRequest)
                delegate.register(exchange, for: task)
                // The transport's own deadline, in case the session's timer does not fire.
                exchange.attach(task, session: session, deadline: boundedTimeout)
                task.resume()
            }
        } onCancel: {
            exchange.finish(.failure(.cancelled))
        }
        holder.finished(host: host, result: result)
        return try result.get()
    }

    /// Maps a data task's completion onto a response or a failure.
    static func outcome(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<
        HTTPResponseMessage, TransportFailure
    > {
        if let error {
            return .failure(failure(for: error))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.other("the response is not HTTP"))
        }
        var headers: [(name: String, value: String)] = []
        for (name, value) in http.allHeaderFields {
            headers.append((String(describing: name), String(describing: value)))
        }
        return .success(HTTPResponseMessage(status: http.statusCode, headers: headers, body: data ?? Data()))
    }

    /// The transport failure for a URL loading error.
    static func failure(for error: any Error) -> TransportFailure {
        guard let urlError = error as? URLError else {
            return .other(error.localizedDescription)
        }
        switch urlError.code {
        case .timedOut:
            return .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .badURL,
            .unsupportedURL, .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .internationalRoamingOff:
            return .cannotConnect("\(urlError.code.rawValue): \(urlError.localizedDescription)")
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource,
            .cannotDecodeRawData, .cannotDecodeContentData, .resourceUnavailable:
            return .connectionLost("\(urlError.code.rawValue): \(urlError.localizedDescription)")
        case .cancelled:
            return .cancelled
        default:
            // FoundationNetworking on Linux reports some libcurl failures (a body cut short,
            // a reset, an empty reply) as an unknown error carrying only curl's message.
            let description = urlError.localizedDescription
            let lowered = description.lowercased()
            let lostMarkers = [
                "transfer closed", "remaining to read", "connection reset", "recv failure", "empty reply",
                "partial file",
            ]
            if lostMarkers.contains(where: lowered.contains) {
                return .connectionLost(description)
            }
            if lowered.contains("failed to connect") || lowered.contains("couldn't connect") {
                return .cannotConnect(description)
            }
            return .other("\(urlError.code.rawValue): \(description)")
        }
    }
}

/// Owns the ephemeral session and its delegate, and what is known of each host's pooled
/// connection; replaces the session (so its connections) when a request with a body would
/// otherwise meet a connection the server may be closing (see ``KeepAliveReuse``).
/// Invalidates the session when the last transport copy goes away.
private final class SessionHolder: @unchecked Sendable {
    /// What is known of the connection kept alive to one host.
    private struct PooledConnection {
        /// When the last exchange with the host ended (uptime nanoseconds).
        var idleSince: UInt64
        /// The server's `Keep-Alive: timeout`, when it sent one.
        var advertisedTimeout: TimeInterval?
        /// Exchanges in progress with the host.
        var inFlight = 0
    }

    private let lock = NSLock()
    private var current: URLSession
    /// The delegate of `current`.
    private var currentDelegate: ExchangeDelegate
    private var pooled: [String: PooledConnection] = [:]
    private let assumedServerTimeout: TimeInterval

    init(assumedServerTimeout: TimeInterval) {
        self.assumedServerTimeout = assumedServerTimeout
        (current, currentDelegate) = Self.makeSession()
    }

    deinit {
        current.invalidateAndCancel()
    }

    /// The key connections are pooled under: scheme, host and port.
    static func key(for url: URL) -> String {
        "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port.map(String.init) ?? "")"
    }

    /// The session to send `request` on, with its delegate: a new one when the request
    /// cannot be repeated by the HTTP stack and the host's idle connection may be closing.
    func session(for request: HTTPRequestMessage, host: String) -> (URLSession, ExchangeDelegate) {
        let now = DispatchTime.now().uptimeNanoseconds
        let (session, retired): ((URLSession, ExchangeDelegate), URLSession?) = lock.withLock {
            var retired: URLSession?
            if !KeepAliveReuse.isRepeatableByTheHTTPStack(body: request.body), let connection = pooled[host],
                connection.inFlight == 0,
                KeepAliveReuse.mayBeClosed(
                    idle: TimeInterval(now &- connection.idleSince) / 1_000_000_000,
                    advertisedTimeout: connection.advertisedTimeout,
                    assumedTimeout: assumedServerTimeout)
            {
                retired = current
                (current, currentDelegate) = Self.makeSession()
                pooled.removeAll()
            }
            pooled[host, default: PooledConnection(idleSince: now)].inFlight += 1
            return ((current, currentDelegate), retired)
        }
        // Requests still running on the old session finish there.
        retired?.finishTasksAndInvalidate()
        return session
    }

    /// Notes the end of an exchange with `host`: the connection is idle from now, or gone
    /// after a failure or `Connection: close`.
    func finished(host: String, result: Result<HTTPResponseMessage, TransportFailure>) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            guard var connection = pooled[host] else { return }
            connection.inFlight = max(0, connection.inFlight - 1)
            switch result {
            case .success(let response) where !KeepAliveReuse.closesConnection(response.header("Connection")):
                connection.idleSince = now
                connection.advertisedTimeout = KeepAliveReuse.advertisedTimeout(response.header("Keep-Alive"))
                pooled[host] = connection
            default:
                // No connection is left to reuse (unless another exchange is still running on one).
                if connection.inFlight == 0 { pooled[host] = nil } else { pooled[host] = connection }
            }
        }
    }

    private static func makeSession() -> (URLSession, ExchangeDelegate) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = ExchangeDelegate()
        return (URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil), delegate)
    }
}

/// The delegate of one session: hands each task's response and body to its exchange as
/// they arrive, and declines every redirect so the 3xx response itself completes the task.
private final class ExchangeDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var exchanges: [Int: PendingExchange] = [:]

    /// `task`'s events go to `exchange` until the task completes.
    func register(_ exchange: PendingExchange, for task: URLSessionTask) {
        lock.withLock { exchanges[task.taskIdentifier] = exchange }
    }

    private func exchange(of task: URLSessionTask) -> PendingExchange? {
        lock.withLock { exchanges[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = exchange(of: dataTask)?.received(response) ?? true
        completionHandler(accepted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(of: dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }
        exchange?.completed(error: error)
    }
}

/// One request in flight: resumes its continuation exactly once, with whichever of the
/// completion, the deadline or a cancellation comes first, cancels the data task when the
/// completion was not first, and cancels the deadline when it was. Holds the session
/// until then, so a session replaced meanwhile lives until its last request ends.
private final class PendingExchange: DeadlineExpiring, @unchecked Sendable {
    private let lock = NSLock()
    /// The most bytes of body read, or `nil` for no limit.
    private let limit: Int?
    private var response: URLResponse?
    private var body = Data()
    private var continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>?
    private var task: URLSessionDataTask?
    private var session: URLSession?
    private var deadline: DeadlineWatchdog.Ticket?
    private var earlyResult: Result<HTTPResponseMessage, TransportFailure>?
    private var finished = false

    init(limit: Int?) { self.limit = limit }

    /// The response head arrived: `false` (and the exchange fails) when its `Content-Length`
    /// already says the body is over the limit.
    func received(_ response: URLResponse) -> Bool {
        if let limit, response.expectedContentLength > Int64(limit) {
            finish(.failure(.responseTooLarge(limit: limit)))
            return false
        }
        lock.withLock { self.response = response }
        return true
    }

    /// A piece of the body arrived; past the limit the exchange fails and the task stops.
    func received(_ data: Data) {
        let over: Bool = lock.withLock {
            guard !finished else { return false }
            if let limit, body.count + data.count > limit { return true }
            body.append(data)
            return false
        }
        if over, let limit { finish(.failure(.responseTooLarge(limit: limit))) }
    }

    /// The task ended: the whole response, or the failure.
    func completed(error: (any Error)?) {
        let (response, body) = lock.withLock { (self.response, self.body) }
        finish(URLSessionTransport.outcome(data: body, response: response, error: error))
    }

    func install(_ continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>) {
        let early: Result<HTTPResponseMessage, TransportFailure>? = lock.withLock {
            if let earlyResult { return earlyResult }
            self.continuation = continuation
            return nil
        }
        // Cancelled before the continuation existed.
        if let early { continuation.resume(returning: early) }
    }

    /// Keeps the task and its session, and sets the deadline on the process's watchdog
    /// (unless it is all over).
    func attach(_ task: URLSessionDataTask, session: URLSession, deadline seconds: TimeInterval) {
        let ticket = DeadlineWatchdog.shared.schedule(after: seconds, self)
        let cancelNow: Bool = lock.withLock {
            if finished { return true }
            self.task = task
            self.session = session
            self.deadline = ticket
            return false
        }
        if cancelNow {
            task.cancel()
            DeadlineWatchdog.shared.cancel(ticket)
        }
    }

    func deadlinePassed() { finish(.failure(.timedOut)) }

    func finish(_ result: Result<HTTPResponseMessage, TransportFailure>) {
        typealias Pending = (
            continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>?,
            task: URLSessionDataTask?,
            deadline: DeadlineWatchdog.Ticket?
        )
        let pending: Pending? = lock.withLock {
            guard !finished else { return nil }
            finished = true
            if continuation == nil { earlyResult = result }
            defer {
                continuation = nil
                deadline = nil
                session = nil
                body = Data()
            }
            return (continuation, task, deadline)
        }
        guard let pending else { return }
        if let deadline = pending.deadline { DeadlineWatchdog.shared.cancel(deadline) }
        // A deadline or cancellation stops the data task; its late completion is ignored.
        if case .failure = result { pending.task?.cancel() }
        pending.continuation?.resume(returning: result)
    }
}
