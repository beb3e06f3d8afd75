import Foundation

/// What Adobe Pass's answer to `GET profiles` makes of a requestor's stored profiles, as a
/// pure decision: the stored profiles become what Adobe Pass answers.
enum ProfileReconciliation {
    /// The profiles after `answered`: one Adobe Pass no longer lists (signed out elsewhere,
    /// expired, invalidated) is dropped; one it lists that is not stored (single sign-on,
    /// another AccessEnabler over the same storage) is adopted — except an MVPD with a
    /// pending logout, which stays ended. The one in force is the one used last if it is
    /// still there, else the one whose `notAfter` is latest, TempPass last; a regular
    /// profile set aside for a TempPass in force stays set aside.
    ///
    /// Adobe Pass lists an `appleSSO` profile only to a request presenting the partner
    /// framework's status for its provider. `vouchedProvider` is the provider the request
    /// presented (`nil`: none): a stored `appleSSO` profile of that provider the answer does
    /// not list is over (expired, signed out, or its integration or single sign-on disabled on
    /// the dashboard); any other stored `appleSSO` profile stays, the answer's silence saying
    /// nothing about it.
    static func reconcile(
        _ stored: RequestorProfiles, answered: [StoredProfile], vouchedProvider: String? = nil, now: Date
    ) -> ProfileChange {
        let ending = Set(stored.pendingLogouts.map(\.mvpd))
        let known = Dictionary(stored.all.map { ($0.mvpd, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var adopted =
            answered
            .filter { !ending.contains($0.mvpd) && seen.insert($0.mvpd).inserted }
            .map { keepingWhatOnlyTheDeviceKnows(fresh: $0, stored: known[$0.mvpd]) }
        // An `appleSSO` profile the request could not show: the partner framework judges it as before.
        adopted += stored.all.filter { profile in
            let vouched = vouchedProvider.map(profile.isVouched(by:)) ?? false
            return profile.type == .appleSSO && !ending.contains(profile.mvpd) && !vouched
                && seen.insert(profile.mvpd).inserted
        }
        let lastUsed = ProfileSelection.current(stored, now: now)
        let chosen = adopted.first { $0.mvpd == lastUsed?.mvpd } ?? preferred(adopted)
        var standby: StoredProfile?
        if chosen?.type == .temporary, let aside = stored.standby {
            standby = adopted.first { $0.mvpd == aside.mvpd && $0.type != .temporary }
        }
        let inForce = Set([chosen?.mvpd, standby?.mvpd].compactMap { $0 })
        let profiles = RequestorProfiles(
            chosen: chosen, standby: standby, others: adopted.filter { !inForce.contains($0.mvpd) },
            pendingLogouts: stored.pendingLogouts, remembered: stored.remembered)
        let sameMVPD = stored.chosen?.mvpd == chosen?.mvpd
        return ProfileChange(profiles: profiles, keepingMediaTokensOf: inForce, droppingPreauthorizations: !sameMVPD)
    }

    /// With no profile used last among them: the latest `notAfter`, a TempPass only when
    /// nothing else is there.
    private static func preferred(_ profiles: [StoredProfile]) -> StoredProfile? {
        profiles.max { lhs, rhs in
            let (lhsTemp, rhsTemp) = (lhs.type == .temporary, rhs.type == .temporary)
            if lhsTemp != rhsTemp { return lhsTemp }
            if lhs.notAfter != rhs.notAfter { return lhs.notAfter < rhs.notAfter }
            return lhs.mvpd > rhs.mvpd
        }
    }

    /// Adobe's profile, with what only this device knows of it (the provider as the
    /// configuration described it; the partner sign-in it came from, who vouched for it)
    /// kept when Adobe's answer does not say.
    private static func keepingWhatOnlyTheDeviceKnows(fresh: StoredProfile, stored: StoredProfile?) -> StoredProfile {
        guard let stored else { return fresh }
        var merged = fresh
        merged.provider = fresh.provider ?? stored.provider
        guard stored.type == fresh.type else { return merged }
        merged.tokenSource = fresh.tokenSource ?? stored.tokenSource
        merged.partnerProviderID = fresh.partnerProviderID ?? stored.partnerProviderID
        merged.serviceProviderURL = stored.serviceProviderURL ?? fresh.serviceProviderURL
        return merged
    }
}

extension StoredProfile {
    /// Whether a request presenting the partner framework's status for `provider` (a
    /// provider mapping id) is one Adobe Pass would list this `appleSSO` profile to.
    func isVouched(by provider: String) -> Bool {
        (partnerProviderID ?? self.provider?.platformMappingId ?? mvpd) == provider
    }
}
