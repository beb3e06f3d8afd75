import Foundation

/// One HTTP request as the REST client hands it to a transport.
///
/// The transport knows nothing about Adobe Pass: it moves bytes. Headers keep the order
/// and spelling the client gave them.
public struct HTTPRequestMessage: Sendable, Equatable {
    /// The HTTP method, upper case (`GET`, `POST`).
    public var method: String
    /// The absolute URL, query string included.
    public var url: URL
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body, or `nil` for none.
    public var body: Data?
    /// Which Adobe Pass operation the request carries, as the SDK names it (for example
    /// `configuration`, `createSession`, `authorize`, `dcrRegister`, `dcrToken`), so a
    /// transport or a decorator (tracing, diagnostics) can label it without parsing the URL.
    /// `nil` for a request the SDK did not make. Not sent on the wire.
    public var operationName: String?
    /// The most bytes of response body the SDK accepts for this request, or `nil` for no
    /// limit. A transport should stop reading once the body grows past it and fail with
    /// ``TransportFailure/responseTooLarge(limit:)`` (``URLSessionTransport`` does); the SDK
    /// refuses a longer body from any transport anyway. Not sent on the wire.
    public var maximumResponseBodySize: Int?

    /// Creates a request message.
    public init(
        method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
        operationName: String? = nil,
        maximumResponseBodySize: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.operationName = operationName
        self.maximumResponseBodySize = maximumResponseBodySize
    }

    /// The first value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { HTTPFieldName.matches($0.name, name) }?.value
    }

    /// Requests are equal when method, URL, headers (in order) and body are: what goes on the
    /// wire (``operationName`` and ``maximumResponseBodySize`` are not sent and do not count).
    public static func == (lhs: HTTPRequestMessage, rhs: HTTPRequestMessage) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
    }
}

/// One HTTP response as a transport hands it back to the REST client.
public struct HTTPResponseMessage: Sendable {
    /// The status code (200, 401, …).
    public var status: Int
    /// Header fields as received.
    public var headers: [(name: String, value: String)]
    /// The body, possibly empty.
    public var body: Data
    /// When the SDK got this answer from its transport (set by the SDK, `nil` before). Answers
    /// asked for together are ranked by it, not by how soon the SDK got round to reading them.
    var arrival: ContinuousClock.Instant?

    /// Creates a response message.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { HTTPFieldName.matches($0.name, name) }?.value
    }
}

/// Why a transport could not produce a response.
public enum TransportFailure: Error, Sendable, Equatable {
    /// No response arrived within the timeout.
    case timedOut
    /// Nothing listens at the address (connection refused, host unreachable).
    case cannotConnect(String)
    /// The connection closed before a whole response arrived.
    case connectionLost(String)
    /// The request was cancelled.
    case cancelled
    /// The response body grew past the request's ``HTTPRequestMessage/maximumResponseBodySize``
    /// (`limit` bytes); the rest was not read.
    case responseTooLarge(limit: Int)
    /// Any other failure, described for a person.
    case other(String)
}

/// Moves one request to an Adobe Pass server and brings back its response.
///
/// Two implementations ship: ``URLSessionTransport`` (real HTTP through FoundationNetworking)
/// and ``InProcessTransport`` (a closure, used to talk straight to an in-process server in
/// tests). Shaped like swift-openapi-runtime's `ClientTransport`: one async method, errors
/// thrown, no knowledge of the operations above it.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response, or throws a ``TransportFailure``
    /// no later than `timeout` seconds after the call.
    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage

    /// Whether `send` is known to end on time by itself. When it is not (the default), the
    /// SDK also runs a backstop around each exchange, so a transport that overstays the
    /// timeout still cannot hold a call; when it is, the backstop's task would only add a
    /// thread hop to every exchange.
    var keepsItsDeadline: Bool { get }
}

extension HTTPTransport {
    /// `false`: the SDK guards the transport's timeout with a backstop of its own.
    public var keepsItsDeadline: Bool { false }
}

/// A transport that hands each request to a closure: the in-process path to a server
/// living in the same process (PassSandbox in unit tests and benchmarks).
public struct InProcessTransport: HTTPTransport {
    private let handler: @Sendable (HTTPRequestMessage) async throws(TransportFailure) -> HTTPResponseMessage

    /// Creates a transport that answers every request with `handler`.
    public init(
        _ handler: @escaping @Sendable (HTTPRequestMessage) async throws(TransportFailure) -> HTTPResponseMessage
    ) {
        self.handler = handler
    }

    /// Hands `request` to the closure; `timeout` is the closure's to honour.
    public func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        try await handler(request)
    }
}
