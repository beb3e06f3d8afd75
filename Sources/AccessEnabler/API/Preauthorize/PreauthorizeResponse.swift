import Foundation

/// The answer to a Preauthorize API call (the legacy SDK's v3.6 `PreauthorizeResponse`).
///
/// Three shapes, as the legacy documentation shows them:
/// - **success**: one ``decisions`` entry per resource asked, in order, each denied one
///   with its ``PreauthorizeDecision/error`` when Adobe Pass gives a reason; no ``status``.
/// - **error**: Adobe Pass could not answer the request; no decisions, ``status`` says why
///   (the HTTP status and enhanced error).
/// - **failure** (delivered to `onFailure`): the SDK could not make the request; no
///   decisions, ``status`` has status 0, a code such as `network_error` and an action.
public struct PreauthorizeResponse: Sendable, Equatable {
    /// The page's name for the status type.
    public typealias Status = PreauthorizeStatus
    /// The page's name for the decision type.
    public typealias Decision = PreauthorizeDecision

    /// Why the request failed as a whole, or `nil`.
    public var status: Status?
    /// One decision per resource; empty on an error or a failure.
    public var decisions: [Decision]

    /// Creates a response.
    public init(status: Status? = nil, decisions: [Decision] = []) {
        self.status = status
        self.decisions = decisions
    }

    /// Why the request failed as a whole, or `nil` (the legacy getter).
    public func getStatus() -> Status? { status }
    /// The decisions (the legacy getter).
    public func getDecisions() -> [Decision] { decisions }
}
