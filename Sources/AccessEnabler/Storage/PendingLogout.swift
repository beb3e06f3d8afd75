import Foundation

/// A logout Adobe Pass has not yet confirmed: `GET logout/{mvpd}` failed (or had not
/// answered) when the user logged out. It is sent again at the next `setRequestor`, before
/// the profiles are reconciled, so that a profile the user ended is never adopted again.
struct PendingLogout: Codable, Sendable, Equatable, Hashable {
    /// The MVPD to log out of.
    var mvpd: String
    /// The base URL of the service provider that issued the profile; `nil`: the configured environment.
    var serviceProviderURL: String?
}
