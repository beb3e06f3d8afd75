/// A JSON value the service writes, keys in the order given, so that a line read in a
/// terminal reads like the protocol page's samples.
package indirect enum WireJSON: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case null
    case array([WireJSON])
    case object([(String, WireJSON)])

    /// An object of the pairs whose value is not `nil`.
    package static func object(_ pairs: (String, WireJSON?)...) -> WireJSON {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    package static func == (lhs: WireJSON, rhs: WireJSON) -> Bool { lhs.text == rhs.text }

    /// Compact JSON text, on one line (control characters escaped).
    package var text: String {
        switch self {
        case .string(let text): Self.quoted(text)
        case .int(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let pairs): "{" + pairs.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || c.value == 0x2028 || c.value == 0x2029:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
