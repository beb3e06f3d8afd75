/// Why `HTTPRequestParser` refused a request. Every case ends the connection: the
/// server answers with `status` and a plain-text `message`, then closes.
enum HTTPParseError: Error, Equatable, Sendable {
    /// Request line, a header field, `Content-Length`, `Host`, the body framing or a chunk
    /// is malformed (400).
    case badRequest(String)
    /// The head (or a chunked body's trailer section) grew past the header limit (431).
    case headerTooLarge
    /// Head plus body exceed the request limit (413).
    case requestTooLarge
    /// The request applies a transfer coding other than `chunked` (for example `gzip`),
    /// which this server does not decode (501, RFC 9112 §6.1).
    case transferCodingNotImplemented(String)
    /// The request carries an `Expect` other than `100-continue` (417, RFC 9110 §10.1.1).
    case expectationFailed(String)
    /// The request line names an HTTP version other than 1.0 or 1.1 (505).
    case versionNotSupported

    /// The response status for this error.
    var status: Int {
        switch self {
        case .badRequest: 400
        case .headerTooLarge: 431
        case .requestTooLarge: 413
        case .transferCodingNotImplemented: 501
        case .expectationFailed: 417
        case .versionNotSupported: 505
        }
    }

    /// The plain-text body explaining the refusal.
    var message: String {
        switch self {
        case .badRequest(let reason): "Bad request: \(reason)."
        case .headerTooLarge: "Request header fields too large."
        case .requestTooLarge: "Request too large."
        case .transferCodingNotImplemented(let coding):
            "The transfer coding \"\(coding)\" is not supported; send the body as it is, with Content-Length or Transfer-Encoding: chunked."
        case .expectationFailed(let expectation):
            "The expectation \"\(expectation)\" cannot be met; only 100-continue is supported."
        case .versionNotSupported: "HTTP version not supported; use HTTP/1.1 or HTTP/1.0."
        }
    }
}
