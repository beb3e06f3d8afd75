/// Whether a value from outside (a token the app's configuration hands over) can be sent as
/// an HTTP header field value as it is: not empty, and without control characters — a CR or
/// LF would end the header early (or start another), a NUL cut it, and a transport drops a
/// field it cannot write instead of failing.
enum HeaderFieldValue {
    /// Why `value` cannot be a header field value, or `nil` when it can. Never repeats the value.
    static func problem(_ value: String) -> String? {
        if value.allSatisfy({ $0 == " " || $0 == "\t" }) { return "it is empty" }
        if let control = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "it holds the control character U+\(hex(control.value))"
        }
        return nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
