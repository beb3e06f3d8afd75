import Foundation

/// `application/x-www-form-urlencoded` bodies and query strings, and URL path segments.
///
/// Everything except the RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) is
/// percent-encoded as UTF-8, so redirect URLs (`:/?=&#+`) and Base64 (`+/=`) survive.
enum FormEncoding {
    /// Percent-encodes one name or value, byte by byte over its UTF-8 (a SAML response is
    /// kilobytes long: `addingPercentEncoding` costs about twenty times more).
    static func escape(_ text: String) -> String {
        // Most names and values need no escaping at all.
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var escaped = [UInt8]()
        escaped.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 16)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                escaped.append(byte)
            } else {
                escaped.append(UInt8(ascii: "%"))
                escaped.append(hexDigits[Int(byte >> 4)])
                escaped.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `A-Z a-z 0-9 - . _ ~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// `name=value&name=value`, pairs in the given order.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    /// The pairs of a form body or query string; `+` reads as a space.
    static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}

/// Builds request URLs under the base URL the SDK was configured with.
struct RESTURLBuilder: Sendable {
    /// The base under which `/api/v2` and `/o/client` live.
    let baseURL: URL

    /// `base` + `/` + percent-encoded segments + `?query` (when not empty).
    func url(_ segments: [String], query: [(name: String, value: String)] = []) -> URL? {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        for segment in segments {
            text += "/" + FormEncoding.escape(segment)
        }
        if !query.isEmpty {
            text += "?" + FormEncoding.encode(query)
        }
        return URL(string: text)
    }

    /// An absolute URL for a `url` attribute of a response: kept when absolute, resolved
    /// against the base URL's scheme and authority when it is a path (`/api/v2/…`).
    func resolve(_ reference: String) -> URL? {
        if let absolute = URL(string: reference), absolute.scheme != nil { return absolute }
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        // A path from the server is absolute on the host, so drop any base path first.
        if reference.hasPrefix("/"), let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) {
            var root = components
            root.path = ""
            root.query = nil
            root.fragment = nil
            if let rootText = root.url?.absoluteString {
                // When the base has a path prefix that the reference does not carry, keep it.
                let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
                if !basePath.isEmpty, !reference.hasPrefix(basePath + "/") {
                    return URL(string: rootText + basePath + reference)
                }
                return URL(string: rootText + reference)
            }
        }
        return URL(string: text + "/" + reference)
    }
}
