import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns a `SandboxResponse` into HTTP/1.1 bytes.
///
/// The encoder owns the framing fields: it writes `Content-Length` and `Connection`
/// itself and drops any the handler set, so a handler can never break the framing.
/// `Date` is the handler's when it gave a valid one (PassSandbox dates its answers by
/// its own clock), else the current time. Fields with invalid names or line breaks in
/// their values are dropped (no header injection). 204 and 304 responses carry no body
/// and no `Content-Length`, as RFC 9110 requires; interim statuses (1xx) and numbers
/// outside 100...999 become 500.
enum HTTPResponseEncoder {
    /// Whether the handler asked to close the connection with `Connection: close`.
    static func asksToClose(_ response: SandboxResponse) -> Bool {
        response.headers.contains { field in
            HTTPASCII.equalIgnoringCase(field.name, "Connection")
                && field.value.split(separator: ",").contains {
                    HTTPASCII.equalIgnoringCase(HTTPASCII.trimmingSpaces(String($0)), "close")
                }
        }
    }

    /// The bytes of `response`, announcing `Connection: keep-alive` or `close`.
    /// `omittingBody` answers a HEAD request: the head announces the body's length
    /// but the body is not sent. `date` is used when the response carries no `Date`.
    static func encode(
        _ response: SandboxResponse, keepAlive: Bool, omittingBody: Bool = false,
        date: @autoclosure () -> String = HTTPDate.now()
    ) -> [UInt8] {
        let status = (200...999).contains(response.status) ? response.status : 500
        let bodyless = status == 204 || status == 304
        var bytes: [UInt8] = []
        bytes.reserveCapacity(192 + response.headers.count * 48 + (bodyless || omittingBody ? 0 : response.body.count))
        append("HTTP/1.1 ", to: &bytes)
        append(String(status), to: &bytes)
        bytes.append(HTTPByte.space)
        append(reasonPhrase(status), to: &bytes)
        append("\r\n", to: &bytes)
        var handlerDate: String?
        for field in response.headers {
            switch classify(field) {
            case .date: if handlerDate == nil { handlerDate = field.value }
            case .write:
                append(field.name, to: &bytes)
                append(": ", to: &bytes)
                append(field.value, to: &bytes)
                append("\r\n", to: &bytes)
            case .drop: break
            }
        }
        if !bodyless {
            append("Content-Length: ", to: &bytes)
            append(String(response.body.count), to: &bytes)
            append("\r\n", to: &bytes)
        }
        append("Date: ", to: &bytes)
        append(handlerDate ?? date(), to: &bytes)
        append(keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n", to: &bytes)
        if !bodyless && !omittingBody { bytes.append(contentsOf: response.body) }
        return bytes
    }

    /// The plain-text answer to a request the parser refused.
    static func errorResponse(status: Int, message: String) -> SandboxResponse {
        SandboxResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((message + "\n").utf8)
        )
    }

    @inline(__always)
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
    }

    private enum FieldDisposition { case write, date, drop }

    /// What to do with a handler's field: framing fields are the encoder's (a `Date` is
    /// kept aside), unsafe ones are dropped.
    private static func classify(_ field: (name: String, value: String)) -> FieldDisposition {
        guard !field.name.isEmpty,
            field.name.utf8.allSatisfy(HTTPByte.isTokenCharacter),
            field.value.utf8.allSatisfy({ $0 != HTTPByte.cr && $0 != HTTPByte.lf && $0 != 0 })
        else { return .drop }
        // Only the framing names need a closer look; most fields are skipped by length.
        switch field.name.utf8.count {
        case 4 where HTTPASCII.equalIgnoringCase(field.name, "Date"):
            return field.value.isEmpty ? .drop : .date
        case 10
        where HTTPASCII.equalIgnoringCase(field.name, "Connection")
            || HTTPASCII.equalIgnoringCase(field.name, "Keep-Alive"),
            14 where HTTPASCII.equalIgnoringCase(field.name, "Content-Length"),
            17 where HTTPASCII.equalIgnoringCase(field.name, "Transfer-Encoding"):
            return .drop
        default:
            return .write
        }
    }

    /// The reason phrase for a status (RFC 9110 §15); `Status` for unlisted ones.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}

/// The IMF-fixdate of RFC 9110 §5.6.7 (`Sun, 06 Nov 1994 08:49:37 GMT`), formatted
/// without `DateFormatter` so it is cheap and thread-safe.
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current time as an HTTP date.
    static func now() -> String {
        format(secondsSince1970: time(nil))
    }

    /// Formats seconds since 1970 (UTC) as an HTTP date.
    static func format(secondsSince1970: Int) -> String {
        var seconds = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(weekdays[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
