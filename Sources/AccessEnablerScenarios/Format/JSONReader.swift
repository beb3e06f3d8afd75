import AccessEnabler
import Foundation

/// Reads a ``JSONValue`` while remembering where it is, so every complaint names the
/// JSON path at fault.
struct JSONReader {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String = "$") {
        self.value = value
        self.path = path
    }

    func fail(_ reason: String) -> ScenarioError { ScenarioError(path: path, reason: reason) }

    var object: [String: JSONValue]? { if case .object(let o) = value { o } else { nil } }

    func requireObject() throws(ScenarioError) -> [String: JSONValue] {
        guard let object else { throw fail("expected an object, found \(value.kindName)") }
        return object
    }

    func requireArray() throws(ScenarioError) -> [JSONReader] {
        guard case .array(let items) = value else { throw fail("expected an array, found \(value.kindName)") }
        return items.enumerated().map { JSONReader($1, path: "\(path)[\($0)]") }
    }

    func requireString() throws(ScenarioError) -> String {
        guard case .string(let s) = value else { throw fail("expected a string, found \(value.kindName)") }
        return s
    }

    func requireNumber() throws(ScenarioError) -> Double {
        guard case .number(let n) = value else { throw fail("expected a number, found \(value.kindName)") }
        return n
    }

    /// A finite number within `range`; anything else is refused with its path.
    func requireNumber(in range: ClosedRange<Double>) throws(ScenarioError) -> Double {
        let number = try requireNumber()
        guard number.isFinite, range.contains(number) else {
            throw fail(
                "expected a number from \(Self.spelling(range.lowerBound)) to \(Self.spelling(range.upperBound)), found \(number)"
            )
        }
        return number
    }

    /// A whole number within `range`. A fraction, or a number past the range (a scenario file
    /// may say 1e300), is refused with its path rather than converted with a trap.
    func requireWholeNumber(in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        let number = try requireNumber(in: Double(range.lowerBound)...Double(range.upperBound))
        guard number == number.rounded(), let whole = Int(exactly: number), range.contains(whole) else {
            throw fail("expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(number)")
        }
        return whole
    }

    private static func spelling(_ number: Double) -> String {
        if let whole = Int(exactly: number) { return String(whole) }
        return String(number)
    }

    func requireBool() throws(ScenarioError) -> Bool {
        guard case .bool(let b) = value else { throw fail("expected true or false, found \(value.kindName)") }
        return b
    }

    func requireStrings() throws(ScenarioError) -> [String] {
        try requireArray().map { reader throws(ScenarioError) in try reader.requireString() }
    }

    /// The member `key`, or `nil` when absent or null.
    func member(_ key: String) -> JSONReader? {
        guard let object, let child = object[key], child != .null else { return nil }
        return JSONReader(child, path: "\(path).\(key)")
    }

    func requireMember(_ key: String) throws(ScenarioError) -> JSONReader {
        _ = try requireObject()
        guard let child = member(key) else { throw ScenarioError(path: "\(path).\(key)", reason: "is required") }
        return child
    }

    /// Refuses keys outside `allowed`, naming the first unknown one.
    func allowOnly(_ allowed: Set<String>) throws(ScenarioError) {
        let object = try requireObject()
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ScenarioError(
                path: "\(path).\(unknown)",
                reason: "is not a known key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
    }
}

extension JSONValue {
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
