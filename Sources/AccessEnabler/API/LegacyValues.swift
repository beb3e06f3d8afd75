import Foundation

/// Turns today's Swift values into the shapes the legacy spellings carry.
enum LegacyValues {
    /// `[String: Any]` as the `NSDictionary` Swift imports as `[AnyHashable: Any]`.
    static func dictionary(_ dictionary: [String: Any]) -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, value) in dictionary { result[AnyHashable(key)] = value }
        return result
    }

    /// The strings of an `NSArray`-shaped value (`[Any]`), in order; anything else is empty.
    static func strings(_ value: Any?) -> [String] {
        (value as? [Any])?.compactMap { $0 as? String } ?? []
    }
}
