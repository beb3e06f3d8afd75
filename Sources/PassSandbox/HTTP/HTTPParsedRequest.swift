import Foundation

/// One complete HTTP/1.x request as `HTTPRequestParser` reads it off the wire,
/// before it becomes a `SandboxRequest`.
struct HTTPParsedRequest: Sendable {
    /// The method token exactly as sent (methods are case-sensitive).
    var method: String
    /// The request target in origin form (`/path?query`), or `*`.
    var target: String
    /// The minor version of HTTP/1.x: 0 or 1.
    var minorVersion: Int
    /// Header fields in order as received, values trimmed of surrounding whitespace.
    var headers: [(name: String, value: String)]
    /// The body (exactly `Content-Length` bytes).
    var body: [UInt8]

    /// Whether the client allows the connection to stay open after the response:
    /// HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        var keepAliveAsked = false
        for field in headers where HTTPASCII.equalIgnoringCase(field.name, "Connection") {
            for token in field.value.split(separator: ",") {
                let trimmed = HTTPASCII.trimmingSpaces(String(token))
                if HTTPASCII.equalIgnoringCase(trimmed, "close") { return false }
                if HTTPASCII.equalIgnoringCase(trimmed, "keep-alive") { keepAliveAsked = true }
            }
        }
        return minorVersion >= 1 || keepAliveAsked
    }

    /// Whether an HTTP/1.1 client waits for `100 Continue` before sending its body.
    var expectsContinue: Bool {
        minorVersion >= 1
            && headers.contains {
                HTTPASCII.equalIgnoringCase($0.name, "Expect") && HTTPASCII.equalIgnoringCase($0.value, "100-continue")
            }
    }

    /// The request handed to a `SandboxRequestHandler`.
    var sandboxRequest: SandboxRequest {
        SandboxRequest(method: method, target: target, headers: headers, body: body)
    }
}
