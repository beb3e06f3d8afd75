import Foundation

/// Byte values the HTTP grammar talks about.
enum HTTPByte {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A

    /// `tchar` of RFC 9110 §5.6.2: the characters of methods and field names.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// A byte allowed in a field value: visible characters, space, tab and obs-text.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }
}

/// Parses a complete request head (request line and header fields, without the
/// blank line) into a request and its declared body length.
enum HTTPHeadParser {
    /// Parses `head`, whose lines end in CRLF or LF.
    static func parse(_ head: ArraySlice<UInt8>) -> Result<(request: HTTPParsedRequest, bodyLength: Int), HTTPParseError> {
        var lines = splitLines(head)
        guard !lines.isEmpty else { return .failure(.badRequest("empty request line")) }
        let requestLine = lines.removeFirst()
        let method: String, target: String, minorVersion: Int
        switch parseRequestLine(requestLine) {
        case .success(let line): (method, target, minorVersion) = line
        case .failure(let error): return .failure(error)
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(lines.count)
        for line in lines {
            switch parseField(line) {
            case .success(let field): headers.append(field)
            case .failure(let error): return .failure(error)
            }
        }
        let bodyLength: Int
        switch declaredBodyLength(headers) {
        case .success(let length): bodyLength = length
        case .failure(let error): return .failure(error)
        }
        let request = HTTPParsedRequest(method: method, target: target, minorVersion: minorVersion, headers: headers, body: [])
        return .success((request, bodyLength))
    }

    /// Splits on LF and removes one trailing CR from each line.
    private static func splitLines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines = head.split(separator: HTTPByte.lf, omittingEmptySubsequences: false)
            .map { $0.last == HTTPByte.cr ? $0.dropLast() : $0 }
        // The head ends with the last field's line end, which leaves one empty piece.
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `method SP request-target SP HTTP-version`.
    private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<(String, String, Int), HTTPParseError> {
        let parts = line.split(separator: HTTPByte.space, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            return .failure(.badRequest("malformed request line"))
        }
        guard parts[0].allSatisfy(HTTPByte.isTokenCharacter) else {
            return .failure(.badRequest("malformed method"))
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        let minorVersion: Int
        switch parseVersion(parts[2]) {
        case .success(let minor): minorVersion = minor
        case .failure(let error): return .failure(error)
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              let target = originForm(String(decoding: parts[1], as: UTF8.self), method: method) else {
            return .failure(.badRequest("malformed request target"))
        }
        return .success((method, target, minorVersion))
    }

    /// `HTTP/1.0` and `HTTP/1.1` are served; any other well-formed version is 505.
    private static func parseVersion(_ bytes: ArraySlice<UInt8>) -> Result<Int, HTTPParseError> {
        let text = Array(bytes)
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard text.count == 8, text.starts(with: "HTTP/".utf8), isDigit(text[5]),
              text[6] == UInt8(ascii: "."), isDigit(text[7]) else {
            return .failure(.badRequest("malformed HTTP version"))
        }
        let major = Int(text[5] - UInt8(ascii: "0")), minor = Int(text[7] - UInt8(ascii: "0"))
        guard major == 1, minor <= 1 else { return .failure(.versionNotSupported) }
        return .success(minor)
    }

    /// Reduces a request target to origin form (`/path?query`): absolute-form
    /// (`http://host/path`) loses its scheme and authority, `*` is kept for OPTIONS.
    private static func originForm(_ target: String, method: String) -> String? {
        if target.hasPrefix("/") { return target }
        if target == "*" { return method == "OPTIONS" ? target : nil }
        let lowered = target.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
              let schemeEnd = target.range(of: "://") else { return nil }
        let afterAuthority = target[schemeEnd.upperBound...]
        guard let pathStart = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterAuthority[pathStart...]
        return rest.hasPrefix("/") ? String(rest) : "/" + rest
    }

    /// `field-name ":" OWS field-value OWS`; whitespace before the colon and
    /// obsolete line folding are refused (RFC 9112 §5).
    private static func parseField(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), HTTPParseError> {
        guard let colon = line.firstIndex(of: HTTPByte.colon) else {
            return .failure(.badRequest("header field without a colon"))
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(HTTPByte.isTokenCharacter) else {
            return .failure(.badRequest("malformed header field name"))
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == HTTPByte.space || first == HTTPByte.tab { value = value.dropFirst() }
        while let last = value.last, last == HTTPByte.space || last == HTTPByte.tab { value = value.dropLast() }
        guard value.allSatisfy(HTTPByte.isFieldValueByte) else {
            return .failure(.badRequest("control character in header field value"))
        }
        return .success((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    /// The body length from `Content-Length` (0 when absent). Repeated fields must
    /// agree; `Transfer-Encoding` is not supported.
    private static func declaredBodyLength(_ headers: [(name: String, value: String)]) -> Result<Int, HTTPParseError> {
        if headers.contains(where: { $0.name.caseInsensitiveCompare("Transfer-Encoding") == .orderedSame }) {
            return .failure(.transferEncodingNotImplemented)
        }
        let values = headers
            .filter { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }
            .map(\.value)
        guard let first = values.first else { return .success(0) }
        guard values.allSatisfy({ $0 == first }),
              !first.isEmpty, first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(.badRequest("invalid Content-Length"))
        }
        // More digits than any allowed size: too large rather than malformed.
        guard first.utf8.count <= 15, let length = Int(first) else { return .failure(.requestTooLarge) }
        return .success(length)
    }
}
