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

    /// Creates a log entry.
    public init(method: String, path: String, status: Int, endpoint: SandboxEndpoint?) {
        self.method = method
        self.path = path
        self.status = status
        self.endpoint = endpoint
    }
}
