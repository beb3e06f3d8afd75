import Foundation

/// Real HTTP through libcurl's multi interface: the default transport on Linux.
///
/// - **One thread for every request.** The transport's event thread owns one libcurl multi
///   handle and waits on every request's sockets at once (`curl_multi_poll`); a request
///   crosses to it and comes back as one result. A request waiting on a server that never
///   answers costs a sleeping poll, not a spinning core.
/// - **No trap on any bytes.** The response head is read by the SDK's own reader, which
///   accepts only an HTTP status line, skips informational (1xx) heads and trailer fields,
///   and reads field values that are not UTF-8 as ISO-8859-1. A connection that closes or
///   resets anywhere — in the status line, in the head, in the body — ends the request with
///   ``TransportFailure/connectionLost(_:)``; every libcurl error is exactly one
///   ``TransportFailure`` case.
/// - **As URLSessionTransport otherwise.** Redirects are not followed (a 3xx is the
///   answer). HTTPS is verified against the system's certificate store (libcurl's
///   defaults, never turned off). Proxies come from the environment as curl reads them
///   (`http_proxy`, `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`). Connections are kept alive,
///   at most six per host, and a request with a body never meets a kept-alive connection
///   the server may be closing (see `KeepAliveReuse` in the source). A body is not read past
///   the request's ``HTTPRequestMessage/maximumResponseBodySize``: a `Content-Length` over
///   it is refused before the body, a body that grows past it ends the exchange with
///   ``TransportFailure/responseTooLarge(limit:)``. Every request ends by its timeout.
/// - **Cancellation frees at once.** A cancelled request returns
///   ``TransportFailure/cancelled`` at once, and its transfer is removed and its handle
///   freed in the event thread's next turn; so are a timed-out request's.
///
/// libcurl is loaded at run time (`libcurl.so.4`, which FoundationNetworking needs
/// anyway), so the package builds without libcurl's development files. Where it cannot be
/// loaded (or is older than 7.68), the transport sends through ``URLSessionTransport``
/// instead: ``fallbackReason`` says why, standard error says so once per process, and an
/// AccessEnabler that uses it reports it at its first `setRequestor`
/// (``Diagnostic/transportFallback(message:)``).
public struct CurlTransport: HTTPTransport {
    private enum Backend: Sendable {
        case curl(CurlTransportCore)
        case urlSession(URLSessionTransport, reason: String)
    }

    private let backend: Backend

    /// One transport for the whole process, the default of `AccessEnablerConfiguration`
    /// on Linux: every AccessEnabler that does not bring its own shares its event thread
    /// and its connections.
    public static let shared = CurlTransport()

    /// Creates a transport with its own event thread (started by its first request, ended
    /// when the last copy of the transport is released) and its own connections.
    public init() {
        self.init(library: LibCurl.shared, assumedServerTimeout: KeepAliveReuse.assumedServerTimeout)
    }

    /// A transport over the library `libraryName` (a test names one that does not exist).
    init(libraryName: String) {
        self.init(library: LibCurl.load(libraryName), assumedServerTimeout: KeepAliveReuse.assumedServerTimeout)
    }

    /// A transport that assumes servers close idle connections after `assumedServerTimeout`
    /// seconds when they do not say (tests use a short one).
    init(assumedServerTimeout: TimeInterval) {
        self.init(library: LibCurl.shared, assumedServerTimeout: assumedServerTimeout)
    }

    private init(library: Result<LibCurl, LibCurl.LoadFailure>, assumedServerTimeout: TimeInterval) {
        let reason: String
        switch library {
        case .success(let curl):
            do {
                backend = .curl(try CurlTransportCore(curl: curl, assumedServerTimeout: assumedServerTimeout))
                return
            } catch {
                reason = "\(error)"
            }
        case .failure(let failure):
            reason = failure.description
        }
        backend = .urlSession(URLSessionTransport(), reason: reason)
        if OncePerProcess.shared.firstTime("transportFallback") {
            FileHandle.standardError.write(Data(("AccessEnabler: " + Self.fallbackMessage(reason) + "\n").utf8))
        }
    }

    /// `true`: libcurl ends every transfer at its timeout, and the event loop ends it at
    /// the same deadline should libcurl not.
    public var keepsItsDeadline: Bool { true }

    /// Why requests go through ``URLSessionTransport`` instead of libcurl (the library
    /// could not be loaded, or is too old), or `nil` when they go through libcurl.
    public var fallbackReason: String? {
        guard case .urlSession(_, let reason) = backend else { return nil }
        return reason
    }

    /// libcurl's version line (`libcurl/7.88.1 OpenSSL/3.0.19 …`), or `nil` when the
    /// transport falls back to URLSession.
    public var libcurlVersion: String? {
        guard case .curl(let core) = backend else { return nil }
        return core.loop.curl.version
    }

    /// The sentence that says the transport fell back, and why.
    static func fallbackMessage(_ reason: String) -> String {
        "libcurl cannot be used (\(reason)), so requests go through URLSession, which "
            + "FoundationNetworking of Swift 6.3 stops the process on for some legal answers and which keeps a "
            + "core busy while a request waits for a connection. Install libcurl 7.68 or later (libcurl4 on "
            + "Debian and Ubuntu) to use the libcurl transport."
    }

    /// Sends `request` and returns the whole response (a 3xx included), or throws a
    /// ``TransportFailure`` no later than `timeout` seconds after the call.
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        switch backend {
        case .urlSession(let fallback, _):
            return try await fallback.send(request, timeout: timeout)
        case .curl(let core):
            return try await core.send(request, timeout: timeout)
        }
    }
}

/// The event loop of one ``CurlTransport`` and its copies; stops the loop when the last
/// copy goes away (a request under way keeps it).
private final class CurlTransportCore: Sendable {
    let loop: CurlEventLoop

    init(curl: LibCurl, assumedServerTimeout: TimeInterval) throws(TransportFailure) {
        loop = try CurlEventLoop(curl: curl, assumedServerTimeout: assumedServerTimeout)
    }

    deinit { loop.stop() }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let plan = try CurlRequestPlan.make(for: request, timeout: timeout).get()
        let (nanoseconds, tooLong) = UInt64(truncatingIfNeeded: plan.timeoutMilliseconds).multipliedReportingOverflow(
            by: 1_000_000)
        let (deadline, tooLate) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(nanoseconds)
        let exchange = CurlExchange(plan: plan, deadline: tooLong || tooLate ? .max : deadline)
        let loop = loop
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CurlExchange.Outcome, Never>) in
                if exchange.install(continuation) { loop.start(exchange) }
            }
        } onCancel: {
            if exchange.finish(.failure(.cancelled)) { loop.abandon(exchange) }
        }
        return try outcome.get()
    }
}
