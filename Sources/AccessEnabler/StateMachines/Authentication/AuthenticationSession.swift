import Foundation

/// An Adobe Pass authentication session the SDK is waiting on: the MVPD, the code that
/// identifies the session, and when the code stops being valid.
struct AuthenticationSession: Sendable, Equatable {
    /// Seconds a session stays open when the server's answer carries no `notAfter`
    /// (the documentation's samples give 30 minutes).
    static let defaultLifetime: TimeInterval = 1_800

    /// `nil` while the person is to choose the MVPD on the second screen.
    var mvpd: String?
    var code: String
    /// The end of the session: past it, the code cannot be completed any more.
    var notAfter: Date

    /// The session a `sessions` answer opened, valid until its `notAfter` (or the default
    /// lifetime from `now`).
    init(mvpd: String?, code: String, notAfter: Date?, now: Date) {
        self.mvpd = mvpd
        self.code = code
        self.notAfter = notAfter ?? now.addingTimeInterval(Self.defaultLifetime)
    }

    /// The MVPD as messages name it.
    var mvpdName: String { mvpd ?? StatusSentences.providerChosenOnSecondScreen }
}

/// An authorization waiting for authentication to finish (`getAuthorization` on a user who
/// is not authenticated yet).
struct PendingAuthorization: Sendable, Equatable {
    var resource: String
    var data: [String: String]?
    /// The `getAuthorization` call whose terminal callback this authorization owes.
    var owner: CallID?

    init(resource: String, data: [String: String]?, owner: CallID? = nil) {
        self.resource = resource
        self.data = data
        self.owner = owner
    }
}

/// Identifies one interactive authentication, so that late answers of an abandoned one (a
/// picker that closed after logout, a poll answer after the code was replaced) are
/// recognised and dropped.
struct FlowID: Hashable, Sendable, CustomStringConvertible {
    let value: UInt64
    var description: String { "flow#\(value)" }
}
