import Foundation

/// A requestor's stored profiles: the one chosen last, a regular profile set aside while
/// a TempPass of another MVPD is the chosen one (REST API V2 keeps both: when the TempPass
/// ends, the regular sign-in counts again), the profiles of other MVPDs Adobe Pass still
/// holds for this device, and the logouts Adobe Pass has not confirmed yet.
struct RequestorProfiles: Sendable, Equatable {
    /// The profile of the MVPD the user chose last.
    var chosen: StoredProfile?
    /// The regular profile set aside for a TempPass, if any.
    var standby: StoredProfile?
    /// Profiles of other MVPDs that Adobe Pass still holds for this device (signed in
    /// earlier here, or listed by `GET profiles`): not in force, but a logout ends them too.
    var others: [StoredProfile] = []
    /// Logouts to send again at the next `setRequestor`.
    var pendingLogouts: [PendingLogout] = []
    /// The provider of the last sign-in on this device, kept when its profile is gone
    /// (``RequestorRecord/rememberedProvider``); a logout removes it.
    var remembered: StoredProvider?

    /// No profile at all.
    static let none = RequestorProfiles()

    /// Whether no profile is stored (pending logouts aside).
    var isEmpty: Bool { chosen == nil && standby == nil && others.isEmpty }

    /// Every stored profile, each MVPD once: the chosen one, the one set aside, the others.
    var all: [StoredProfile] {
        var seen: Set<String> = []
        return ([chosen, standby].compactMap { $0 } + others).filter { seen.insert($0.mvpd).inserted }
    }
}
