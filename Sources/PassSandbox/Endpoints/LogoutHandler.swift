import Foundation

/// `GET /api/v2/{sp}/logout/{mvpd}?redirectUrl=…`: deletes the device's profile for the
/// MVPD and says what the application must do next. Presenting an identity token
/// (`AD-Service-Token`, `Adobe-Subject-Token`) makes it a single logout: the profile shared
/// through the token, and the profiles of the logins that created it on any device, are
/// deleted too, so every application presenting the same token is signed out.
extension SandboxEngine {
    /// The action follows the profile the request relied on (the device's own, else the
    /// one its tokens share):
    /// - regular or shared (`serviceTokenSSO`, `platformSSO`) profile → `logout`/`interactive`
    ///   with the absolute MVPD logout page URL (which redirects to `redirectUrl`);
    /// - `appleSSO` profile → `partner_logout`/`partner_interactive`, no URL;
    /// - temporary or degraded access (or the MVPD is degraded) → `complete`/`none`;
    /// - no valid profile → `invalid`/`none`.
    func logout(_ request: SandboxRequest, serviceProvider: String, mvpd mvpdID: String, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        try deviceInfo(request, required: true)
        let identities = try presentedIdentities(request, now: now)
        guard let redirectText = request.queryValue("redirectUrl"), !redirectText.isEmpty else {
            throw SandboxEnhancedError.invalidRedirectURL
        }
        let redirectUrl = try Self.checkedRedirectURL(redirectText)
        let mvpd = try activeIntegration(caller.provider, mvpdID)
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)
        let profile =
            usableProfile(owner: owner, mvpd: mvpd.id, provider: caller.provider, now: now)
            ?? sharedProfile(identities: identities, mvpd: mvpd, now: now)
        profiles[owner]?[mvpd.id] = nil
        if Self.sharesProfiles(mvpd) { endSharedProfiles(identities: identities, mvpd: mvpd.id) }

        let actionName: String, actionType: String
        var url: String?
        switch profile?.kind {
        case nil where mvpd.degraded: (actionName, actionType) = ("complete", "none")
        case nil: (actionName, actionType) = ("invalid", "none")
        case .temporary?, .degraded?: (actionName, actionType) = ("complete", "none")
        case .appleSSO?: (actionName, actionType) = ("partner_logout", "partner_interactive")
        case .regular?, .serviceTokenSSO?, .platformSSO?:
            (actionName, actionType) = ("logout", "interactive")
            url = absoluteURL(
                SandboxRoute.mvpdLogoutPath + "?noflash=true&mso_id=\(Self.formEncode(mvpd.id))"
                    + "&requestor_id=\(Self.formEncode(serviceProvider))&redirect_url=\(Self.formEncode(redirectUrl))")
            observed.issuedLogoutPage = ObservedFacts.logoutPageKey(
                mvpd: mvpd.id, serviceProvider: serviceProvider, redirect: redirectUrl)
        }
        return .json(
            .object([
                (
                    "logouts",
                    .object([
                        (
                            mvpd.id,
                            .object(
                                ("actionName", .string(actionName)),
                                ("actionType", .string(actionType)),
                                ("mvpd", .string(mvpd.id)),
                                ("url", url.map(SandboxJSON.string))
                            )
                        )
                    ])
                )
            ]))
    }
}
