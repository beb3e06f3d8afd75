import Foundation

/// A requestor's stored profiles: the one chosen last, and a regular profile set aside while
/// a TempPass of another MVPD is the chosen one (REST API V2 keeps both: when the TempPass
/// ends, the regular sign-in counts again).
struct RequestorProfiles: Sendable, Equatable {
    /// The profile of the MVPD the user chose last.
    var chosen: StoredProfile?
    /// The regular profile set aside for a TempPass, if any.
    var standby: StoredProfile?

    /// No profile at all.
    static let none = RequestorProfiles()

    /// Whether no profile is stored.
    var isEmpty: Bool { chosen == nil && standby == nil }
}
