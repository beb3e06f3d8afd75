/// HTTP field names: what they are made of, and that they compare without regard to ASCII
/// case (RFC 9110 §5.1).
enum HTTPFieldName {
    /// Whether `a` and `b` name the same field: equal bytes, ASCII letters of either case.
    ///
    /// Compared on UTF-8 bytes: `caseInsensitiveCompare` goes through `NSString` and
    /// Unicode case folding, and a REST exchange looks headers up about twenty times.
    static func matches(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                guard left.count == right.count else { return false }
                for index in 0..<left.count where left[index] != right[index] {
                    guard lowercased(left[index]) == lowercased(right[index]) else { return false }
                }
                return true
            }
        }
    }

    /// Whether `byte` may be part of a field name or a method: a `token` character of
    /// RFC 9110 §5.6.2 (letters, digits and ``!#$%&'*+-.^_`|~``).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return tokenPunctuation.contains(byte)
        }
    }

    private static let tokenPunctuation = Array("!#$%&'*+-.^_`|~".utf8)

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
