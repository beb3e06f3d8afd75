/// ASCII text helpers for the wire: header names are compared, and header values
/// trimmed, byte by byte. Foundation's `caseInsensitiveCompare` and
/// `trimmingCharacters(in:)` bridge through `NSString` and were the largest single cost
/// of answering a request.
enum HTTPASCII {
    /// The byte in lower case when it is an ASCII capital letter, else itself.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `true` when `lhs` and `rhs` are equal ignoring the case of ASCII letters.
    static func equalIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let a?, let b?) where a == b || lowercased(a) == lowercased(b): continue
            default: return false
            }
        }
    }

    /// `text` before and after its first `separator` byte (an ASCII character), or `nil`
    /// when there is none; splitting by bytes, not by `Character`s.
    static func splitOnce(_ text: String, at separator: UInt8) -> (head: Substring, tail: Substring)? {
        guard let index = text.utf8.firstIndex(of: separator) else { return nil }
        return (text[..<index], text[text.utf8.index(after: index)...])
    }

    /// `text` in upper case when it has ASCII lower-case letters (a method token), else
    /// `text` itself without a copy.
    static func uppercasedToken(_ text: String) -> String {
        text.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) ? text.uppercased() : text
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmingSpaces(_ text: String) -> String {
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last,
            first == HTTPByte.space || first == HTTPByte.tab || last == HTTPByte.space || last == HTTPByte.tab
        else { return text }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == HTTPByte.space || bytes[start] == HTTPByte.tab {
            start = bytes.index(after: start)
        }
        while end > start {
            let before = bytes.index(before: end)
            guard bytes[before] == HTTPByte.space || bytes[before] == HTTPByte.tab else { break }
            end = before
        }
        return String(text[start..<end])
    }

    /// `true` when `text` is non-empty Base64 (RFC 4648 §4 alphabet, padded to a multiple
    /// of four), the check `Data(base64Encoded:)` makes, without decoding.
    static func isBase64(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return false }
        var padding = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "="):
                padding += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
            default:
                return false
            }
        }
        // "====" or "A===" decode to nothing or are invalid.
        return padding <= 2 && bytes.count - padding >= 2
    }
}
