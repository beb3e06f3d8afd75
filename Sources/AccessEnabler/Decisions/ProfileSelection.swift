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

/// What a change of the profiles does to a requestor's record: the profiles afterwards, and
/// what no longer holds with them.
struct ProfileChange: Sendable, Equatable {
    /// The profiles to store.
    var profiles: RequestorProfiles
    /// The MVPDs whose media tokens are kept; `nil` keeps them all.
    var keepingMediaTokensOf: Set<String>?
    /// Whether the cached preauthorization answers go (they were another MVPD's).
    var droppingPreauthorizations: Bool
}

/// Which of a requestor's profiles is in force, and what a new sign-in does to them — the
/// TempPass rule, as pure decisions (storage only stores what they return).
enum ProfileSelection {
    /// The profile in force at `now`, expired or not (validity is the caller's to judge):
    /// the one chosen last, or — once a TempPass chosen over a regular profile has ended —
    /// that regular profile again.
    static func current(_ profiles: RequestorProfiles, now: Date) -> StoredProfile? {
        if let chosen = profiles.chosen, chosen.type == .temporary, let standby = profiles.standby,
           !chosen.isValid(at: now), standby.isValid(at: now) {
            return standby
        }
        return profiles.chosen
    }

    /// What signing in with `profile` does at `now`. A TempPass chosen over a valid regular
    /// profile of another MVPD sets that one aside; any other profile replaces what was
    /// chosen (a regular one also ends any profile set aside). When the MVPD changes, the
    /// preauthorization answers go, and so do media tokens of MVPDs no longer stored.
    static func signIn(_ profile: StoredProfile, over profiles: RequestorProfiles, now: Date) -> ProfileChange {
        var next = profiles
        let previous = profiles.chosen
        if profile.type == .temporary, let previous, previous.mvpd != profile.mvpd {
            if previous.type != .temporary, previous.isValid(at: now) { next.standby = previous }
        } else if profile.type != .temporary {
            next.standby = nil
        }
        next.chosen = profile
        guard let previous, previous.mvpd != profile.mvpd else {
            return ProfileChange(profiles: next, keepingMediaTokensOf: nil, droppingPreauthorizations: false)
        }
        let kept = Set([profile.mvpd, next.standby?.mvpd].compactMap { $0 })
        return ProfileChange(profiles: next, keepingMediaTokensOf: kept, droppingPreauthorizations: true)
    }
}
