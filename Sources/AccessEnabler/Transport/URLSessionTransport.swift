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
///   keeps its own deadline and gives up with ``TransportFailure/timedOut`` when it passes.
/// - Failures map onto ``TransportFailure``: refused or unresolvable → `cannotConnect`,
///   reset or truncated → `connectionLost`, task cancelled → `cancelled`.
public struct URLSessionTransport: HTTPTransport {
    private let holder: SessionHolder

    /// Creates a transport with its own ephemeral session.
    public init() {
        holder = SessionHolder()
    }

    /// Sends `request` and returns the whole response (a 3xx included), or throws a
    /// ``TransportFailure`` no later than `timeout` seconds after the call.
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure) -> HTTPResponseMessage {
        let boundedTimeout = max(0.001, timeout)
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: boundedTimeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        urlRequest.httpBody = request.body

        let exchange = PendingExchange()
        let session = holder.session
        let result: Result<HTTPResponseMessage, TransportFailure> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>) in
                exchange.install(continuation)
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    exchange.finish(Self.outcome(data: data, response: response, error: error))
                }
                exchange.attach(task)
                // The transport's own deadline, in case the session's timer does not fire.
                DispatchQueue.global().asyncAfter(deadline: .now() + boundedTimeout) {
                    exchange.finish(.failure(.timedOut))
                }
                task.resume()
            }
        } onCancel: {
            exchange.finish(.failure(.cancelled))
        }
        return try result.get()
    }

    /// Maps a data task's completion onto a response or a failure.
    private static func outcome(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<HTTPResponseMessage, TransportFailure> {
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
            let lostMarkers = ["transfer closed", "remaining to read", "connection reset", "recv failure", "empty reply", "partial file"]
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

/// Owns the ephemeral session and its delegate; invalidates the session when the last
/// transport copy goes away.
private final class SessionHolder: @unchecked Sendable {
    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }
}

/// Declines every redirect so the 3xx response itself completes the task.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// One request in flight: resumes its continuation exactly once, with whichever of the
/// completion, the deadline or a cancellation comes first, and cancels the data task when
/// the completion was not first.
private final class PendingExchange: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>?
    private var task: URLSessionDataTask?
    private var earlyResult: Result<HTTPResponseMessage, TransportFailure>?
    private var finished = false

    func install(_ continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>) {
        let early: Result<HTTPResponseMessage, TransportFailure>? = lock.withLock {
            if let earlyResult { return earlyResult }
            self.continuation = continuation
            return nil
        }
        // Cancelled before the continuation existed.
        if let early { continuation.resume(returning: early) }
    }

    func attach(_ task: URLSessionDataTask) {
        let cancelNow: Bool = lock.withLock {
            self.task = task
            return finished
        }
        if cancelNow { task.cancel() }
    }

    func finish(_ result: Result<HTTPResponseMessage, TransportFailure>) {
        typealias Pending = (continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>?, task: URLSessionDataTask?)
        let pending: Pending? = lock.withLock {
            guard !finished else { return nil }
            finished = true
            if continuation == nil { earlyResult = result }
            defer { continuation = nil }
            return (continuation, task)
        }
        guard let pending else { return }
        // A deadline or cancellation stops the data task; its late completion is ignored.
        if case .failure = result { pending.task?.cancel() }
        pending.continuation?.resume(returning: result)
    }
}
