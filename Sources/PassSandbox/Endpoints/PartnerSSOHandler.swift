import Foundation

/// Partner (Apple) single sign-on: `POST /sessions/sso/{partner}` and
/// `POST /profiles/sso/{partner}`.
extension SandboxEngine {
    static let supportedPartners: Set<String> = ["Apple"]

    /// Retrieves a partner authentication request, or falls back:
    /// - an MVPD the status names with a valid profile → `authorize`/`direct`/`authenticated`
    ///   (`authenticatedSSO` for an `appleSSO` profile);
    /// - degraded MVPD → `authorize`/`direct`/`degraded`;
    /// - `domainName`/`redirectUrl` missing or invalid → `resume`/`direct`/`missing_parameters_fallback`;
    /// - status header missing, invalid, not granted, unknown provider or expired →
    ///   `pfs_fallback` (`authenticate`/`interactive` when the MVPD is known, else `resume`
    ///   with `mvpd` missing);
    /// - MVPD without partner single sign-on (platform services off, "Enable Single Sign On"
    ///   off, or not onboarded) → `authenticate`/`interactive`/`configuration_fallback`;
    /// - otherwise `partner_profile`/`direct`/`none` with a SAML `authenticationRequest`.
    func partnerSession(_ request: SandboxRequest, serviceProvider: String, partner: String, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        let info = try deviceInfo(request, required: true)
        try requireBody(.form, request)
        guard Self.supportedPartners.contains(partner) else { throw SandboxEnhancedError.invalidPartner }
        let form = formParameters(request)
        // A missing or invalid parameter falls back to the resume flow (the page's
        // missing_parameters_fallback), it is not refused.
        let redirectUrl = form["redirectUrl"].flatMap { try? Self.checkedRedirectURL($0) }
        let statusHeader = request.header("AP-Partner-Framework-Status")
        let mvpd = PartnerFrameworkStatus(header: statusHeader)?.mappedMVPD(in: caller.provider)
        if let mvpd, !mvpd.integrationActive { throw SandboxEnhancedError.invalidIntegration }
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)

        if let mvpd, let direct = try directAnswer(owner: owner, mvpd: mvpd, provider: caller.provider, now: now) {
            return .json(direct)
        }
        func fallbackSession() -> AuthenticationSession {
            openNewSession(
                caller: caller, deviceID: deviceID, deviceInfo: info, mvpd: mvpd?.id,
                domainName: form["domainName"], redirectUrl: redirectUrl, now: now)
        }
        if form["domainName"] == nil || redirectUrl == nil {
            return .json(
                Self.resumeAnswer(fallbackSession(), actionName: "resume", reasonType: "missing_parameters_fallback"))
        }
        guard
            case .success(let validMVPD) = PartnerFrameworkStatus.validate(
                header: statusHeader, provider: caller.provider, now: now)
        else {
            let session = fallbackSession()
            return .json(
                mvpd == nil
                    ? Self.resumeAnswer(session, actionName: "resume", reasonType: "pfs_fallback")
                    : Self.authenticateAnswer(session, reasonType: "pfs_fallback"))
        }
        guard validMVPD.supportsPartnerSSO else {
            return .json(Self.authenticateAnswer(fallbackSession(), reasonType: "configuration_fallback"))
        }
        let samlRequest = mintSAMLRequest(serviceProvider: serviceProvider, mvpd: validMVPD.id, now: now)
        return .json(
            .object(
                ("actionName", .string("partner_profile")),
                ("actionType", .string("direct")),
                ("reasonType", .string("none")),
                ("url", .string("/api/v2/\(serviceProvider)/profiles/sso/\(partner)")),
                ("sessionId", .string(newIdentifier())),
                ("mvpd", .string(validMVPD.id)),
                ("serviceProvider", .string(serviceProvider)),
                (
                    "authenticationRequest",
                    .object(
                        ("type", .string("saml")),
                        ("request", .string(samlRequest)),
                        ("attributesNames", .array(Self.samlAttributeNames.map(SandboxJSON.string)))
                    )
                )
            ))
    }

    /// Creates an `appleSSO` profile from a verified SAML response (`201`). The status
    /// header must be valid and name the response's MVPD. A degraded MVPD answers its
    /// degraded profile (`200`); an MVPD without partner single sign-on answers the device's
    /// existing profiles for it (`200`, possibly empty), the basic profile retrieval.
    ///
    /// The profile lasts the integration's authentication TTL, whatever the system-level
    /// sign-in's expiry: the Apple SSO overview's TTL table keeps the Adobe Pass TTL.
    func partnerProfile(_ request: SandboxRequest, serviceProvider: String, partner: String, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        try deviceInfo(request, required: true)
        try requireBody(.form, request)
        guard Self.supportedPartners.contains(partner) else { throw SandboxEnhancedError.invalidPartner }
        let mvpd = try PartnerFrameworkStatus.validate(
            header: request.header("AP-Partner-Framework-Status"), provider: caller.provider, now: now
        ).get()
        guard mvpd.integrationActive else { throw SandboxEnhancedError.invalidIntegration }
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)
        if mvpd.degraded {
            let profile =
                usableProfile(owner: owner, mvpd: mvpd.id, provider: caller.provider, now: now)
                ?? storeDegradedProfile(owner: owner, mvpd: mvpd, now: now)
            return Self.profilesResponse([profile])
        }
        guard mvpd.supportsPartnerSSO else {
            let existing = usableProfile(owner: owner, mvpd: mvpd.id, provider: caller.provider, now: now)
            return Self.profilesResponse(existing.map { $0.kind == .appleSSO ? [] : [$0] } ?? [])
        }
        guard let samlResponse = formParameters(request)["SAMLResponse"] else {
            throw SandboxEnhancedError.invalidSAMLResponse.with(details: "The SAMLResponse parameter is missing.")
        }
        guard let assertion = verifySAMLResponse(samlResponse, provider: caller.provider, now: now) else {
            throw SandboxEnhancedError.invalidSAMLResponse.with(details: "The SAML response does not verify.")
        }
        guard assertion.mvpd.id == mvpd.id else { throw SandboxEnhancedError.pfsProviderMismatch }
        pendingSAMLRequests[assertion.requestID] = nil
        let profile = storeUserProfile(.appleSSO, owner: owner, mvpd: mvpd, user: assertion.user, now: now)
        return Self.profilesResponse([profile], status: 201)
    }
}
