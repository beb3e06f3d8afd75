/// A strict reading of JSON request bodies: RFC 8259 syntax, nesting no deeper than
/// `maxDepth`, and no object naming the same member twice. `JSONSerialization` keeps one of
/// two duplicate members silently; an OAuth server must refuse a request that repeats a
/// parameter (the DCR pages' `invalid_request`).
enum SandboxStrictJSON {
    /// What is wrong with a body.
    enum Problem: Error, Equatable, Sendable {
        /// Not JSON; the reason says where.
        case malformed(String)
        /// An object names this member twice.
        case duplicateMember(String)
        /// Arrays and objects nest deeper than allowed.
        case tooDeep

        /// A sentence for an error description.
        var text: String {
            switch self {
            case .malformed(let reason): "The body is not valid JSON (\(reason))."
            case .duplicateMember(let name): "The body repeats the parameter \"\(name)\"."
            case .tooDeep: "The body nests arrays and objects too deeply."
            }
        }
    }

    /// The first problem of `bytes` as a JSON text, or `nil` when it is strict JSON.
    static func problem(in bytes: [UInt8], maxDepth: Int = 64) -> Problem? {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        do throws(Problem) {
            reader.skipWhitespace()
            try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.index == bytes.count else {
                throw Problem.malformed("text after the value at byte \(reader.index)")
            }
            return nil
        } catch {
            return error
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        let maxDepth: Int
        var index = 0

        init(bytes: [UInt8], maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        private func malformed(_ what: String) -> Problem { .malformed("\(what) at byte \(index)") }

        mutating func value(depth: Int) throws(Problem) {
            guard let byte = current else { throw malformed("a value expected") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw malformed("unexpected character")
            }
        }

        private mutating func object(depth: Int) throws(Problem) {
            guard depth <= maxDepth else { throw Problem.tooDeep }
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") { index += 1; return }
            var names: Set<[UInt8]> = []
            while true {
                guard current == UInt8(ascii: "\"") else { throw malformed("a member name expected") }
                let name = try string()
                guard names.insert(name).inserted else {
                    throw Problem.duplicateMember(String(decoding: name, as: UTF8.self))
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw malformed("':' expected") }
                index += 1
                skipWhitespace()
                try value(depth: depth)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1; skipWhitespace()
                case UInt8(ascii: "}"): index += 1; return
                default: throw malformed("',' or '}' expected")
                }
            }
        }

        private mutating func array(depth: Int) throws(Problem) {
            guard depth <= maxDepth else { throw Problem.tooDeep }
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return }
            while true {
                try value(depth: depth)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1; skipWhitespace()
                case UInt8(ascii: "]"): index += 1; return
                default: throw malformed("',' or ']' expected")
                }
            }
        }

        /// A string token; returns its decoded UTF-8, so `"a"` and `"\u0061"` are one name.
        private mutating func string() throws(Problem) -> [UInt8] {
            index += 1
            var decoded: [UInt8] = []
            while true {
                guard let byte = current else { throw malformed("unterminated string") }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return decoded
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { throw malformed("unterminated escape") }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"): decoded.append(contentsOf: try unicodeEscape())
                    default: throw malformed("invalid escape")
                    }
                case 0..<0x20:
                    throw malformed("control character in a string")
                default:
                    decoded.append(byte)
                }
            }
        }

        /// The four hex digits after `\u` (and a low surrogate's escape after a high one),
        /// as UTF-8; an unpaired surrogate becomes U+FFFD.
        private mutating func unicodeEscape() throws(Problem) -> [UInt8] {
            var unit = try hexQuad()
            if (0xD800..<0xDC00).contains(unit), index + 1 < bytes.count,
                bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            {
                let mark = index
                index += 2
                let low = try hexQuad()
                if (0xDC00..<0xE000).contains(low) {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    index = mark
                }
            }
            let scalar = Unicode.Scalar(unit) ?? "\u{FFFD}"
            return Array(String(Character(scalar)).utf8)
        }

        private mutating func hexQuad() throws(Problem) -> UInt32 {
            guard index + 4 <= bytes.count else { throw malformed("short \\u escape") }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
                default: throw malformed("invalid \\u escape")
                }
                value = value << 4 | digit
            }
            index += 4
            return value
        }

        private mutating func literal(_ word: String) throws(Problem) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected)
            else {
                throw malformed("invalid literal")
            }
            index += expected.count
        }

        private mutating func number() throws(Problem) {
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, isDigit(first) else { throw malformed("invalid number") }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if current == UInt8(ascii: ".") {
                index += 1
                guard let digit = current, isDigit(digit) else { throw malformed("invalid number") }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let digit = current, isDigit(digit) else { throw malformed("invalid number") }
                skipDigits()
            }
        }

        private mutating func skipDigits() {
            while let byte = current, isDigit(byte) { index += 1 }
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }
}
