import Foundation

/// The Profiles endpoints and the profile bookkeeping shared by sessions, the login page,
/// partner single sign-on, decisions and logout.
extension SandboxEngine {
    // MARK: Endpoints

    /// `GET /api/v2/{sp}/profiles`: every valid profile of the device, keyed by MVPD.
    func allProfiles(_ request: SandboxRequest, serviceProvider: String, now: Date) throws(SandboxEnhancedError) -> SandboxResponse {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        try deviceInfo(request, required: true)
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)
        let visible = (profiles[owner] ?? [:]).values
            .filter { isUsable($0, provider: caller.provider, now: now) && partnerStatusShows($0, request: request, provider: caller.provider, now: now) }
            .sorted { $0.mvpd < $1.mvpd }
        return Self.profilesResponse(visible)
    }

    /// `GET /api/v2/{sp}/profiles/{mvpd}`: the device's profile for one MVPD; a degraded
    /// profile while an AuthNAll degradation applies and no profile exists.
    func profileForMVPD(_ request: SandboxRequest, serviceProvider: String, mvpd mvpdID: String, now: Date) throws(SandboxEnhancedError) -> SandboxResponse {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        try deviceInfo(request, required: true)
        let mvpd = try activeIntegration(caller.provider, mvpdID)
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)
        if mvpd.tempPass, tempPassExpired(deviceID: deviceID, serviceProvider: serviceProvider, mvpd: mvpd, now: now) {
            throw SandboxEnhancedError.tempPassDurationExceeded
        }
        if let profile = usableProfile(owner: owner, mvpd: mvpd.id, provider: caller.provider, now: now) {
            guard partnerStatusShows(profile, request: request, provider: caller.provider, now: now) else { return Self.profilesResponse([]) }
            return Self.profilesResponse([profile])
        }
        if mvpd.degraded {
            return Self.profilesResponse([storeDegradedProfile(owner: owner, mvpd: mvpd, now: now)])
        }
        return Self.profilesResponse([])
    }

    /// `GET /api/v2/{sp}/profiles/code/{code}`: the profile the session's login created;
    /// an empty map while the user has not logged in yet.
    func profileForCode(_ request: SandboxRequest, serviceProvider: String, code: String, now: Date) throws(SandboxEnhancedError) -> SandboxResponse {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let session = try openSession(code: code, serviceProvider: serviceProvider, now: now)
        guard session.authenticated, let owner = session.owner, let mvpd = session.mvpd,
              let profile = usableProfile(owner: owner, mvpd: mvpd, provider: caller.provider, now: now)
        else { return Self.profilesResponse([]) }
        return Self.profilesResponse([profile])
    }

    // MARK: Bookkeeping

    /// `{"profiles": {mvpd: profile, …}}`.
    static func profilesResponse(_ list: [StoredProfile], status: Int = 200) -> SandboxResponse {
        .json(.object([("profiles", .object(list.map { ($0.mvpd, profileJSON($0)) }))]), status: status)
    }

    /// One profile as the samples show it: epoch-millisecond bounds, issuer, type and
    /// attributes `{value, state}` (`zip` encrypted).
    static func profileJSON(_ profile: StoredProfile) -> SandboxJSON {
        var attributes: [(String, SandboxJSON)] = []
        func plain(_ value: SandboxJSON) -> SandboxJSON { .object([("value", value), ("state", .string("plain"))]) }
        if profile.kind == .temporary {
            attributes.append(("expiration_date", plain(.int(profile.notAfter.epochMilliseconds))))
        }
        attributes.append(("userID", plain(.string(profile.userID))))
        if let household = profile.householdID { attributes.append(("householdID", plain(.string(household)))) }
        if let zip = profile.zip {
            attributes.append(("zip", .object([("value", .string(SandboxMetadataCipher.encrypt(zip))), ("state", .string("enc"))])))
        }
        return .object(
            ("notBefore", .int(profile.notBefore.epochMilliseconds)),
            ("notAfter", .int(profile.notAfter.epochMilliseconds)),
            ("issuer", .string(profile.kind.issuer(mvpd: profile.mvpd))),
            ("type", .string(profile.kind.rawValue)),
            ("attributes", .object(attributes))
        )
    }

    /// A profile counts while it is within its bounds, its integration is active, and (for
    /// a degraded profile) the degradation still applies.
    func isUsable(_ profile: StoredProfile, provider: SandboxServiceProvider, now: Date) -> Bool {
        guard profile.isValid(at: now), let mvpd = provider.mvpd(profile.mvpd), mvpd.integrationActive else { return false }
        return profile.kind != .degraded || mvpd.degraded
    }

    func usableProfile(owner: ProfileOwner, mvpd: String, provider: SandboxServiceProvider, now: Date) -> StoredProfile? {
        guard let profile = profiles[owner]?[mvpd], isUsable(profile, provider: provider, now: now) else { return nil }
        return profile
    }

    /// An `appleSSO` profile is shown only to a request carrying a valid partner framework
    /// status for its MVPD (the cookbook: "such that the response may include an appleSSO
    /// type profile"); other profiles always.
    func partnerStatusShows(_ profile: StoredProfile, request: SandboxRequest, provider: SandboxServiceProvider, now: Date) -> Bool {
        guard profile.kind == .appleSSO else { return true }
        guard case .success(let mvpd) = PartnerFrameworkStatus.validate(header: request.header("AP-Partner-Framework-Status"), provider: provider, now: now) else {
            return false
        }
        return mvpd.id == profile.mvpd
    }

    /// Stores (replacing any previous one) and returns a profile for a user of `mvpd`.
    @discardableResult
    func storeUserProfile(_ kind: ProfileKind, owner: ProfileOwner, mvpd: SandboxMVPDConfig, user: SandboxUser, now: Date) -> StoredProfile {
        let profile = StoredProfile(
            mvpd: mvpd.id, kind: kind, notBefore: now, notAfter: now.addingTimeInterval(TimeInterval(mvpd.authenticationTTL)),
            username: user.username, userID: user.userID, householdID: user.householdID, zip: user.zip)
        profiles[owner, default: [:]][mvpd.id] = profile
        return profile
    }

    /// A degraded profile (AuthNAll): issuer Adobe, a device-derived user id with the
    /// degradation prefix, lasting the MVPD's authentication TTL.
    @discardableResult
    func storeDegradedProfile(owner: ProfileOwner, mvpd: SandboxMVPDConfig, now: Date) -> StoredProfile {
        let profile = StoredProfile(
            mvpd: mvpd.id, kind: .degraded, notBefore: now, notAfter: now.addingTimeInterval(TimeInterval(mvpd.authenticationTTL)),
            username: nil, userID: "95cf93bcd183214a" + Self.deviceDigest(owner.deviceID), householdID: nil, zip: nil)
        profiles[owner, default: [:]][mvpd.id] = profile
        return profile
    }

    /// The temporary profile of a TempPass MVPD; the temporary access window starts on the
    /// device's first use and is not renewed by logging out.
    @discardableResult
    func storeTemporaryProfile(owner: ProfileOwner, mvpd: SandboxMVPDConfig, now: Date) -> StoredProfile {
        let key = TempPassKey(deviceID: owner.deviceID, serviceProvider: owner.serviceProvider, mvpd: mvpd.id)
        let start = tempPassStarts[key] ?? now
        tempPassStarts[key] = start
        let profile = StoredProfile(
            mvpd: mvpd.id, kind: .temporary, notBefore: start, notAfter: start.addingTimeInterval(TimeInterval(mvpd.authenticationTTL)),
            username: nil, userID: "temppass_" + Self.deviceDigest(owner.deviceID), householdID: nil, zip: nil)
        profiles[owner, default: [:]][mvpd.id] = profile
        return profile
    }

    /// `true` when the device already used up its TempPass window for `mvpd`.
    func tempPassExpired(deviceID: String, serviceProvider: String, mvpd: SandboxMVPDConfig, now: Date) -> Bool {
        guard let start = tempPassStarts[TempPassKey(deviceID: deviceID, serviceProvider: serviceProvider, mvpd: mvpd.id)] else { return false }
        return now >= start.addingTimeInterval(TimeInterval(mvpd.authenticationTTL))
    }

    /// 40 hexadecimal characters derived from the device identifier.
    static func deviceDigest(_ deviceID: String) -> String {
        String(SandboxHMAC.sha256(Array(deviceID.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined().prefix(40))
    }
}
