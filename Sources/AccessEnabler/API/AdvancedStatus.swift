import Foundation

/// An advanced status report, as the legacy `EntitlementStatus.status:` delivered it.
public struct AdvancedStatus: Sendable, Equatable {
    /// How serious the status is.
    public enum Level: String, Sendable {
        /// Information (N000, N003, VSA203, …).
        case info
        /// Something degraded but working (N010, Z010, SEC412, CFG100).
        case warning
        /// A failure.
        case error
    }

    /// The status identifier: `N003`, `VSA403`, `Z100`, `CFG404`, … Typed, and still
    /// comparable with a string spelling it (see ``StatusID``).
    public var errorId: StatusID
    /// Its level.
    public var level: Level
    /// A sentence a person can act on.
    public var message: String?
    /// More detail: the partner framework's error, the REST error's details, …
    public var details: String?
    /// The resource concerned, for authorization statuses.
    public var resource: String?
    /// The REST API V2 enhanced error that caused this status, when there was one.
    public var enhancedError: EnhancedError?
    /// When the registration code of a `REGCODE` status (and of `REG404` / `REG200`) stops
    /// working, by this device's clock: a TV can count down to it. In the legacy dictionary
    /// it is `expiresAt`, epoch milliseconds as a string (the format of `getMetadata`'s
    /// expiries). `nil` for other statuses.
    public var expiresAt: Date?
    /// When Adobe Pass throttled the call this status reports (HTTP 429): the whole seconds
    /// to wait before asking again (at least 1). The legacy id stays what Adobe's throttling
    /// page prescribes (Z100, P100, CFG429, …) and ``details`` says it too:
    /// `throttled; retry after N s`. `nil` for a status that is not about throttling. In the
    /// legacy dictionary it is `retryAfter`.
    public var retryAfter: Int?

    /// Creates a status.
    public init(
        errorId: StatusID, level: Level, message: String? = nil, details: String? = nil, resource: String? = nil,
        enhancedError: EnhancedError? = nil
    ) {
        self.errorId = errorId
        self.level = level
        self.message = message
        self.details = details
        self.resource = resource
        self.enhancedError = enhancedError
    }

    /// The legacy dictionary shape: `errorId` (the id's legacy spelling, a `String`), `level`, and `message`, `details`, `resource`,
    /// `expiresAt` (a registration code's end, epoch milliseconds as a `String`), `retryAfter` (the seconds a
    /// throttled call waits, an `Int`) and the enhanced error's `code`, `helpUrl`, `trace` when present.
    public var dictionary: [String: Any] {
        var result: [String: Any] = ["errorId": errorId.description, "level": level.rawValue]
        if let message { result["message"] = message }
        if let expiresAt { result["expiresAt"] = EpochMilliseconds.string(expiresAt) }
        if let retryAfter { result["retryAfter"] = retryAfter }
        if let details { result["details"] = details }
        if let resource { result["resource"] = resource }
        if let enhancedError {
            result["code"] = enhancedError.code
            if let helpUrl = enhancedError.helpUrl { result["helpUrl"] = helpUrl }
            if let trace = enhancedError.trace { result["trace"] = trace }
            if let status = enhancedError.status { result["status"] = status }
        }
        return result
    }
}
