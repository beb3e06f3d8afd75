/// Why `HTTPRequestParser` refused a request. Every case ends the connection: the
/// server answers with `status` and a plain-text `message`, then closes.
enum HTTPParseError: Error, Equatable, Sendable {
    /// Request line, a header field or `Content-Length` is malformed (400).
    case badRequest(String)
    /// The head grew past the header limit before its blank line arrived (431).
    case headerTooLarge
    /// Head plus declared body exceed the request limit (413).
    case requestTooLarge
    /// The request uses `Transfer-Encoding` (e.g. chunked), which this server does
    /// not decode; clients must send `Content-Length` instead (501).
    case transferEncodingNotImplemented
    /// The request line names an HTTP version other than 1.0 or 1.1 (505).
    case versionNotSupported

    /// The response status for this error.
    var status: Int {
        switch self {
        case .badRequest: 400
        case .headerTooLarge: 431
        case .requestTooLarge: 413
        case .transferEncodingNotImplemented: 501
        case .versionNotSupported: 505
        }
    }

    /// The plain-text body explaining the refusal.
    var message: String {
        switch self {
        case .badRequest(let reason): "Bad request: \(reason)."
        case .headerTooLarge: "Request header fields too large."
        case .requestTooLarge: "Request too large."
        case .transferEncodingNotImplemented:
            "Transfer-Encoding (chunked request bodies) is not supported; send the body with Content-Length."
        case .versionNotSupported: "HTTP version not supported; use HTTP/1.1 or HTTP/1.0."
        }
    }
}
