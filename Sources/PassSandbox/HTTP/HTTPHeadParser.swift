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
    /// Parses `head`, whose lines end in CRLF or LF, into the request and how its body is
    /// framed.
    ///
    /// Besides the syntax, it applies the message rules of RFC 9112 that decide whether the
    /// stream can be read at all: exactly one valid `Host` in HTTP/1.1 (§3.2), body framing by
    /// `Transfer-Encoding: chunked` or `Content-Length` but not both (§6.1, §6.3), and no
    /// expectation other than `100-continue` (RFC 9110 §10.1.1).
    ///
    /// One pass over the bytes, without splitting into arrays of lines: this runs for
    /// every request the server answers.
    static func parse(_ head: ArraySlice<UInt8>) -> Result<
        (request: HTTPParsedRequest, framing: HTTPBodyFraming), HTTPParseError
    > {
        var lineStart = head.startIndex
        guard let requestLine = nextLine(head, from: &lineStart) else {
            return .failure(.badRequest("empty request line"))
        }
        let method: String, target: String, minorVersion: Int
        switch parseRequestLine(requestLine) {
        case .success(let line): (method, target, minorVersion) = line
        case .failure(let error): return .failure(error)
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(12)
        var contentLength: Int?
        var lengthError: HTTPParseError?
        var transferCodings: [String] = []
        var sawTransferEncoding = false
        var hostCount = 0
        var hostIsValid = true
        var unmetExpectation: String?
        while let line = nextLine(head, from: &lineStart) {
            let field: (name: String, value: String)
            switch parseField(line) {
            case .success(let parsed): field = parsed
            case .failure(let error): return .failure(error)
            }
            // Only the names the framing rules need get a closer look; most fields are
            // skipped by their length.
            switch field.name.utf8.count {
            case 4 where HTTPASCII.equalIgnoringCase(field.name, "Host"):
                hostCount += 1
                hostIsValid = hostIsValid && isValidHost(field.value)
            case 6 where HTTPASCII.equalIgnoringCase(field.name, "Expect"):
                if !HTTPASCII.equalIgnoringCase(field.value, "100-continue") { unmetExpectation = field.value }
            case 14 where HTTPASCII.equalIgnoringCase(field.name, "Content-Length"):
                guard lengthError == nil else { break }
                switch parseContentLength(field.value) {
                case .success(let length) where contentLength == nil || contentLength == length:
                    // Repeated fields must agree (as numbers: "5" and "05" do).
                    contentLength = length
                case .success: lengthError = .badRequest("invalid Content-Length")
                case .failure(let error): lengthError = error
                }
            case 17 where HTTPASCII.equalIgnoringCase(field.name, "Transfer-Encoding"):
                sawTransferEncoding = true
                transferCodings += field.value.split(separator: ",").map {
                    HTTPASCII.trimmingSpaces(String($0)).lowercased()
                }
            default:
                break
            }
            headers.append(field)
        }
        if minorVersion >= 1, hostCount != 1 {
            return .failure(
                .badRequest(
                    hostCount == 0 ? "an HTTP/1.1 request needs a Host header field" : "more than one Host header field"
                ))
        }
        if hostCount > 1 { return .failure(.badRequest("more than one Host header field")) }
        if !hostIsValid { return .failure(.badRequest("invalid Host header field")) }
        let framing: HTTPBodyFraming
        if sawTransferEncoding {
            switch transferFraming(
                transferCodings, minorVersion: minorVersion,
                hasContentLength: contentLength != nil || lengthError != nil)
            {
            case .success(let chunked): framing = chunked
            case .failure(let error): return .failure(error)
            }
        } else if let lengthError {
            return .failure(lengthError)
        } else {
            framing = .length(contentLength ?? 0)
        }
        // An expectation the server cannot meet (RFC 9110 §10.1.1); HTTP/1.0 ignores Expect.
        if minorVersion >= 1, let unmetExpectation { return .failure(.expectationFailed(unmetExpectation)) }
        let request = HTTPParsedRequest(
            method: method, target: target, minorVersion: minorVersion, headers: headers, body: [])
        return .success((request, framing))
    }

    /// The framing a `Transfer-Encoding` field announces. Only `chunked` is decoded: it
    /// must be the last coding (else the length cannot be known: 400), other codings before
    /// it are not implemented (501), and the field may not come with `Content-Length` or in
    /// an HTTP/1.0 request (a smuggling attempt or faulty framing: 400).
    private static func transferFraming(_ codings: [String], minorVersion: Int, hasContentLength: Bool) -> Result<
        HTTPBodyFraming, HTTPParseError
    > {
        guard minorVersion >= 1 else { return .failure(.badRequest("Transfer-Encoding in an HTTP/1.0 request")) }
        guard !hasContentLength else { return .failure(.badRequest("both Transfer-Encoding and Content-Length")) }
        guard codings.last == "chunked" else {
            return .failure(
                .badRequest(
                    codings.isEmpty || codings.contains("")
                        ? "empty Transfer-Encoding" : "chunked is not the final transfer coding"))
        }
        if let other = codings.dropLast().first(where: { $0 != "chunked" }) {
            return .failure(.transferCodingNotImplemented(other))
        }
        guard codings.count == 1 else { return .failure(.badRequest("chunked applied more than once")) }
        return .success(.chunked)
    }

    /// `uri-host [ ":" port ]` (RFC 9110 §7.2): the characters of a registered name, an
    /// IPv4 address or a bracketed IPv6 literal, and an optional port. Empty is allowed
    /// (a target without an authority).
    private static func isValidHost(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                "-._~%!$&'()*+,;=:[]".utf8.contains(byte)
            }
        }
    }

    /// The next line of `head` starting at `start` (without its LF and one CR before it),
    /// moving `start` past it; `nil` at the end. The head ends with the last field's line
    /// end, which leaves no further line.
    private static func nextLine(_ head: ArraySlice<UInt8>, from start: inout Int) -> ArraySlice<UInt8>? {
        guard start < head.endIndex else { return nil }
        var end = start
        while end < head.endIndex, head[end] != HTTPByte.lf { end += 1 }
        var line = head[start..<end]
        if line.last == HTTPByte.cr { line = line.dropLast() }
        start = end < head.endIndex ? end + 1 : end
        return line
    }

    /// `method SP request-target SP HTTP-version`.
    private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<(String, String, Int), HTTPParseError> {
        guard let firstSpace = line.firstIndex(of: HTTPByte.space),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: HTTPByte.space),
            !line[(secondSpace + 1)...].contains(HTTPByte.space)
        else { return .failure(.badRequest("malformed request line")) }
        let methodBytes = line[line.startIndex..<firstSpace]
        let targetBytes = line[(firstSpace + 1)..<secondSpace]
        let versionBytes = line[(secondSpace + 1)...]
        guard !methodBytes.isEmpty, !targetBytes.isEmpty, !versionBytes.isEmpty else {
            return .failure(.badRequest("malformed request line"))
        }
        guard methodBytes.allSatisfy(HTTPByte.isTokenCharacter) else {
            return .failure(.badRequest("malformed method"))
        }
        let method = String(decoding: methodBytes, as: UTF8.self)
        let minorVersion: Int
        switch parseVersion(versionBytes) {
        case .success(let minor): minorVersion = minor
        case .failure(let error): return .failure(error)
        }
        guard targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            let target = originForm(String(decoding: targetBytes, as: UTF8.self), method: method)
        else {
            return .failure(.badRequest("malformed request target"))
        }
        return .success((method, target, minorVersion))
    }

    /// `HTTP/1.0` and `HTTP/1.1` are served; any other well-formed version is 505.
    private static func parseVersion(_ text: ArraySlice<UInt8>) -> Result<Int, HTTPParseError> {
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let base = text.startIndex
        guard text.count == 8, text.starts(with: "HTTP/".utf8), isDigit(text[base + 5]),
            text[base + 6] == UInt8(ascii: "."), isDigit(text[base + 7])
        else {
            return .failure(.badRequest("malformed HTTP version"))
        }
        let major = Int(text[base + 5] - UInt8(ascii: "0")), minor = Int(text[base + 7] - UInt8(ascii: "0"))
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
            let schemeEnd = target.range(of: "://")
        else { return nil }
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

    /// A `Content-Length` value: decimal digits only. Leading zeros are allowed (`0005`
    /// is 5); a number with more significant digits than any allowed size is "too large"
    /// rather than malformed.
    static func parseContentLength(_ value: String) -> Result<Int, HTTPParseError> {
        let digits = value.utf8
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(.badRequest("invalid Content-Length"))
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 15 else { return .failure(.requestTooLarge) }
        var length = 0
        for digit in significant { length = length * 10 + Int(digit - UInt8(ascii: "0")) }
        return .success(length)
    }
}
