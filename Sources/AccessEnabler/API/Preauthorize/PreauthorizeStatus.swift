import Foundation

/// Why a preauthorization went wrong, for the whole request or for one resource: the
/// legacy SDK's `Status` (reachable under that name as ``PreauthorizeResponse/Status``).
///
/// From Adobe Pass it carries the enhanced error (the HTTP ``status`` it stands for, the
/// ``code`` and the rest); from the SDK itself ``status`` is 0.
public struct PreauthorizeStatus: Sendable, Equatable {
    /// The HTTP status code, or 0 when the SDK itself produced the status.
    public var status: Int
    /// The Adobe Pass error code, for example `authorization_denied_by_mvpd` or `network_error`.
    public var code: String?
    /// A message that may be shown to the user.
    public var message: String?
    /// More detail, sometimes the MVPD's own message or a degradation rule's.
    public var details: String?
    /// A link about the error and its remedies.
    public var helpUrl: String?
    /// An identifier for this response to quote to support.
    public var trace: String?
    /// The recommended remedy: `none`, `configuration`, `application-registration`,
    /// `authentication`, `authorization`, `degradation`, `retry` or `retry-after`.
    public var action: String?

    /// Creates a status.
    public init(
        status: Int, code: String? = nil, message: String? = nil, details: String? = nil, helpUrl: String? = nil,
        trace: String? = nil, action: String? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.helpUrl = helpUrl
        self.trace = trace
        self.action = action
    }

    /// The status an Adobe Pass enhanced error describes; `httpStatus` stands in when the
    /// error does not name its own.
    public init(_ error: EnhancedError, httpStatus: Int = 0) {
        self.init(
            status: error.status ?? httpStatus, code: error.code, message: error.message, details: error.details,
            helpUrl: error.helpUrl, trace: error.trace, action: error.action)
    }

    /// The HTTP status code (the legacy getter).
    public func getStatus() -> Int { status }
    /// The error code (the legacy getter).
    public func getCode() -> String? { code }
    /// The message (the legacy getter).
    public func getMessage() -> String? { message }
    /// The details (the legacy getter).
    public func getDetails() -> String? { details }
    /// The help link (the legacy getter).
    public func getHelpUrl() -> String? { helpUrl }
    /// The trace identifier (the legacy getter).
    public func getTrace() -> String? { trace }
    /// The recommended action (the legacy getter).
    public func getAction() -> String? { action }
}
