import Foundation

/// Single sign-on through a service token or a platform identity (the REST API V2 single
/// sign-on flows): a login that presented identity tokens is also recorded as a profile of
/// each token's subject with that MVPD, world-wide. Any application — another device,
/// another client, another requestor — presenting a token for the same issuer and subject
/// finds it, as a `serviceTokenSSO` or `platformSSO` profile, provided its own integration
/// with the MVPD is active and has single sign-on enabled. A logout presenting the token
/// (single logout) deletes the shared profile and the profiles of the logins that created it.
extension SandboxEngine {
    /// `true` when `mvpd` (an integration of the requestor asking) takes part in single
    /// sign-on through tokens: active, with the dashboard's "Enable Single Sign On" on.
    static func sharesProfiles(_ mvpd: SandboxMVPDConfig) -> Bool {
        mvpd.integrationActive && mvpd.ssoEnabled
    }

    /// Stores a profile created by a login for `owner`, sharing it through `identities`
    /// when the integration takes part in single sign-on. Returns the stored profile.
    @discardableResult
    func storeLoginProfile(
        _ kind: ProfileKind, owner: ProfileOwner, mvpd: SandboxMVPDConfig, user: SandboxUser,
        identities: [VerifiedIdentity], now: Date
    ) -> StoredProfile {
        var profile = storeUserProfile(kind, owner: owner, mvpd: mvpd, user: user, now: now)
        guard !identities.isEmpty, Self.sharesProfiles(mvpd) else { return profile }
        for identity in identities {
            let key = identity.singleSignOnKey(mvpd: mvpd.id)
            let shared = StoredProfile(
                mvpd: profile.mvpd, kind: .sharedThrough(identity.kind), notBefore: profile.notBefore,
                notAfter: profile.notAfter,
                username: profile.username, userID: profile.userID, householdID: profile.householdID, zip: profile.zip)
            let origins = singleSignOnProfiles[key]?.origins ?? []
            singleSignOnProfiles[key] = SingleSignOnRecord(profile: shared, origins: origins.union([owner]))
            profile.sharedAs.append(key)
        }
        profiles[owner]?[mvpd.id] = profile
        return profile
    }

    /// The shared profile one of `identities` finds for `mvpd` (an integration of the
    /// requestor asking), usable or not: `nil` when none is recorded or the integration
    /// does not take part. Service tokens are looked at first.
    func singleSignOnRecord(identities: [VerifiedIdentity], mvpd: SandboxMVPDConfig) -> SingleSignOnRecord? {
        guard Self.sharesProfiles(mvpd) else { return nil }
        for identity in identities {
            if let record = singleSignOnProfiles[identity.singleSignOnKey(mvpd: mvpd.id)] { return record }
        }
        return nil
    }

    /// The usable shared profile `identities` find for `mvpd`: within its bounds and not
    /// invalidated.
    func sharedProfile(identities: [VerifiedIdentity], mvpd: SandboxMVPDConfig, now: Date) -> StoredProfile? {
        guard !identities.isEmpty, Self.sharesProfiles(mvpd) else { return nil }
        for identity in identities {
            guard let record = singleSignOnProfiles[identity.singleSignOnKey(mvpd: mvpd.id)] else { continue }
            if record.profile.isValid(at: now), !record.profile.invalidated { return record.profile }
        }
        return nil
    }

    /// Every usable shared profile `identities` find among `provider`'s integrations, one
    /// per MVPD.
    func sharedProfiles(identities: [VerifiedIdentity], provider: SandboxServiceProvider, now: Date) -> [StoredProfile]
    {
        guard !identities.isEmpty else { return [] }
        return provider.mvpds.compactMap { sharedProfile(identities: identities, mvpd: $0, now: now) }
    }

    /// A single logout of `mvpd` presenting `identities`: deletes each identity's shared
    /// profile and the profiles of the logins that created it (the first application's
    /// regular profile on its own device included). Returns how many profiles it deleted.
    @discardableResult
    func endSharedProfiles(identities: [VerifiedIdentity], mvpd: String) -> Int {
        var deleted = 0
        for identity in identities {
            let key = identity.singleSignOnKey(mvpd: mvpd)
            guard let record = singleSignOnProfiles.removeValue(forKey: key) else { continue }
            deleted += 1
            for origin in record.origins where profiles[origin]?[mvpd]?.sharedAs.contains(key) == true {
                profiles[origin]?[mvpd] = nil
                deleted += 1
            }
        }
        return deleted
    }

    /// Deletes every profile of `mvpd` Adobe Pass holds — on every device, for every client
    /// and requestor, and every shared one — as a single logout from elsewhere would.
    /// TempPass windows stay (they are not a sign-in). Returns how many it deleted.
    func deleteProfiles(mvpd: String) -> Int {
        var deleted = 0
        for owner in Array(profiles.keys) {
            guard let profile = profiles[owner]?[mvpd], profile.kind != .temporary else { continue }
            profiles[owner]?[mvpd] = nil
            deleted += 1
        }
        for key in singleSignOnProfiles.keys where key.mvpd == mvpd {
            singleSignOnProfiles[key] = nil
            deleted += 1
        }
        return deleted
    }

    /// Invalidates the shared profiles of `mvpd` (every MVPD when `nil`) created on
    /// `deviceID` (every device when `nil`), as ``PassSandbox/invalidateProfiles(mvpd:deviceIdentifier:)``
    /// does. Returns how many it invalidated.
    func invalidateSharedProfiles(mvpd: String?, deviceID: String?) -> Int {
        var count = 0
        for (key, record) in singleSignOnProfiles where mvpd == nil || key.mvpd == mvpd {
            guard !record.profile.invalidated,
                deviceID == nil || record.origins.contains(where: { $0.deviceID == deviceID })
            else { continue }
            singleSignOnProfiles[key]?.profile.invalidated = true
            count += 1
        }
        return count
    }

    /// Drops expired shared profiles. Amortised: the next sweep waits until the table has
    /// doubled.
    func sweepSingleSignOnProfiles(now: Date) {
        singleSignOnProfiles = singleSignOnProfiles.filter { now < $0.value.profile.notAfter }
        singleSignOnSweepAt = max(Self.minimumProfileSweep, singleSignOnProfiles.count * 2)
    }
}
