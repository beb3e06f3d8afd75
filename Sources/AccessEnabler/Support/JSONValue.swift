import Foundation

/// Any JSON value, kept as received: profile attribute values (a string, a number, a list
/// or a map), stored metadata, and the values `setMetadataStatus` delivers.
public enum JSONValue: Codable, Sendable, Equatable, Hashable {
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// JSON null.
    case null
    /// A list.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    ///
    /// Strings come first (most attribute values are strings: every failed attempt costs a
    /// thrown error), and objects are read through a keyed container rather than as
    /// `[String: JSONValue]`, whose decoding casts its key type at run time, slowly.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            }
            if let string = try? container.decode(String.self) {
                self = .string(string)
                return
            }
            if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
                return
            }
            if let number = try? container.decode(Double.self) {
                self = .number(number)
                return
            }
        }
        if var list = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !list.isAtEnd { values.append(try list.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        if let object = try? decoder.container(keyedBy: JSONObjectKey.self) {
            var values: [String: JSONValue] = [:]
            for key in object.allKeys { values[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(values)
            return
        }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Not a JSON value."))
    }

    /// Encodes the value as it was received.
    public func encode(to encoder: any Encoder) throws {
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

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as plain text: strings as they are, whole numbers without a fraction,
    /// everything else as compact JSON.
    public var compactText: String {
        switch self {
        case .string(let value):
            return value
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { return String(Int64(value)) }
            return String(value)
        case .bool(let value):
            return value ? "true" : "false"
        case .null:
            return "null"
        case .array, .object:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(self) else { return "" }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Decodes JSON text.
    init(jsonData: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: jsonData)
    }

    /// Converts a Foundation object (`String`, `NSNumber`, `Bool`, arrays, dictionaries,
    /// `NSNull`), or `nil` when something in it has no JSON form.
    public init?(any value: Any?) {
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
            self = String(cString: value.objCType) == "c" ? .bool(value.boolValue) : .number(value.doubleValue)
        case let values as [Any]:
            var converted: [JSONValue] = []
            for element in values {
                guard let json = JSONValue(any: element) else { return nil }
                converted.append(json)
            }
            self = .array(converted)
        case let values as [String: Any]:
            var converted: [String: JSONValue] = [:]
            for (key, element) in values {
                guard let json = JSONValue(any: element) else { return nil }
                converted[key] = json
            }
            self = .object(converted)
        default:
            return nil
        }
    }

    /// Converts a Foundation object; values with no JSON form become their description.
    public init(foundation value: Any?) {
        self = JSONValue(any: value) ?? .string(value.map { "\($0)" } ?? "")
    }

    /// The Foundation object legacy code expects: `String`, `Int` for whole numbers, `Double`,
    /// `Bool`, `[Any]`, `[String: Any]` or `NSNull`.
    public var foundationValue: Any {
        switch self {
        case .string(let value): return value
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
            return value
        case .bool(let value): return value
        case .null: return NSNull()
        case .array(let values): return values.map(\.foundationValue)
        case .object(let values): return values.mapValues(\.foundationValue)
        }
    }
}
