import Foundation

/// The preauthorization decision for one resource: the legacy SDK's `Decision` (reachable
/// under that name as ``PreauthorizeResponse/Decision``).
public struct PreauthorizeDecision: Sendable, Equatable {
    /// The resource the decision is for.
    public var id: String
    /// Whether the user may play it.
    public var authorized: Bool
    /// Why it was denied, when Adobe Pass says (enhanced error reporting); `nil` otherwise.
    public var error: PreauthorizeStatus?

    /// Creates a decision.
    public init(id: String, authorized: Bool, error: PreauthorizeStatus? = nil) {
        self.id = id
        self.authorized = authorized
        self.error = error
    }

    /// The resource id (the legacy getter).
    public func getId() -> String { id }
    /// Whether the user may play the resource (the legacy getter).
    public func isAuthorized() -> Bool { authorized }
    /// Why it was denied, or `nil` (the legacy getter).
    public func getError() -> PreauthorizeStatus? { error }
}
