import Foundation

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
