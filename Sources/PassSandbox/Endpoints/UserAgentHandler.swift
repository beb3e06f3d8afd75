import Foundation

/// The pages a user agent (browser) visits on the application's own device: the
/// authenticate URL, the MVPD login page and the MVPD logout page. Every answer is a page
/// a browser can show; refusals say why in words a person can act on.
extension SandboxEngine {
    /// `GET /api/v2/authenticate/{sp}/{code}`: `302` to the MVPD login page of the session;
    /// a refusal page (`400`) for an unknown, expired or already used code.
    func startAuthentication(serviceProvider: String, code: String, now: Date) -> SandboxResponse {
        let session: AuthenticationSession
        switch sessionForPage(code: code, serviceProvider: serviceProvider, now: now) {
        case .failure(let refusal): return Self.refusalPage(refusal)
        case .success(let found): session = found
        }
        guard let mvpd = session.mvpd, session.redirectUrl != nil else {
            return Self.refusalPage(.incomplete(session.code))
        }
        return .redirect(to: absoluteURL(SandboxRoute.loginPath(mvpd: mvpd) + "?code=" + Self.formEncode(session.code)))
    }

    /// The MVPD login page: `GET` shows the form, `POST` checks `username`/`password`.
    ///
    /// Correct credentials create a `regular` profile for the session's device (shared
    /// through the identity tokens the session was created with), then:
    /// - a session activated on the second screen ends on the "go back to your TV" page;
    /// - a web redirect URL (`http`, `https`), or a client that did not ask for HTML (the
    ///   SDK's user agents, scripts), gets `302` to the session's redirect URL;
    /// - a browser facing a custom-scheme redirect URL it cannot open gets a page saying
    ///   the application takes over, the URL in its `id="redirect-url"` link.
    ///
    /// Wrong credentials show the form again with an error.
    func loginPage(_ request: SandboxRequest, mvpd mvpdID: String, now: Date) -> SandboxResponse {
        let isPost = request.method.uppercased() == "POST"
        let form = isPost ? formParameters(request) : [:]
        let code = form["code"] ?? request.queryValue("code") ?? ""
        let session: AuthenticationSession
        switch sessionForPage(code: code, serviceProvider: nil, now: now) {
        case .failure(let refusal): return Self.refusalPage(refusal)
        case .success(let found): session = found
        }
        guard session.mvpd == mvpdID else { return Self.refusalPage(.unknownCode(session.code)) }
        guard let provider = world.serviceProvider(session.serviceProvider), let mvpd = provider.mvpd(mvpdID), mvpd.integrationActive else {
            return Self.refusalPage(.providerUnavailable(mvpdID))
        }
        guard let redirectUrl = session.redirectUrl, let owner = session.owner else {
            return Self.refusalPage(.incomplete(session.code))
        }
        guard isPost else {
            return .html(Self.loginForm(mvpd: mvpd, requestorName: provider.name, code: session.code, error: nil))
        }
        guard let user = mvpd.user(form["username"] ?? ""), user.password == form["password"] else {
            return .html(Self.loginForm(mvpd: mvpd, requestorName: provider.name, code: session.code, error: "The username or password is incorrect."))
        }
        storeLoginProfile(.regular, owner: owner, mvpd: mvpd, user: user, identities: session.identities, now: now)
        sessions[session.code]?.authenticated = true
        if session.activatedOnSecondScreen {
            return .html(Self.signedInPage(mvpd: mvpd, detail: nil))
        }
        if Self.isWebURL(redirectUrl) || !Self.asksForPage(request) {
            return .redirect(to: redirectUrl)
        }
        return .html(Self.backToApplicationPage(mvpd: mvpd, redirectURL: redirectUrl))
    }

    /// The MVPD logout page a `logout` action opens: `302` to its `redirect_url`, or, for a
    /// browser facing a custom-scheme redirect URL, a "signed out" page carrying it.
    func mvpdLogoutPage(_ request: SandboxRequest) -> SandboxResponse {
        guard let target = request.queryValue("redirect_url"), !target.isEmpty else {
            return Self.errorPage("The logout request has no redirect URL.", status: 400)
        }
        if Self.isWebURL(target) || !Self.asksForPage(request) {
            return .redirect(to: target)
        }
        let mvpdName = request.queryValue("mso_id").flatMap { id in
            world.serviceProvider(request.queryValue("requestor_id") ?? "")?.mvpd(id)?.displayName ?? id
        }
        return .html(Self.signedOutPage(mvpdName: mvpdName, redirectURL: target))
    }

    // MARK: Shared by the pages

    /// The session with `code` a page may continue (for `serviceProvider`, when given), or
    /// why not: unknown, expired, or already signed in.
    func sessionForPage(code: String, serviceProvider: String?, now: Date) -> Result<AuthenticationSession, SignInRefusal> {
        guard let session = sessions[code], serviceProvider == nil || session.serviceProvider == serviceProvider else {
            return .failure(.unknownCode(code))
        }
        guard session.isOpen(at: now) else { return .failure(.expired(code)) }
        guard !session.authenticated else { return .failure(.alreadyUsed(code)) }
        return .success(session)
    }

    /// `true` for an `http` or `https` URL, which a browser follows.
    static func isWebURL(_ text: String) -> Bool {
        guard let scheme = URL(string: text)?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// `true` when the client asked for an HTML page (`Accept: text/html`), as every browser
    /// does when it navigates; the SDK's user agents and scripts do not.
    static func asksForPage(_ request: SandboxRequest) -> Bool {
        request.header("Accept")?.lowercased().contains("text/html") == true
    }
}
