import Foundation

/// The Profiles endpoints and the profile bookkeeping shared by sessions, the login page,
/// partner single sign-on, decisions and logout.
extension SandboxEngine {
    // MARK: Endpoints

    /// `GET /api/v2/{sp}/profiles`: every valid profile of the device, keyed by MVPD
    /// (a TempPass profile beside a regular one: REST API V2 keeps several), and for each
    /// other MVPD the profile the request's identity tokens share, if any. Expired,
    /// invalidated and used-up profiles are left out.
    func allProfiles(_ request: SandboxRequest, serviceProvider: String, now: Date) throws(SandboxEnhancedError)
        -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        try deviceInfo(request, required: true)
        let identities = try presentedIdentities(request, now: now)
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)
        var visible: [(StoredProfile, promotion: (remaining: Int, used: [String])?)] = []
        for profile in (profiles[owner] ?? [:]).values.sorted(by: { $0.mvpd < $1.mvpd }) {
            guard isUsable(profile, provider: caller.provider, now: now),
                partnerStatusShows(profile, request: request, provider: caller.provider, now: now)
            else { continue }
            guard profile.kind == .temporary, let mvpd = caller.provider.mvpd(profile.mvpd), mvpd.isPromotionalTempPass
            else {
                visible.append((profile, nil))
                continue
            }
            // A promotional trial is found by the identity when the request names one.
            let identity = (try? tempPassIdentity(request, mvpd: mvpd).get()) ?? nil
            guard
                case .active(let current, let trialID) = tempPassStanding(
                    owner: owner, mvpd: mvpd, identity: identity, start: false, now: now),
                let promotion = promotionalAttributes(trialID: trialID, mvpd: mvpd), promotion.remaining > 0
            else { continue }
            visible.append((current, promotion))
        }
        let shown = Set(visible.map(\.0.mvpd))
        for shared in sharedProfiles(identities: identities, provider: caller.provider, now: now)
        where !shown.contains(shared.mvpd) {
            visible.append((shared, nil))
        }
        return Self.profilesResponse(withBudgets: visible.sorted { $0.0.mvpd < $1.0.mvpd })
    }

    /// `GET /api/v2/{sp}/profiles/{mvpd}`: the device's profile for one MVPD, else the one
    /// the request's identity tokens share; a degraded profile while an AuthNAll
    /// degradation applies and no profile exists.
    ///
    /// - A profile Adobe Pass invalidated (and nothing else valid) →
    ///   `403 authenticated_profile_invalidated`.
    /// - A TempPass MVPD: its temporary profile while the window lasts (`{}` before the
    ///   device first used it); `403 temporary_access_duration_limit_exceeded` after, and
    ///   for a promotional TempPass `403 temporary_access_resources_limit_exceeded` once
    ///   the budget is spent, or `400 invalid_header_identity_for_temporary_access`.
    func profileForMVPD(_ request: SandboxRequest, serviceProvider: String, mvpd mvpdID: String, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        try deviceInfo(request, required: true)
        let identities = try presentedIdentities(request, now: now)
        let mvpd = try activeIntegration(caller.provider, mvpdID)
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)
        if mvpd.tempPass {
            let identity = try tempPassIdentity(request, mvpd: mvpd).get()
            switch tempPassStanding(owner: owner, mvpd: mvpd, identity: identity, start: false, now: now) {
            case .unused: return Self.profilesResponse([])
            case .durationExceeded: throw SandboxEnhancedError.tempPassDurationExceeded
            case .active(let profile, let trialID):
                let promotion = promotionalAttributes(trialID: trialID, mvpd: mvpd)
                if let promotion, promotion.remaining == 0 {
                    throw SandboxEnhancedError.tempPassResourcesExceeded.with(
                        details: "All \(promotion.used.count) resources of this promotional TempPass were used.")
                }
                return Self.profilesResponse(withBudgets: [(profile, promotion)])
            }
        }
        if let profile = usableProfile(owner: owner, mvpd: mvpd.id, provider: caller.provider, now: now),
            partnerStatusShows(profile, request: request, provider: caller.provider, now: now)
        {
            return Self.profilesResponse([profile])
        }
        if let shared = sharedProfile(identities: identities, mvpd: mvpd, now: now) {
            return Self.profilesResponse([shared])
        }
        if isInvalidatedButCurrent(profiles[owner]?[mvpd.id], now: now)
            || isInvalidatedButCurrent(singleSignOnRecord(identities: identities, mvpd: mvpd)?.profile, now: now)
        {
            throw SandboxEnhancedError.profileInvalidated
        }
        if usableProfile(owner: owner, mvpd: mvpd.id, provider: caller.provider, now: now) != nil {
            return Self.profilesResponse([])  // an appleSSO profile without the partner status that shows it
        }
        if mvpd.degraded {
            return Self.profilesResponse([storeDegradedProfile(owner: owner, mvpd: mvpd, now: now)])
        }
        return Self.profilesResponse([])
    }

    /// `GET /api/v2/{sp}/profiles/code/{code}`: the profile the session's login created (or,
    /// when the second screen's choice found a profile shared through the session's
    /// identity tokens, that one); an empty map while the user has not logged in yet;
    /// `403 authenticated_profile_invalidated` when Adobe Pass invalidated it since. The
    /// page lists no identity token header: the session's own identities are used.
    func profileForCode(_ request: SandboxRequest, serviceProvider: String, code: String, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        switch sessions[code] {
        case nil: observed.codeState = .unknown
        case let known? where !known.isOpen(at: now): observed.codeState = .expired
        default: observed.codeState = .pending
        }
        let session = try openSession(code: code, serviceProvider: serviceProvider, now: now)
        guard session.authenticated, let owner = session.owner, let mvpdID = session.mvpd else {
            return Self.profilesResponse([])
        }
        if let profile = usableProfile(owner: owner, mvpd: mvpdID, provider: caller.provider, now: now) {
            observed.codeState = .authenticated
            return Self.profilesResponse([profile])
        }
        if let mvpd = caller.provider.mvpd(mvpdID),
            let shared = sharedProfile(identities: session.identities, mvpd: mvpd, now: now)
        {
            observed.codeState = .authenticated
            return Self.profilesResponse([shared])
        }
        if isInvalidatedButCurrent(profiles[owner]?[mvpdID], now: now) { throw SandboxEnhancedError.profileInvalidated }
        return Self.profilesResponse([])
    }

    /// `true` for a profile Adobe Pass invalidated before its `notAfter` came: requests
    /// relying on it are told so, rather than that it is missing.
    func isInvalidatedButCurrent(_ profile: StoredProfile?, now: Date) -> Bool {
        guard let profile else { return false }
        return profile.invalidated && profile.isValid(at: now)
    }

    // MARK: Bookkeeping

    /// `{"profiles": {mvpd: profile, …}}`.
    static func profilesResponse(_ list: [StoredProfile], status: Int = 200) -> SandboxResponse {
        profilesResponse(withBudgets: list.map { ($0, nil) }, status: status)
    }

    /// `{"profiles": {mvpd: profile, …}}`, promotional TempPass profiles with their budget.
    static func profilesResponse(
        withBudgets list: [(StoredProfile, promotion: (remaining: Int, used: [String])?)], status: Int = 200
    ) -> SandboxResponse {
        .json(
            .object([("profiles", .object(list.map { ($0.0.mvpd, profileJSON($0.0, promotion: $0.promotion)) }))]),
            status: status)
    }

    /// One profile as the samples show it: epoch-millisecond bounds, issuer, type and
    /// attributes `{value, state}` (`zip` encrypted). A promotional TempPass profile adds
    /// `remaining_resources` and `used_assets`, and a profile shared through identity tokens
    /// `upstreamUserID` and `mvpd`, as their samples do.
    static func profileJSON(_ profile: StoredProfile, promotion: (remaining: Int, used: [String])? = nil) -> SandboxJSON
    {
        var attributes: [(String, SandboxJSON)] = []
        func plain(_ value: SandboxJSON) -> SandboxJSON { .object([("value", value), ("state", .string("plain"))]) }
        if let promotion {
            attributes.append(("remaining_resources", plain(.int(Int64(promotion.remaining)))))
            attributes.append(("used_assets", plain(.array(promotion.used.map(SandboxJSON.string)))))
        }
        switch profile.kind {
        case .temporary:
            attributes.append(("expiration_date", plain(.int(profile.notAfter.epochMilliseconds))))
            attributes.append(("userID", plain(.string(profile.userID))))
        case .platformSSO, .serviceTokenSSO:
            // As the single sign-on samples show them: the MVPD's user id, then the MVPD.
            attributes.append(("upstreamUserID", plain(.string(profile.userID))))
            attributes.append(("userID", plain(.string(profile.userID))))
            attributes.append(("mvpd", plain(.string(profile.mvpd))))
        case .regular, .appleSSO, .degraded:
            attributes.append(("userID", plain(.string(profile.userID))))
        }
        if let household = profile.householdID { attributes.append(("householdID", plain(.string(household)))) }
        if let zip = profile.zip {
            attributes.append(
                ("zip", .object([("value", .string(SandboxMetadataCipher.encrypt(zip))), ("state", .string("enc"))])))
        }
        return .object(
            ("notBefore", .int(profile.notBefore.epochMilliseconds)),
            ("notAfter", .int(profile.notAfter.epochMilliseconds)),
            ("issuer", .string(profile.kind.issuer(mvpd: profile.mvpd))),
            ("type", .string(profile.kind.rawValue)),
            ("attributes", .object(attributes))
        )
    }

    /// A profile counts while it is within its bounds, was not invalidated, its
    /// integration is active, (for a degraded profile) the degradation still applies, and
    /// (for a partner single sign-on profile) the dashboard's single sign-on is still on.
    /// A dashboard change counts from the next request: the world is read each time.
    func isUsable(_ profile: StoredProfile, provider: SandboxServiceProvider, now: Date) -> Bool {
        guard profile.isValid(at: now), !profile.invalidated, let mvpd = provider.mvpd(profile.mvpd),
            mvpd.integrationActive
        else { return false }
        switch profile.kind {
        case .degraded: return mvpd.degraded
        case .appleSSO: return mvpd.ssoEnabled
        case .regular, .platformSSO, .serviceTokenSSO, .temporary: return true
        }
    }

    func usableProfile(owner: ProfileOwner, mvpd: String, provider: SandboxServiceProvider, now: Date) -> StoredProfile?
    {
        guard let profile = profiles[owner]?[mvpd], isUsable(profile, provider: provider, now: now) else { return nil }
        return profile
    }

    /// An `appleSSO` profile is shown only to a request carrying a valid partner framework
    /// status for its MVPD (the cookbook: "such that the response may include an appleSSO
    /// type profile"); other profiles always.
    func partnerStatusShows(
        _ profile: StoredProfile, request: SandboxRequest, provider: SandboxServiceProvider, now: Date
    ) -> Bool {
        guard profile.kind == .appleSSO else { return true }
        guard
            case .success(let mvpd) = PartnerFrameworkStatus.validate(
                header: request.header("AP-Partner-Framework-Status"), provider: provider, now: now)
        else {
            return false
        }
        return mvpd.id == profile.mvpd
    }

    /// Stores (replacing any previous one) and returns a profile for a user of `mvpd`.
    @discardableResult
    func storeUserProfile(
        _ kind: ProfileKind, owner: ProfileOwner, mvpd: SandboxMVPDConfig, user: SandboxUser, now: Date
    ) -> StoredProfile {
        let profile = StoredProfile(
            mvpd: mvpd.id, kind: kind, notBefore: now,
            notAfter: now.addingTimeInterval(TimeInterval(mvpd.authenticationTTL)),
            username: user.username, userID: user.userID, householdID: user.householdID, zip: user.zip)
        profiles[owner, default: [:]][mvpd.id] = profile
        return profile
    }

    /// A degraded profile (AuthNAll): issuer Adobe, a device-derived user id with the
    /// degradation prefix, lasting the MVPD's authentication TTL.
    @discardableResult
    func storeDegradedProfile(owner: ProfileOwner, mvpd: SandboxMVPDConfig, now: Date) -> StoredProfile {
        let profile = StoredProfile(
            mvpd: mvpd.id, kind: .degraded, notBefore: now,
            notAfter: now.addingTimeInterval(TimeInterval(mvpd.authenticationTTL)),
            username: nil, userID: "95cf93bcd183214a" + Self.deviceDigest(owner.deviceID), householdID: nil, zip: nil)
        profiles[owner, default: [:]][mvpd.id] = profile
        return profile
    }

    /// 40 hexadecimal characters derived from the device identifier.
    static func deviceDigest(_ deviceID: String) -> String {
        String(
            SandboxHMAC.sha256(Array(deviceID.utf8)).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined().prefix(40))
    }
}
