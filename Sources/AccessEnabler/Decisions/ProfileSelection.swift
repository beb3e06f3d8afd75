import Foundation

/// Which of a requestor's profiles is in force, and what a new sign-in does to them — the
/// TempPass rule, as pure decisions (storage only stores what they return).
enum ProfileSelection {
    /// The profile in force at `now`, expired or not (validity is the caller's to judge):
    /// the one chosen last, or — once a TempPass chosen over a regular profile has ended —
    /// that regular profile again.
    static func current(_ profiles: RequestorProfiles, now: Date) -> StoredProfile? {
        if let chosen = profiles.chosen, chosen.type == .temporary, let standby = profiles.standby,
            !chosen.isValid(at: now), standby.isValid(at: now)
        {
            return standby
        }
        return profiles.chosen
    }

    /// ``current(_:now:)`` from the profile chosen last, reading the requestor's other
    /// profiles (`all`) only when it is a TempPass, the one case where another can be in
    /// force: the common case copies one profile out of storage, not every list.
    static func current(chosen: StoredProfile?, all: () -> RequestorProfiles, now: Date) -> StoredProfile? {
        guard let chosen, chosen.type == .temporary else { return chosen }
        return current(all(), now: now)
    }

    /// What signing in with `profile` does at `now`. A TempPass chosen over a valid regular
    /// profile of another MVPD sets that one aside; any other profile replaces what was
    /// chosen (a regular one also ends any profile set aside). A profile of another MVPD that
    /// is no longer chosen nor set aside joins the others: Adobe Pass still holds it. When the
    /// MVPD changes, the preauthorization answers go, and so do media tokens of MVPDs no
    /// longer chosen or set aside.
    static func signIn(_ profile: StoredProfile, over profiles: RequestorProfiles, now: Date) -> ProfileChange {
        var next = profiles
        let previous = profiles.chosen
        if profile.type == .temporary, let previous, previous.mvpd != profile.mvpd {
            if previous.type != .temporary, previous.isValid(at: now) { next.standby = previous }
        } else if profile.type != .temporary {
            next.standby = nil
        }
        next.chosen = profile
        // A profile no longer chosen nor set aside is still held by Adobe Pass: a logout ends it too.
        let replaced = [previous, profiles.standby].compactMap { $0 }.filter {
            $0.mvpd != next.standby?.mvpd && $0.notAfter > now
        }
        next.others = (profiles.others + replaced).reduce(into: [StoredProfile]()) { kept, other in
            guard other.mvpd != profile.mvpd, other.mvpd != next.standby?.mvpd else { return }
            kept.removeAll { $0.mvpd == other.mvpd }
            kept.append(other)
        }
        // A new sign-in replaces, at Adobe Pass too, whatever a pending logout was to end.
        next.pendingLogouts.removeAll { $0.mvpd == profile.mvpd }
        guard let previous, previous.mvpd != profile.mvpd else {
            return ProfileChange(profiles: next, keepingMediaTokensOf: nil, droppingPreauthorizations: false)
        }
        let kept = Set([profile.mvpd, next.standby?.mvpd].compactMap { $0 })
        return ProfileChange(profiles: next, keepingMediaTokensOf: kept, droppingPreauthorizations: true)
    }
}
