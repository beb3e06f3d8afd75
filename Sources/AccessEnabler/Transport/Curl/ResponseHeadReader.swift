/// Reads a response head from the lines libcurl hands its header callback, one line at a
/// time, whatever bytes they hold. Pure: no I/O, no trap on any input.
///
/// libcurl passes every head line it reads: the status line and fields of each
/// informational answer (`100 Continue`, `103 Early Hints`) before the final one, then
/// the final head, and after a chunked body its trailer fields. The reader keeps the
/// final head only: an informational head is dropped at its blank line, a trailer field is
/// counted and dropped (trailers arrive after the body the SDK reads, and no Adobe Pass
/// answer needs one). A status line always starts a new head.
///
/// What it refuses (the transfer then fails as a lost connection, with the reason): a
/// status line that is not `HTTP/<version> <three digits>`, a field line before any status
/// line, and a head longer than ``maximumHeadBytes``. A field line without a valid name is
/// skipped; a line starting with a space or a tab continues the field before it. A value's
/// bytes are read as UTF-8 when they are valid UTF-8, else as ISO-8859-1 (one character per
/// byte), so no byte is lost and none can stop the process.
struct ResponseHeadReader: Sendable {
    /// The most bytes one head may take (status line and fields), far above any real answer.
    static let maximumHeadBytes = 256 * 1024

    /// The final head, once its blank line was read.
    struct Head: Sendable {
        var status: Int
        var fields: [(name: String, value: String)]
    }

    /// What the transfer should do after a line.
    enum Verdict: Sendable, Equatable {
        case proceed
        /// Stop the transfer: the bytes are not an HTTP answer, for this reason.
        case refuse(String)
    }

    private enum State: Sendable {
        case awaitingStatusLine
        case readingFields(status: Int)
        case complete
    }

    private var state = State.awaitingStatusLine
    private var fields: [(name: String, value: String)] = []
    private var headBytes = 0
    /// The final head, when it is complete.
    private(set) var head: Head?
    /// Trailer fields read after the final head (and dropped).
    private(set) var trailerCount = 0
    /// Informational (1xx) heads read and dropped.
    private(set) var informationalCount = 0

    /// Reads one line, with or without its line ending.
    mutating func read(line raw: some Collection<UInt8>) -> Verdict {
        let line = Self.withoutLineEnding(Array(raw))
        if Self.isStatusLine(line) {
            guard let status = Self.status(ofStatusLine: line) else {
                return .refuse("the answer's status line is not HTTP/<version> <three-digit status>")
            }
            state = .readingFields(status: status)
            fields = []
            headBytes = line.count
            head = nil
            return .proceed
        }
        switch state {
        case .awaitingStatusLine:
            // libcurl reports a blank line before any head only for answers it made up itself.
            if line.isEmpty { return .proceed }
            return .refuse("a header line came before the answer's status line")
        case .readingFields(let status):
            if line.isEmpty {
                if (100..<200).contains(status) {
                    informationalCount += 1
                    state = .awaitingStatusLine
                } else {
                    head = Head(status: status, fields: fields)
                    state = .complete
                }
                fields = []
                return .proceed
            }
            headBytes += line.count
            guard headBytes <= Self.maximumHeadBytes else {
                return .refuse("the answer's head is longer than \(Self.maximumHeadBytes / 1024) KiB")
            }
            readField(line)
            return .proceed
        case .complete:
            if !line.isEmpty { trailerCount += 1 }
            return .proceed
        }
    }

    private mutating func readField(_ line: [UInt8]) {
        if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            // An obsolete line folding: the value of the field before it goes on.
            guard let last = fields.indices.last else { return }
            let more = Self.text(Self.trimmed(line[...]))
            if !more.isEmpty { fields[last].value += (fields[last].value.isEmpty ? "" : " ") + more }
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return }
        let name = line[..<colon]
        guard name.allSatisfy(HTTPFieldName.isTokenByte) else { return }
        fields.append((Self.text(name), Self.text(Self.trimmed(line[(colon + 1)...]))))
    }

    private static func withoutLineEnding(_ line: [UInt8]) -> [UInt8] {
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return Array(line[..<end])
    }

    private static let httpPrefix = Array("HTTP/".utf8)

    private static func isStatusLine(_ line: [UInt8]) -> Bool {
        line.count >= httpPrefix.count && Array(line[..<httpPrefix.count]) == httpPrefix
    }

    /// The status of `HTTP/1.1 200 OK`, `HTTP/2 204`: a version of digits and at most one
    /// dot, one space, exactly three digits, then the end or a space and any reason.
    static func status(ofStatusLine line: [UInt8]) -> Int? {
        var index = httpPrefix.count
        var versionDigits = 0
        var dots = 0
        while index < line.count, line[index] != UInt8(ascii: " ") {
            if isDigit(line[index]) {
                versionDigits += 1
            } else if line[index] == UInt8(ascii: "."), versionDigits > 0, dots == 0 {
                dots += 1
            } else {
                return nil
            }
            index += 1
        }
        guard versionDigits > 0, versionDigits <= 2, index < line.count else { return nil }
        index += 1
        guard index + 3 <= line.count, line[index..<(index + 3)].allSatisfy(isDigit) else { return nil }
        guard index + 3 == line.count || line[index + 3] == UInt8(ascii: " ") else { return nil }
        return line[index..<(index + 3)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return bytes[first...last]
    }

    /// UTF-8 when the bytes are valid UTF-8, else ISO-8859-1.
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(scalars)
    }
}
