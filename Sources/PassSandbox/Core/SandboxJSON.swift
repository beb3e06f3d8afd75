import Foundation

/// A JSON value the sandbox writes, with object keys kept in the order given so
/// responses read like the documentation samples.
enum SandboxJSON: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([SandboxJSON])
    case object([(String, SandboxJSON)])

    static func == (lhs: SandboxJSON, rhs: SandboxJSON) -> Bool {
        lhs.bytes == rhs.bytes
    }

    /// An object built from key/value pairs, leaving out pairs whose value is `nil`.
    static func object(_ pairs: (String, SandboxJSON?)...) -> SandboxJSON {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// Converts a value read with `JSONSerialization` (used to echo client-sent JSON).
    init(foundation value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                let double = number.doubleValue
                self = double == double.rounded() && abs(double) < 9e15 ? .int(number.int64Value) : .double(double)
            }
        case let array as [Any]: self = .array(array.map(SandboxJSON.init(foundation:)))
        case let dictionary as [String: Any]:
            self = .object(dictionary.keys.sorted().map { ($0, SandboxJSON(foundation: dictionary[$0]!)) })
        default: self = .null
        }
    }

    /// The UTF-8 encoding.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .string(let text): Self.writeString(text, into: &out)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number): out.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(pair.0, into: &out)
                out.append(UInt8(ascii: ":"))
                pair.1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
