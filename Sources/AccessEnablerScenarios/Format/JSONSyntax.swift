import Foundation

/// Where a text stops being JSON: the line and column (both from 1) and what was found
/// there. Foundation's parser says only that the data "is not in the correct format"
/// (and on Linux often reports the wrong place), so a person fixing a file by hand gets
/// this instead.
public struct JSONSyntaxProblem: Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column (in characters), from 1.
    public var column: Int
    /// What is wrong there, e.g. `unexpected character 'h'` or `unexpected end of the text`.
    public var problem: String

    /// Creates a problem report.
    public init(line: Int, column: Int, problem: String) {
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `line 2, column 8: expected ',' or '}' after a member, found 'x'`.
    public var description: String { "line \(line), column \(column): \(problem)" }
}

/// A strict JSON syntax check (RFC 8259) that reports the first place a text goes wrong.
public enum JSONSyntax {
    /// Nesting deeper than this is refused rather than recursed into.
    public static let maximumDepth = 512

    /// `nil` when `data` is one JSON value (any kind), surrounded only by whitespace;
    /// otherwise where and why it is not.
    public static func firstProblem(in data: Data) -> JSONSyntaxProblem? {
        var scanner = Scanner(bytes: Array(data))
        return scanner.checkDocument()
    }

    private struct Failure: Error {
        var offset: Int
        var problem: String
    }

    private struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte order mark is tolerated, as Foundation's parser tolerates it.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        }

        mutating func checkDocument() -> JSONSyntaxProblem? {
            do {
                skipWhitespace()
                guard offset < bytes.count else {
                    throw Failure(offset: offset, problem: "the text is empty: expected a JSON value")
                }
                try value(depth: 0)
                skipWhitespace()
                if offset < bytes.count {
                    throw Failure(offset: offset, problem: "\(found()) after the end of the JSON value")
                }
                return nil
            } catch let failure as Failure {
                let (line, column) = position(of: failure.offset)
                return JSONSyntaxProblem(line: line, column: column, problem: failure.problem)
            } catch {
                return JSONSyntaxProblem(line: 1, column: 1, problem: "\(error)")
            }
        }

        // MARK: Grammar

        mutating func value(depth: Int) throws {
            guard depth < JSONSyntax.maximumDepth else {
                throw Failure(offset: offset, problem: "nested more than \(JSONSyntax.maximumDepth) levels deep")
            }
            guard let byte = peek() else {
                throw Failure(offset: offset, problem: "unexpected end of the text: expected a value")
            }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default:
                let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                throw Failure(
                    offset: offset, problem: "expected a value, found \(isLetter ? foundWord(at: offset) : found())")
            }
        }

        mutating func object(depth: Int) throws {
            offset += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                offset += 1
                return
            }
            while true {
                guard peek() == UInt8(ascii: "\"") else {
                    throw Failure(offset: offset, problem: "expected a member name in double quotes, found \(found())")
                }
                try string()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else {
                    throw Failure(offset: offset, problem: "expected ':' after a member name, found \(found())")
                }
                offset += 1
                skipWhitespace()
                try value(depth: depth + 1)
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","):
                    offset += 1
                    skipWhitespace()
                case UInt8(ascii: "}"):
                    offset += 1
                    return
                default:
                    throw Failure(offset: offset, problem: "expected ',' or '}' after a member, found \(found())")
                }
            }
        }

        mutating func array(depth: Int) throws {
            offset += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                offset += 1
                return
            }
            while true {
                try value(depth: depth + 1)
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","):
                    offset += 1
                    skipWhitespace()
                case UInt8(ascii: "]"):
                    offset += 1
                    return
                default:
                    throw Failure(offset: offset, problem: "expected ',' or ']' after an element, found \(found())")
                }
            }
        }

        mutating func string() throws {
            let start = offset
            offset += 1
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    return
                case UInt8(ascii: "\\"):
                    offset += 1
                    guard let escaped = peek() else { break }
                    if escaped == UInt8(ascii: "u") {
                        offset += 1
                        for _ in 0..<4 {
                            guard let digit = peek(), Self.isHexDigit(digit) else {
                                throw Failure(
                                    offset: offset,
                                    problem: "expected four hexadecimal digits after \\u, found \(found())")
                            }
                            offset += 1
                        }
                    } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
                        offset += 1
                    } else {
                        throw Failure(
                            offset: offset - 1, problem: "unknown escape \\\(Self.printable(escaped)) in a string")
                    }
                case 0..<0x20:
                    throw Failure(
                        offset: offset,
                        problem:
                            "a control character (U+\(String(format: "%04X", byte))) inside a string: write it as an escape"
                    )
                case 0x80...:
                    try utf8Sequence()
                default:
                    offset += 1
                }
            }
            throw Failure(offset: start, problem: "a string that is never closed (no ending double quote)")
        }

        mutating func number() throws {
            if peek() == UInt8(ascii: "-") { offset += 1 }
            guard let first = peek(), Self.isDigit(first) else {
                throw Failure(offset: offset, problem: "expected a digit, found \(found())")
            }
            offset += 1
            if first == UInt8(ascii: "0"), let next = peek(), Self.isDigit(next) {
                throw Failure(offset: offset - 1, problem: "a number may not start with 0")
            }
            skipDigits()
            if peek() == UInt8(ascii: ".") {
                offset += 1
                guard let digit = peek(), Self.isDigit(digit) else {
                    throw Failure(offset: offset, problem: "expected a digit after the decimal point, found \(found())")
                }
                skipDigits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                offset += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
                guard let digit = peek(), Self.isDigit(digit) else {
                    throw Failure(offset: offset, problem: "expected a digit in the exponent, found \(found())")
                }
                skipDigits()
            }
        }

        mutating func literal(_ word: String) throws {
            let start = offset
            for expected in word.utf8 {
                guard peek() == expected else {
                    throw Failure(offset: start, problem: "expected a value, found \(foundWord(at: start))")
                }
                offset += 1
            }
        }

        /// One multi-byte UTF-8 character inside a string.
        mutating func utf8Sequence() throws {
            let lead = bytes[offset]
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default:
                throw Failure(offset: offset, problem: "the text is not UTF-8 (byte 0x\(String(format: "%02X", lead)))")
            }
            for index in 1..<length {
                guard offset + index < bytes.count, bytes[offset + index] & 0xC0 == 0x80 else {
                    throw Failure(
                        offset: offset,
                        problem:
                            "the text is not UTF-8 (byte 0x\(String(format: "%02X", lead)) starts an incomplete character)"
                    )
                }
            }
            offset += length
        }

        // MARK: Reading

        func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func skipDigits() {
            while let byte = peek(), Self.isDigit(byte) { offset += 1 }
        }

        /// What is at the current offset, for a message: `'x'`, `U+00E9`, or the end.
        func found() -> String {
            guard let byte = peek() else { return "the end of the text" }
            if byte >= 0x80 {
                let tail = bytes[offset...].prefix(4)
                if let scalar = String(decoding: tail, as: UTF8.self).unicodeScalars.first, scalar != "\u{FFFD}" {
                    return "'\(Character(scalar))' (U+\(String(format: "%04X", scalar.value)))"
                }
                return "byte 0x\(String(format: "%02X", byte)) (the text is not UTF-8)"
            }
            return "'\(Self.printable(byte))'"
        }

        /// The bare word at `start` (`tru`, `hello`), for a misspelt literal.
        func foundWord(at start: Int) -> String {
            let word = bytes[start...].prefix {
                ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
                    || $0 == UInt8(ascii: "_")
            }
            guard !word.isEmpty else { return "'\(Self.printable(bytes[start]))'" }
            return "'\(String(decoding: word.prefix(40), as: UTF8.self))'"
        }

        /// Line and column (in characters) of `target`.
        func position(of target: Int) -> (line: Int, column: Int) {
            var line = 1
            var column = 1
            for byte in bytes[0..<min(target, bytes.count)] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return (line, column)
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
        }

        static func printable(_ byte: UInt8) -> String {
            switch byte {
            case 0x0A: "\\n"
            case 0x0D: "\\r"
            case 0x09: "\\t"
            case 0x20..<0x7F: String(UnicodeScalar(byte))
            default: "U+\(String(format: "%04X", byte))"
            }
        }
    }
}
