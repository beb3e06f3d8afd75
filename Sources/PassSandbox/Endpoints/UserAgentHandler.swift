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
    /// - any other answers `302` to the session's redirect URL, whatever its scheme
    ///   (`adobepass://…` included) and whatever the client accepts, as Adobe Pass does: a web
    ///   view that watches its navigations catches it with no tap. The body of that answer
    ///   is a short page saying where the browser is being sent, for a client that shows it.
    ///   A desktop browser cannot open a custom scheme, so the form says beforehand what
    ///   will happen.
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
        guard let provider = world.serviceProvider(session.serviceProvider), let mvpd = provider.mvpd(mvpdID),
            mvpd.integrationActive
        else {
            return Self.refusalPage(.providerUnavailable(mvpdID))
        }
        guard let redirectUrl = session.redirectUrl, let owner = session.owner else {
            return Self.refusalPage(.incomplete(session.code))
        }
        // Where the sign-in ends, when it ends in the application rather than on a page.
        let handOver = session.activatedOnSecondScreen ? nil : redirectUrl
        guard isPost else {
            return .html(
                Self.loginForm(
                    mvpd: mvpd, requestorName: provider.name, code: session.code, error: nil, redirectURL: handOver))
        }
        guard let user = mvpd.user(form["username"] ?? ""), user.password == form["password"] else {
            return .html(
                Self.loginForm(
                    mvpd: mvpd, requestorName: provider.name, code: session.code,
                    error: "The username or password is incorrect.", redirectURL: handOver))
        }
        storeLoginProfile(.regular, owner: owner, mvpd: mvpd, user: user, identities: session.identities, now: now)
        sessions[session.code]?.authenticated = true
        if session.activatedOnSecondScreen {
            return .html(Self.signedInPage(mvpd: mvpd, detail: nil))
        }
        return .redirect(to: redirectUrl, page: Self.backToApplicationPage(mvpd: mvpd, redirectURL: redirectUrl))
    }

    /// The MVPD logout page a `logout` action opens: `302` to its `redirect_url`, whatever
    /// its scheme and whatever the client accepts (a hidden web view completes the logout
    /// with no tap), with a short "signed out" page as the body.
    func mvpdLogoutPage(_ request: SandboxRequest) -> SandboxResponse {
        guard let target = request.queryValue("redirect_url"), !target.isEmpty else {
            return Self.errorPage("The logout request has no redirect URL.", status: 400)
        }
        observed.openedLogoutPage = ObservedFacts.logoutPageKey(
            mvpd: request.queryValue("mso_id") ?? "", serviceProvider: request.queryValue("requestor_id") ?? "",
            redirect: target)
        let mvpdName = request.queryValue("mso_id").flatMap { id in
            world.serviceProvider(request.queryValue("requestor_id") ?? "")?.mvpd(id)?.displayName ?? id
        }
        return .redirect(to: target, page: Self.signedOutPage(mvpdName: mvpdName, redirectURL: target))
    }

    // MARK: Shared by the pages

    /// The session with `code` a page may continue (for `serviceProvider`, when given), or
    /// why not: unknown, expired, or already signed in.
    func sessionForPage(code: String, serviceProvider: String?, now: Date) -> Result<
        AuthenticationSession, SignInRefusal
    > {
        guard let session = sessions[code], serviceProvider == nil || session.serviceProvider == serviceProvider else {
            return .failure(.unknownCode(code))
        }
        guard session.isOpen(at: now) else {
            return .failure(.expired(code, lifetime: session.notAfter.timeIntervalSince(session.notBefore)))
        }
        guard !session.authenticated else { return .failure(.alreadyUsed(code)) }
        return .success(session)
    }

    /// `true` for an `http` or `https` URL, which a browser follows.
    static func isWebURL(_ text: String) -> Bool {
        guard let scheme = URL(string: text)?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }
}
