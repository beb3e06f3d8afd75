import Foundation

/// A scenario file that cannot be run, with the JSON path at fault.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the offending value (`steps[3].login.username`), `$` for the root.
    public var path: String
    /// What is wrong there.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
