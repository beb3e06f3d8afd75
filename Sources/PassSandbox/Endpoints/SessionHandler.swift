import Foundation

/// The Sessions endpoints: create, resume and inspect an authentication session.
extension SandboxEngine {
    // MARK: Endpoints

    /// `POST /api/v2/{sp}/sessions` (form: `mvpd`, `domainName`, `redirectUrl`; headers
    /// `AD-Service-Token` and `Adobe-Subject-Token` optional). The session keeps the
    /// identities its tokens vouch for: they find shared profiles, and its login is shared
    /// through them.
    func createSession(_ request: SandboxRequest, serviceProvider: String, now: Date) throws(SandboxEnhancedError)
        -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        let info = try deviceInfo(request, required: true)
        let identities = try presentedIdentities(request, now: now)
        try requireBody(.form, request)
        let form = try sessionParameters(request)
        let mvpd = try form["mvpd"].map { (id: String) throws(SandboxEnhancedError) in
            try activeIntegration(caller.provider, id)
        }
        let redirectUrl = try form["redirectUrl"].map(Self.checkedRedirectURL)
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)
        if let mvpd, form["domainName"] != nil, redirectUrl != nil,
            let direct = try directAnswer(
                owner: owner, mvpd: mvpd, provider: caller.provider, identities: identities, now: now)
        {
            return .json(direct)
        }
        let session = openNewSession(
            caller: caller, deviceID: deviceID, deviceInfo: info, mvpd: mvpd?.id,
            domainName: form["domainName"], redirectUrl: redirectUrl, identities: identities, now: now)
        if session.missingParameters.isEmpty {
            return .json(Self.authenticateAnswer(session, reasonType: "none"))
        }
        return .json(Self.resumeAnswer(session, actionName: "resume", reasonType: "none"))
    }

    /// `POST /api/v2/{sp}/sessions/{code}`: adds the missing parameters.
    func resumeSession(_ request: SandboxRequest, serviceProvider: String, code: String, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        try requireBody(.form, request)
        var session = try openSession(code: code, serviceProvider: serviceProvider, now: now)
        let form = try sessionParameters(request)
        if let id = form["mvpd"] { session.mvpd = try activeIntegration(caller.provider, id).id }
        if let domain = form["domainName"] { session.domainName = domain }
        if let url = form["redirectUrl"] { session.redirectUrl = try Self.checkedRedirectURL(url) }
        sessions[session.code] = session
        guard session.missingParameters.isEmpty, let mvpdID = session.mvpd else {
            return .json(Self.resumeAnswer(session, actionName: "retry", reasonType: "none"))
        }
        let mvpd = try activeIntegration(caller.provider, mvpdID)
        if let owner = session.owner,
            let direct = try directAnswer(
                owner: owner, mvpd: mvpd, provider: caller.provider, identities: session.identities, now: now)
        {
            sessions[session.code] = nil
            return .json(direct)
        }
        return .json(Self.authenticateAnswer(session, reasonType: "none"))
    }

    /// `GET /api/v2/{sp}/sessions/{code}`: the parameters given so far and the device that
    /// opened the session (``SandboxDeviceDescription``).
    func sessionInformation(_ request: SandboxRequest, serviceProvider: String, code: String, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        _ = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let session = try openSession(code: code, serviceProvider: serviceProvider, now: now)
        let missing = session.missingParameters
        return .json(
            .object(
                ("missingParameters", missing.isEmpty ? nil : .array(missing.map(SandboxJSON.string))),
                (
                    "existingParameters",
                    .object(
                        ("mvpd", session.mvpd.map(SandboxJSON.string)),
                        ("domainName", session.domainName.map(SandboxJSON.string)),
                        ("redirectUrl", session.redirectUrl.map(SandboxJSON.string)),
                        ("serviceProvider", .string(session.serviceProvider))
                    )
                ),
                ("device", SandboxDeviceDescription(deviceInfo: session.deviceInfo).json),
                ("notBefore", .string(String(session.notBefore.epochMilliseconds))),
                ("notAfter", .string(String(session.notAfter.epochMilliseconds)))
            ))
    }

    // MARK: Shared by the session and partner endpoints

    /// Opens a session valid for the world's `authenticationSessionTTL` (30 minutes by default).
    func openNewSession(
        caller: Caller, deviceID: String, deviceInfo: SandboxJSON?, mvpd: String?, domainName: String?,
        redirectUrl: String?,
        identities: [VerifiedIdentity] = [], now: Date
    ) -> AuthenticationSession {
        var session = AuthenticationSession(
            code: newCode(), sessionID: newIdentifier(), serviceProvider: caller.provider.id,
            clientID: caller.grant.clientID,
            deviceID: deviceID, deviceInfo: deviceInfo, mvpd: mvpd, domainName: domainName, redirectUrl: redirectUrl,
            notBefore: now, notAfter: now.addingTimeInterval(TimeInterval(world.authenticationSessionTTL)))
        session.identities = identities
        remember(session)
        return session
    }

    /// The open session with `code` for `serviceProvider`, or `invalid_parameter_code` /
    /// `invalid_authentication_session`.
    func openSession(code: String, serviceProvider: String, now: Date) throws(SandboxEnhancedError)
        -> AuthenticationSession
    {
        guard !code.isEmpty, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw SandboxEnhancedError.invalidCode
        }
        guard let session = sessions[code], session.serviceProvider == serviceProvider else {
            throw SandboxEnhancedError.invalidAuthenticationSession.with(
                details: "No authentication session has the code \(code).")
        }
        guard session.isOpen(at: now) else {
            throw SandboxEnhancedError.invalidAuthenticationSession.with(
                details: "The authentication session \(code) has expired.")
        }
        return session
    }

    /// The `authorize`/`direct` answer when no login is needed: an existing profile
    /// (`authenticated`; `authenticatedSSO` for partner single sign-on or a profile
    /// `identities` find), degradation (`degraded`, a degraded profile is created) or
    /// TempPass (`temporary`, the device's TempPass starts). `nil` when the user must log in.
    func directAnswer(
        owner: ProfileOwner, mvpd: SandboxMVPDConfig, provider: SandboxServiceProvider,
        identities: [VerifiedIdentity] = [],
        now: Date
    ) throws(SandboxEnhancedError) -> SandboxJSON? {
        let reasonType: String
        if let existing = usableProfile(owner: owner, mvpd: mvpd.id, provider: provider, now: now)
            ?? sharedProfile(identities: identities, mvpd: mvpd, now: now)
        {
            reasonType =
                switch existing.kind {
                case .regular: "authenticated"
                case .appleSSO, .platformSSO, .serviceTokenSSO: "authenticatedSSO"
                case .temporary: "temporary"
                case .degraded: "degraded"
                }
        } else if mvpd.degraded {
            storeDegradedProfile(owner: owner, mvpd: mvpd, now: now)
            reasonType = "degraded"
        } else if mvpd.tempPass {
            // Starts the device's TempPass. A used-up one is still answered `temporary`:
            // the Sessions endpoints have no TempPass error; the profile and decision
            // requests that follow answer `temporary_access_duration_limit_exceeded`.
            _ = tempPassStanding(owner: owner, mvpd: mvpd, identity: nil, start: true, now: now)
            reasonType = "temporary"
        } else {
            return nil
        }
        return .object(
            ("actionName", .string("authorize")),
            ("actionType", .string("direct")),
            ("reasonType", .string(reasonType)),
            ("url", .string("/api/v2/\(owner.serviceProvider)/decisions/authorize/\(mvpd.id)")),
            ("sessionId", .string(newIdentifier())),
            ("mvpd", .string(mvpd.id)),
            ("serviceProvider", .string(owner.serviceProvider))
        )
    }

    /// `authenticate`/`interactive`: open the (relative) authenticate URL in a user agent.
    static func authenticateAnswer(_ session: AuthenticationSession, reasonType: String) -> SandboxJSON {
        .object(
            ("actionName", .string("authenticate")),
            ("actionType", .string("interactive")),
            ("reasonType", .string(reasonType)),
            ("url", .string("/api/v2/authenticate/\(session.serviceProvider)/\(session.code)")),
            ("code", .string(session.code)),
            ("sessionId", .string(session.sessionID)),
            ("mvpd", session.mvpd.map(SandboxJSON.string)),
            ("serviceProvider", .string(session.serviceProvider)),
            ("notBefore", .string(String(session.notBefore.epochMilliseconds))),
            ("notAfter", .string(String(session.notAfter.epochMilliseconds)))
        )
    }

    /// `resume` (or `retry`)/`direct`: provide the missing parameters to the session.
    static func resumeAnswer(_ session: AuthenticationSession, actionName: String, reasonType: String) -> SandboxJSON {
        .object(
            ("actionName", .string(actionName)),
            ("actionType", .string("direct")),
            ("reasonType", .string(reasonType)),
            ("url", .string("/api/v2/\(session.serviceProvider)/sessions/\(session.code)")),
            ("missingParameters", .array(session.missingParameters.map(SandboxJSON.string))),
            ("code", .string(session.code)),
            ("sessionId", .string(session.sessionID)),
            ("mvpd", session.mvpd.map(SandboxJSON.string)),
            ("serviceProvider", .string(session.serviceProvider)),
            ("notBefore", .string(String(session.notBefore.epochMilliseconds))),
            ("notAfter", .string(String(session.notAfter.epochMilliseconds)))
        )
    }

    /// The form parameters of a session request (`mvpd`, `domainName`, `redirectUrl`). A
    /// parameter left out, or sent empty, is missing (the session asks to resume with it; an
    /// empty `mvpd` is "no MVPD chosen yet"), except `redirectUrl`: an empty one is not a URL
    /// (`invalid_parameter_redirect_url`).
    func sessionParameters(_ request: SandboxRequest) throws(SandboxEnhancedError) -> [String: String] {
        for (name, value) in SandboxRequest.decodeForm(String(decoding: request.body, as: UTF8.self))
        where name == "redirectUrl" && value.isEmpty {
            throw SandboxEnhancedError.invalidRedirectURL.with(details: "The redirectUrl parameter is empty.")
        }
        return formParameters(request)
    }

    /// A redirect URL must be absolute (have a scheme).
    static func checkedRedirectURL(_ text: String) throws(SandboxEnhancedError) -> String {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
            throw SandboxEnhancedError.invalidRedirectURL
        }
        return text
    }
}
