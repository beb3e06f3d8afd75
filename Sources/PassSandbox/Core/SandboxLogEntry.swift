import Foundation

/// One line of the sandbox's request log.
public struct SandboxLogEntry: Sendable, Equatable {
    /// The request method.
    public var method: String
    /// The request path, without the query string.
    public var path: String
    /// The status answered; `0` when the connection was dropped.
    public var status: Int
    /// The endpoint the path matched, or `nil` for an unknown path.
    public var endpoint: SandboxEndpoint?
    /// When it was answered, on the sandbox clock (`nil` in an entry made without one).
    public var at: Date?
    /// The Base64 identifier of the request's `AP-Device-Identifier: fingerprint …`
    /// header, when it sent a well-formed one.
    public var device: String?

    /// Creates a log entry.
    public init(
        method: String, path: String, status: Int, endpoint: SandboxEndpoint?, at: Date? = nil, device: String? = nil
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.endpoint = endpoint
        self.at = at
        self.device = device
    }
}
