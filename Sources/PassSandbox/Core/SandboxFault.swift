import Foundation

/// A misbehaviour injected into one endpoint with `PassSandbox.inject(_:into:)`.
///
/// The parts combine: a fault may both delay and fail a response. Order of effect:
/// latency first, then a dropped connection, then a status, then a malformed body.
public struct SandboxFault: Sendable, Equatable {
    /// Seconds to wait before answering (real time, not the sandbox clock).
    public var latency: TimeInterval
    /// When set, the endpoint answers this status with an enhanced error body and does
    /// nothing else (no state changes).
    public var status: Int?
    /// When `true`, the endpoint does its work but answers 200 with a truncated,
    /// unparsable JSON body.
    public var malformedBody: Bool
    /// When `true`, the connection closes without any response.
    public var dropConnection: Bool
    /// When set, the endpoint does its work but answers 200 with a well-formed JSON body of
    /// this many bytes (padding), as a hostile or broken server might: to check that a
    /// client bounds what it reads.
    public var oversizedBody: Int?
    /// How many requests the fault still applies to; `nil` means until cleared.
    public var remaining: Int?
    /// When set, a decisions endpoint does its work but answers the decision of each of
    /// these resources (of every resource when empty) as not authorized, with the enhanced
    /// error `network_received_error`, whose action is `retry`: an error inside a `200`.
    public var retryableDecisionErrors: [String]?

    /// Creates a fault.
    public init(
        latency: TimeInterval = 0, status: Int? = nil, malformedBody: Bool = false, dropConnection: Bool = false, oversizedBody: Int? = nil,
        remaining: Int? = nil, retryableDecisionErrors: [String]? = nil
    ) {
        self.retryableDecisionErrors = retryableDecisionErrors
        self.latency = latency
        self.status = status
        self.malformedBody = malformedBody
        self.dropConnection = dropConnection
        self.oversizedBody = oversizedBody
        self.remaining = remaining
    }
}
