import Foundation

/// A JSON value as kept in storage, for user metadata whose shape the SDK does not know.
///
/// Encodes as plain JSON (`"text"`, `12.5`, `true`, `null`, `[...]`, `{...}`), so stored
/// files stay readable.
enum StoredJSON: Codable, Sendable, Equatable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([StoredJSON])
    case object([String: StoredJSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StoredJSON].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: StoredJSON].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses one JSON document (any value at top level, not only objects).
    init(jsonData: Data) throws {
        self = try JSONDecoder().decode(StoredJSON.self, from: jsonData)
    }

    /// Converts a value as `JSONSerialization` or Swift code produce it (`String`, `Bool`,
    /// numbers, `NSNull`, arrays, dictionaries with string keys); nil for anything else.
    init?(any value: Any?) {
        guard let value, !(value is NSNull) else {
            self = .null
            return
        }
        // A Swift `Bool` is checked by its dynamic type: `as? Bool` would also accept 0 and 1.
        if type(of: value) == Bool.self, let flag = value as? Bool {
            self = .bool(flag)
            return
        }
        switch value {
        case let value as String:
            self = .string(value)
        case let value as NSNumber:
            self = Self.isBoolean(value) ? .bool(value.boolValue) : .number(value.doubleValue)
        case let values as [Any]:
            var converted: [StoredJSON] = []
            for element in values {
                guard let json = StoredJSON(any: element) else { return nil }
                converted.append(json)
            }
            self = .array(converted)
        case let values as [String: Any]:
            var converted: [String: StoredJSON] = [:]
            for (key, element) in values {
                guard let json = StoredJSON(any: element) else { return nil }
                converted[key] = json
            }
            self = .object(converted)
        default:
            return nil
        }
    }

    /// The value as Foundation objects (`String`, `Double`, `Bool`, `NSNull`, `[Any]`,
    /// `[String: Any]`), the shape legacy delegate callbacks hand to the app.
    var foundationValue: Any {
        switch self {
        case .string(let value): return value
        case .number(let value): return value
        case .bool(let value): return value
        case .null: return NSNull()
        case .array(let values): return values.map(\.foundationValue)
        case .object(let values): return values.mapValues(\.foundationValue)
        }
    }

    /// Whether a boxed number holds a Boolean: Foundation boxes `true`/`false` with the
    /// `char` type code, while JSON numbers come boxed as integers or doubles.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
