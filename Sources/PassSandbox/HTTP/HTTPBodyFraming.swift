/// How the body of a request is delimited on the wire (RFC 9112 §6.3).
enum HTTPBodyFraming: Equatable, Sendable {
    /// Exactly this many bytes follow the head (`Content-Length`, or 0 when neither
    /// `Content-Length` nor `Transfer-Encoding` is present).
    case length(Int)
    /// `Transfer-Encoding: chunked`: chunks follow until the last (zero-size) chunk and the
    /// trailer section.
    case chunked
}
