/// HTTP field names compare without regard to ASCII case (RFC 9110 §5.1).
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

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
