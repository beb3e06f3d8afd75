import Foundation

/// `/activate`: the second screen of REST API V2's "authentication performed within a
/// secondary application". A TV without a browser creates a session and shows its code;
/// a person types the code here on a phone or computer, chooses the TV provider when the
/// TV did not, and logs in at the MVPD; the TV's poll of `profiles/code/{code}` then
/// finds the profile.
extension SandboxEngine {
    /// `GET /activate` shows the form (`?code=` pre-fills it). `POST /activate` (form
    /// `code`, and `mvpd` once the person chose a TV provider):
    /// - an empty, unknown, expired or already used code shows the form again with an
    ///   error and the code as typed;
    /// - a session without an MVPD shows the TV provider choice (the requestor's active
    ///   MVPDs); a choice resumes the session as `POST sessions/{code}` with that MVPD would:
    ///   an existing profile (the device's, or one shared through the identity tokens the
    ///   session was created with), a degraded MVPD or TempPass sign the TV in at once (the
    ///   "signed in" page), otherwise the login follows;
    /// - otherwise `302` to the session's authenticate URL, which leads to the MVPD login
    ///   page; the login then ends on the "go back to your TV" page.
    ///
    /// Parameters the TV did not give are filled in as the secondary application of the
    /// documentation does: the requestor's first domain, and this page as redirect URL.
    func activation(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        guard request.method.uppercased() == "POST" else {
            return .html(Self.activationPage(code: request.queryValue("code") ?? "", error: nil))
        }
        let form = formParameters(request)
        let typed = form["code"] ?? ""
        let code = Self.normalizedCode(typed)
        guard !code.isEmpty else {
            return .html(Self.activationPage(code: typed, error: "Type the code shown on your TV."))
        }
        // A code as typed (lower case, spaces, a look-alike for its twin), else as spelled.
        let asSpelled = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let found = sessions[code] ?? sessions[asSpelled.uppercased()] ?? sessions[asSpelled]
        guard var session = found, let provider = world.serviceProvider(session.serviceProvider) else {
            // The refusal names the code as the person typed it, not as it was read.
            let refusal = SignInRefusal.unknownCode(asSpelled.uppercased()).message
            let advice = " Check the code on your TV and type it again."
            return .html(Self.activationPage(code: typed, error: refusal + advice))
        }
        switch sessionForPage(code: session.code, serviceProvider: nil, now: now) {
        case .failure(let refusal):
            return .html(Self.activationPage(code: typed, error: refusal.message + " " + refusal.advice))
        case .success: break
        }

        let chosen: SandboxMVPDConfig
        if let preset = session.mvpd {
            guard let mvpd = provider.mvpd(preset), mvpd.integrationActive else {
                let refusal = SignInRefusal.providerUnavailable(provider.mvpd(preset)?.displayName ?? preset)
                return .html(Self.activationPage(code: typed, error: refusal.message + " " + refusal.advice))
            }
            chosen = mvpd
        } else {
            let offered = Self.providerChoices(provider)
            guard let id = form["mvpd"] else {
                return .html(
                    Self.providerChoicePage(
                        code: session.code, requestorName: provider.name, mvpds: offered, error: nil))
            }
            guard let mvpd = offered.first(where: { $0.id == id }) else {
                return .html(
                    Self.providerChoicePage(
                        code: session.code, requestorName: provider.name, mvpds: offered,
                        error:
                            "\(SignInRefusal.shown(id)) is not a TV provider of \(provider.name). Choose one of the list."
                    ))
            }
            chosen = mvpd
        }

        let choseNow = session.mvpd == nil
        session.mvpd = chosen.id
        if session.domainName == nil { session.domainName = provider.domains.first ?? "adobe.com" }
        if session.redirectUrl == nil { session.redirectUrl = absoluteURL(SandboxRoute.activatePath) }
        session.activatedOnSecondScreen = true

        if choseNow, let owner = session.owner {
            // The Sessions endpoints never refuse a used-up TempPass (its profile request
            // does): on the second screen the person is told at once and chooses again.
            if chosen.tempPass,
                case .durationExceeded = tempPassStanding(
                    owner: owner, mvpd: chosen, identity: nil, start: false, now: now)
            {
                return .html(
                    Self.providerChoicePage(
                        code: session.code, requestorName: provider.name, mvpds: Self.providerChoices(provider),
                        error:
                            "\(chosen.displayName) cannot sign this TV in: the temporary access time of this device is used up."
                    ))
            }
            do {
                if try directAnswer(
                    owner: owner, mvpd: chosen, provider: provider, identities: session.identities, now: now) != nil
                {
                    session.authenticated = true
                    sessions[session.code] = session
                    let kind =
                        (usableProfile(owner: owner, mvpd: chosen.id, provider: provider, now: now)
                        ?? sharedProfile(identities: session.identities, mvpd: chosen, now: now))?.kind
                    return .html(Self.signedInPage(mvpd: chosen, detail: Self.directSignInDetail(kind, mvpd: chosen)))
                }
            } catch {
                // The session keeps no MVPD, so the person can choose another one.
                return .html(
                    Self.providerChoicePage(
                        code: session.code, requestorName: provider.name, mvpds: Self.providerChoices(provider),
                        error: "\(chosen.displayName) cannot sign this TV in: \(error.message)"))
            }
        }
        sessions[session.code] = session
        return .redirect(
            to: absoluteURL(
                "/api/v2/authenticate/\(Self.formEncode(session.serviceProvider))/\(Self.formEncode(session.code))"))
    }

    /// A typed code as sessions are keyed (``SandboxRegistrationCode/normalized(_:)``: upper
    /// case, no spaces or dashes, a look-alike read as its twin).
    static func normalizedCode(_ typed: String) -> String {
        SandboxRegistrationCode.normalized(typed)
    }

    /// The MVPDs a person may choose for `provider`: its active integrations, by display name.
    static func providerChoices(_ provider: SandboxServiceProvider) -> [SandboxMVPDConfig] {
        provider.mvpds.filter(\.integrationActive).sorted {
            $0.displayName.localizedCaseInsensitiveCompare($1.displayName) == .orderedAscending
        }
    }

    /// What the "signed in" page adds when the choice signed the TV in without a login.
    static func directSignInDetail(_ kind: ProfileKind?, mvpd: SandboxMVPDConfig) -> String? {
        switch kind {
        case .regular?, .appleSSO?: "The TV was already signed in with \(mvpd.displayName); no login was needed."
        case .serviceTokenSSO?, .platformSSO?:
            "You are already signed in with \(mvpd.displayName) in another application, so the TV is too; no login was needed."
        case .temporary?: "Temporary access has started; it lasts \(mvpd.authenticationTTL / 60) minutes on this TV."
        case .degraded?: "\(mvpd.displayName) cannot check accounts right now, so access was granted without a login."
        case nil: nil
        }
    }
}
