import Foundation

/// Why an async call did not end as asked, when the reason is that Adobe Pass throttled it
/// (HTTP 429): a distinct error, so an app can tell "wait and try again" from "not in your
/// package". The callback API reports the same call with the legacy status Adobe's
/// throttling page prescribes (Z100, P100, CFG429), whose ``AdvancedStatus/retryAfter`` and
/// ``AdvancedStatus/details`` say it was throttling.
///
/// ```swift
/// do {
///     let token = try await accessEnabler.mediaToken(for: "news")
/// } catch let throttled as AccessEnablerThrottledError {
///     retry(after: throttled.retryAfter)           // seconds
/// } catch let error as AccessEnablerError {
///     show(error.message)                          // denied, not signed in, …
/// }
/// ```
public struct AccessEnablerThrottledError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole seconds to wait before asking again (at least 1).
    public var retryAfter: Int
    /// The legacy error code of the failure callback (``USER_NOT_AUTHORIZED_ERROR`` for an
    /// authorization, `"REQUESTOR_ERROR"` for a requestor set-up, …).
    public var errorCode: String
    /// The advanced status the callback API reported (Z100, P100, CFG429, …).
    public var status: AdvancedStatus
    /// A sentence a person can act on.
    public var message: String

    /// Creates the error.
    public init(retryAfter: Int, errorCode: String, status: AdvancedStatus, message: String) {
        self.retryAfter = retryAfter
        self.errorCode = errorCode
        self.status = status
        self.message = message
    }

    /// "throttled, retry after N s", the status id and the message.
    public var description: String {
        ["throttled, retry after \(retryAfter) s", status.errorId.description, message].joined(separator: " — ")
    }

    /// The error an async call throws for a failure its `status` explains: this one when the
    /// status says the call was throttled, else an ``AccessEnablerError``.
    static func failure(errorCode: String, status: AdvancedStatus?, message: String) -> any Error {
        if let status, let wait = status.retryAfter {
            return AccessEnablerThrottledError(retryAfter: wait, errorCode: errorCode, status: status, message: message)
        }
        return AccessEnablerError(errorCode: errorCode, status: status, message: message)
    }
}
