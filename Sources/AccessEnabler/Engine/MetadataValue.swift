import Foundation

/// A metadata value as the SDK holds it: JSON-shaped, sendable. Delivered to the delegate
/// as the Foundation object legacy code expects (`String`, `NSNumber`, `[Any]`, `[String: Any]`).
public enum MetadataValue: Sendable, Equatable {
    /// A string (static metadata is always a string).
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// JSON null.
    case null
    /// A list.
    case array([MetadataValue])
    /// An object.
    case object([String: MetadataValue])

    /// The Foundation object legacy code receives.
    public var foundationValue: Any {
        switch self {
        case .string(let s): s
        case .number(let n): n.rounded() == n && abs(n) < 1e15 ? NSNumber(value: Int64(n)) : NSNumber(value: n)
        case .bool(let b): NSNumber(value: b)
        case .null: NSNull()
        case .array(let a): a.map(\.foundationValue)
        case .object(let o): o.mapValues(\.foundationValue)
        }
    }
}
