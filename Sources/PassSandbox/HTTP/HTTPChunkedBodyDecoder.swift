/// Decodes a `Transfer-Encoding: chunked` request body (RFC 9112 §7.1) incrementally,
/// from the bytes a connection has received so far.
///
/// ```
/// chunked-body = *chunk last-chunk trailer-section CRLF
/// chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
/// ```
///
/// Chunk extensions are read and ignored; trailer fields are checked for shape and
/// discarded (RFC 9112 §7.1.2 lets a recipient drop them). Lines may end in CRLF or a bare
/// LF, as the head parser accepts. Memory stays bounded: the decoded body may not exceed
/// `maxBodyBytes` (413), a chunk-size line `maxLineBytes`, and the trailer section
/// `maxTrailerBytes` (431).
struct HTTPChunkedBodyDecoder {
    /// What `decode` found.
    enum Progress: Equatable {
        /// The body is not complete yet: feed more bytes.
        case needMoreBytes
        /// The whole body, decoded; the trailer section was consumed too.
        case complete([UInt8])
        /// The chunked framing is broken or too large: answer and close.
        case failure(HTTPParseError)
    }

    /// The longest chunk-size line accepted, extensions included.
    static let maxLineBytes = 4096

    /// Largest decoded body accepted.
    let maxBodyBytes: Int
    /// Largest trailer section accepted.
    let maxTrailerBytes: Int

    private enum State {
        /// Waiting for a chunk-size line.
        case sizeLine
        /// Inside a chunk's data, with this many bytes still to come.
        case data(remaining: Int)
        /// After a chunk's data: its line end must follow.
        case dataEnd
        /// After the last chunk: trailer field lines until an empty line.
        case trailer(consumed: Int)
    }

    private var state = State.sizeLine
    private var body: [UInt8] = []
    /// How many bytes after `start` were already searched for the end of the current line.
    private var scanned = 0

    /// Creates a decoder for one request body.
    init(maxBodyBytes: Int, maxTrailerBytes: Int) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.maxTrailerBytes = maxTrailerBytes
    }

    /// Consumes what it can of `buffer` from `start` (moving `start` past it).
    mutating func decode(_ buffer: [UInt8], from start: inout Int) -> Progress {
        while true {
            switch state {
            case .sizeLine:
                let line: Range<Int>
                switch takeLine(buffer, from: &start, limit: Self.maxLineBytes) {
                case .line(let range): line = range
                case .incomplete: return .needMoreBytes
                case .tooLong: return .failure(.badRequest("chunk size line too long"))
                }
                switch Self.chunkSize(buffer[line]) {
                case .failure(let error):
                    return .failure(error)
                case .success(let size) where size > maxBodyBytes - body.count:
                    return .failure(.requestTooLarge)
                case .success(0):
                    state = .trailer(consumed: 0)
                case .success(let size):
                    body.reserveCapacity(body.count + size)
                    state = .data(remaining: size)
                }

            case .data(let remaining):
                let available = min(remaining, buffer.count - start)
                guard available > 0 else { return .needMoreBytes }
                body.append(contentsOf: buffer[start..<(start + available)])
                start += available
                state = available == remaining ? .dataEnd : .data(remaining: remaining - available)

            case .dataEnd:
                guard start < buffer.count else { return .needMoreBytes }
                if buffer[start] == HTTPByte.lf {
                    start += 1
                } else if buffer[start] == HTTPByte.cr {
                    guard start + 1 < buffer.count else { return .needMoreBytes }
                    guard buffer[start + 1] == HTTPByte.lf else {
                        return .failure(.badRequest("chunk data not followed by a line end"))
                    }
                    start += 2
                } else {
                    return .failure(.badRequest("chunk data longer than its chunk size"))
                }
                state = .sizeLine

            case .trailer(let consumed):
                let before = start
                let line: Range<Int>
                switch takeLine(buffer, from: &start, limit: maxTrailerBytes - consumed) {
                case .line(let range): line = range
                case .incomplete: return .needMoreBytes
                case .tooLong: return .failure(.headerTooLarge)
                }
                if line.isEmpty { return .complete(body) }
                guard Self.isFieldLine(buffer[line]) else { return .failure(.badRequest("malformed trailer field")) }
                state = .trailer(consumed: consumed + (start - before))
            }
        }
    }

    private enum LineSearch {
        case line(Range<Int>)
        case incomplete
        case tooLong
    }

    /// The next line from `start` without its line end (LF, or CRLF), moving `start` past
    /// it; `.tooLong` once more than `limit` bytes arrived without a line end.
    private mutating func takeLine(_ buffer: [UInt8], from start: inout Int, limit: Int) -> LineSearch {
        var index = start + scanned
        while index < buffer.count {
            if buffer[index] == HTTPByte.lf {
                guard index - start <= limit else { return .tooLong }
                var end = index
                if end > start, buffer[end - 1] == HTTPByte.cr { end -= 1 }
                let line = start..<end
                start = index + 1
                scanned = 0
                return .line(line)
            }
            index += 1
        }
        scanned = buffer.count - start
        return scanned > limit ? .tooLong : .incomplete
    }

    /// `chunk-size [ chunk-ext ]`: hexadecimal digits, then nothing or `;` extensions
    /// (after optional whitespace).
    static func chunkSize(_ line: ArraySlice<UInt8>) -> Result<Int, HTTPParseError> {
        var index = line.startIndex
        var size = 0
        var significantDigits = 0
        while index < line.endIndex, let digit = hexValue(line[index]) {
            if significantDigits > 0 || digit > 0 { significantDigits += 1 }
            // More significant digits than any allowed size: too large, not malformed.
            guard significantDigits <= 15 else { return .failure(.requestTooLarge) }
            size = size << 4 | digit
            index += 1
        }
        guard index > line.startIndex else { return .failure(.badRequest("malformed chunk size")) }
        var rest = line[index...]
        while let first = rest.first, first == HTTPByte.space || first == HTTPByte.tab { rest = rest.dropFirst() }
        guard rest.isEmpty || rest.first == UInt8(ascii: ";") else {
            return .failure(.badRequest("malformed chunk size"))
        }
        guard rest.allSatisfy(HTTPByte.isFieldValueByte) else {
            return .failure(.badRequest("control character in a chunk extension"))
        }
        return .success(size)
    }

    /// `field-name ":" field-value`, the shape of a trailer field.
    private static func isFieldLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard let colon = line.firstIndex(of: HTTPByte.colon), colon > line.startIndex else { return false }
        return line[line.startIndex..<colon].allSatisfy(HTTPByte.isTokenCharacter)
            && line[(colon + 1)...].allSatisfy(HTTPByte.isFieldValueByte)
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
