import Foundation

/// How one ``HTTPRequestMessage`` is handed to libcurl: the URL, how the method is said,
/// the header lines and the body. Pure: it decides, the event loop sets the options.
///
/// - A request libcurl would send differently from what it says is refused before
///   anything is sent: a URL that is not `http` or `https`, a header name that is not a
///   token, a header value with CR, LF or NUL (which would end the line early and let the
///   rest be read as another header).
/// - Headers go out in order and as spelt. A header with an empty value is sent empty
///   (`Name;` in libcurl's list: `Name:` would remove it). libcurl's own additions are
///   turned off where the SDK did not ask for them: `Expect: 100-continue` (a request waits
///   for no go-ahead) and the form `Content-Type` libcurl adds to a body without one.
struct CurlRequestPlan: Sendable, Equatable {
    /// How the method reaches libcurl.
    enum Method: Sendable, Equatable {
        /// `GET`, libcurl's default.
        case get
        /// `HEAD`: no body is read.
        case head
        /// `POST` with the body (possibly empty).
        case post
        /// Any other method, named as given, with the body when there is one.
        case custom(String)
    }

    var url: String
    var method: Method
    /// `Name: value` lines for `CURLOPT_HTTPHEADER`, libcurl's removals included.
    var headerLines: [String]
    /// The body, `nil` for none (a `POST` always sends one, maybe empty).
    var body: Data?
    /// libcurl's whole-transfer timeout, at least 1 ms.
    var timeoutMilliseconds: Int
    /// The most body bytes read, or `nil` for no limit.
    var limit: Int?

    /// The plan for `request` within `timeout` seconds, or why it cannot be sent.
    static func make(for request: HTTPRequestMessage, timeout: TimeInterval) -> Result<
        CurlRequestPlan, TransportFailure
    > {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .failure(
                .cannotConnect(
                    "only http and https URLs can be sent, not \(request.url.scheme ?? "a URL without a scheme")"))
        }
        let url = request.url.absoluteString
        guard !url.utf8.contains(0) else { return .failure(.other("the URL holds a NUL byte and cannot be sent")) }
        let method = request.method
        guard !method.isEmpty, method.utf8.allSatisfy(HTTPFieldName.isTokenByte) else {
            return .failure(.other("the method \(method.debugDescription) is not an HTTP method name"))
        }
        var lines: [String] = []
        for (name, value) in request.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(HTTPFieldName.isTokenByte) else {
                return .failure(.other("the header name \(name.debugDescription) cannot be sent"))
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                return .failure(.other("the value of header \(name) holds a line break or NUL and cannot be sent"))
            }
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        if request.header("Expect") == nil { lines.append("Expect:") }
        if request.header("Content-Type") == nil { lines.append("Content-Type:") }

        let planned: Method
        var body = request.body
        switch method {
        case "GET" where body == nil: planned = .get
        case "HEAD" where body == nil: planned = .head
        case "POST":
            planned = .post
            body = body ?? Data()
        default: planned = .custom(method)
        }
        let milliseconds = WholeNumber.clamped(max(0.001, timeout) * 1000, rounding: .up, as: Int.self)
        return .success(
            CurlRequestPlan(
                url: url, method: planned, headerLines: lines, body: body, timeoutMilliseconds: max(1, milliseconds),
                limit: request.maximumResponseBodySize.map { max(0, $0) }))
    }
}
