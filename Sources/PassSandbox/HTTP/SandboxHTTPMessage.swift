import Foundation

/// An HTTP request as PassSandbox reads it, whether it came over loopback HTTP or
/// in-process. The sandbox's own type: it shares nothing with the SDK's REST client.
public struct SandboxRequest: Sendable {
    /// Method, upper case.
    public var method: String
    /// The path, percent-decoding not applied (`/api/v2/REF30/sessions`).
    public var path: String
    /// Query items in order, percent-decoded.
    public var query: [(name: String, value: String)]
    /// Header fields in order as received.
    public var headers: [(name: String, value: String)]
    /// The body bytes (empty for none).
    public var body: [UInt8]
    /// The client connection the request arrived on, when it came over the network (the
    /// loopback server numbers its connections: `connection 12`); `nil` in-process.
    /// PassSandbox throttles by it when a request names neither a device nor a client.
    public var connection: String?

    /// Creates a request.
    public init(
        method: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], body: [UInt8] = [], connection: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.connection = connection
    }

    /// Creates a request from a request target (`/path?query`), splitting and decoding the query.
    public init(
        method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        connection: String? = nil
    ) {
        let parts = HTTPASCII.splitOnce(target, at: UInt8(ascii: "?"))
        let path = parts.map { String($0.head) } ?? target
        let query = parts.map { SandboxRequest.decodeForm(String($0.tail)) } ?? []
        self.init(
            method: method, path: path.isEmpty ? "/" : path, query: query, headers: headers, body: body,
            connection: connection)
    }

    /// The first value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { HTTPASCII.equalIgnoringCase($0.name, name) }?.value
    }

    /// The first value of a query item.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Decodes `application/x-www-form-urlencoded` text (`a=1&b=x%20y`), `+` as space. A
    /// malformed escape (`%` not followed by two hex digits) or escapes that do not spell
    /// UTF-8 leave that name or value as written, with `+` read as space.
    public static func decodeForm(_ text: String) -> [(name: String, value: String)] {
        text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (decodeFormComponent(parts[0]), parts.count > 1 ? decodeFormComponent(parts[1]) : "")
        }
    }

    /// One name or value of a form, byte by byte (a SAML response is kilobytes long).
    private static func decodeFormComponent(_ bytes: Substring.UTF8View) -> String {
        var decoded = [UInt8]()
        decoded.reserveCapacity(bytes.count)
        var malformed = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                guard first < bytes.endIndex, bytes.index(after: first) < bytes.endIndex,
                    let high = hexValue(bytes[first]), let low = hexValue(bytes[bytes.index(after: first)])
                else {
                    malformed = true
                    decoded.append(byte)
                    index = bytes.index(after: index)
                    continue
                }
                decoded.append(high << 4 | low)
                index = bytes.index(index, offsetBy: 3)
                continue
            } else {
                decoded.append(byte)
            }
            index = bytes.index(after: index)
        }
        if !malformed, let text = String(validating: decoded, as: UTF8.self) { return text }
        // As written, `+` read as space (what removingPercentEncoding's failure left).
        return String(decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// An HTTP response as PassSandbox writes it.
public struct SandboxResponse: Sendable {
    /// Status code.
    public var status: Int
    /// Header fields (the server adds `Content-Length`, `Date` and `Connection`).
    public var headers: [(name: String, value: String)]
    /// Body bytes.
    public var body: [UInt8]
    /// When set, the server closes the connection without writing anything: the
    /// "dropped connection" fault.
    public var dropConnection: Bool

    /// Creates a response.
    public init(
        status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], dropConnection: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.dropConnection = dropConnection
    }

    /// The first value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { HTTPASCII.equalIgnoringCase($0.name, name) }?.value
    }
}

/// Anything that answers sandbox requests: the Adobe Pass logic, or a test double.
public protocol SandboxRequestHandler: Sendable {
    /// Answers one request.
    func respond(to request: SandboxRequest) async -> SandboxResponse
}

/// How a handler that can often answer at once (``SandboxImmediateHandler``) took a request.
enum SandboxStagedAnswer: Sendable {
    /// The answer, computed on the calling thread.
    case ready(SandboxResponse)
    /// The answer needs to wait (an injected latency): run this to get it.
    case later(@Sendable () async -> SandboxResponse)
}

/// A handler that usually answers without suspending. The HTTP server calls
/// ``answerAtOnce(_:)`` on the connection's thread and starts a task only for `.later`,
/// saving a task, an executor hop and a thread wake-up per request.
protocol SandboxImmediateHandler: SandboxRequestHandler {
    /// Takes the request; `.later` carries the rest of the work (its side effects so far
    /// are not repeated).
    func answerAtOnce(_ request: SandboxRequest) -> SandboxStagedAnswer
}
