import Foundation

/// The profiles an app can see and choose among (``AccessEnabler/profiles``,
/// ``AccessEnabler/selectProfile(mvpd:)``), as pure decisions over the stored profiles.
enum ProfileChoice {
    /// The requestor's valid profiles at `now`, the one in force first, then the others by
    /// latest expiry. A profile's name is what the device knows of its provider.
    static func list(_ profiles: RequestorProfiles, now: Date) -> [Profile] {
        let inForce = ProfileSelection.current(profiles, now: now)
        let valid = profiles.all.filter { $0.isValid(at: now) }
        let ordered = valid.sorted { lhs, rhs in
            if (lhs.mvpd == inForce?.mvpd) != (rhs.mvpd == inForce?.mvpd) { return lhs.mvpd == inForce?.mvpd }
            if lhs.notAfter != rhs.notAfter { return lhs.notAfter > rhs.notAfter }
            return lhs.mvpd < rhs.mvpd
        }
        return ordered.map { stored in
            Profile(
                mvpd: stored.mvpd, displayName: stored.provider?.displayName ?? stored.mvpd,
                type: kind(of: stored.type),
                expiry: stored.notAfter, isInForce: stored.mvpd == inForce?.mvpd)
        }
    }

    /// The public kind of a stored profile type.
    static func kind(of type: StoredProfileType) -> Profile.Kind {
        switch type {
        case .regular: .regular
        case .appleSSO: .appleSSO
        case .platformSSO: .platformSSO
        case .serviceTokenSSO: .serviceTokenSSO
        case .temporary: .temporary
        case .degraded: .degraded
        }
    }

    /// Making the valid profile of `mvpd` the one in force, by the rule a new sign-in with it
    /// follows (``ProfileSelection/signIn(_:over:now:)``: the profile it replaces stays with
    /// the others, or is set aside behind a TempPass); `nil` when the device holds no valid
    /// profile of that MVPD, or it is in force already. Its provider is remembered for
    /// "Continue with" unless it is a TempPass.
    static func choosing(_ mvpd: String, in profiles: RequestorProfiles, now: Date) -> ProfileChange? {
        guard let chosen = profiles.all.first(where: { $0.mvpd == mvpd }), chosen.isValid(at: now),
            ProfileSelection.current(profiles, now: now)?.mvpd != mvpd
        else { return nil }
        var change = ProfileSelection.signIn(chosen, over: profiles, now: now)
        if chosen.type != .temporary, let provider = chosen.provider, !provider.isTempPass {
            change.profiles.remembered = provider
        }
        return change
    }
}
