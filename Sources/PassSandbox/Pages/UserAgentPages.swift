import Foundation

/// The pages a user agent (browser) visits: the authenticate URL, the MVPD login page
/// and the MVPD logout page. Errors here are HTML, as for a browser.
extension SandboxEngine {
    /// `GET /api/v2/authenticate/{sp}/{code}`: `302` to the MVPD login page of the session.
    func startAuthentication(serviceProvider: String, code: String, now: Date) -> SandboxResponse {
        guard let session = try? openSession(code: code, serviceProvider: serviceProvider, now: now) else {
            return Self.errorPage("The authentication session is missing or has expired.", status: 400)
        }
        guard let mvpd = session.mvpd, session.redirectUrl != nil else {
            return Self.errorPage("The authentication session misses parameters; resume it first.", status: 400)
        }
        return .redirect(to: absoluteURL(SandboxRoute.loginPath(mvpd: mvpd) + "?code=" + Self.formEncode(code)))
    }

    /// The MVPD login page: `GET` shows the form, `POST` checks `username`/`password`,
    /// creates a `regular` profile for the session's device and redirects to the session's
    /// redirect URL; wrong credentials show the form again with an error.
    func loginPage(_ request: SandboxRequest, mvpd mvpdID: String, now: Date) -> SandboxResponse {
        let form = request.method.uppercased() == "POST" ? formParameters(request) : [:]
        let code = form["code"] ?? request.queryValue("code") ?? ""
        guard let session = sessions[code], session.isOpen(at: now), session.mvpd == mvpdID,
              let provider = world.serviceProvider(session.serviceProvider), let mvpd = provider.mvpd(mvpdID), mvpd.integrationActive,
              let redirectUrl = session.redirectUrl, let owner = session.owner
        else {
            return Self.errorPage("The authentication session is missing or has expired.", status: 400)
        }
        guard request.method.uppercased() == "POST" else {
            return .html(Self.loginForm(mvpd: mvpd, code: code, error: nil))
        }
        guard let user = mvpd.user(form["username"] ?? ""), user.password == form["password"] else {
            return .html(Self.loginForm(mvpd: mvpd, code: code, error: "The username or password is incorrect."))
        }
        storeUserProfile(.regular, owner: owner, mvpd: mvpd, user: user, now: now)
        sessions[code]?.authenticated = true
        return .redirect(to: redirectUrl)
    }

    /// The MVPD logout page a `logout` action opens: `302` to its `redirect_url`.
    func mvpdLogoutPage(_ request: SandboxRequest) -> SandboxResponse {
        guard let target = request.queryValue("redirect_url"), !target.isEmpty else {
            return Self.errorPage("The logout request has no redirect URL.", status: 400)
        }
        return .redirect(to: target)
    }

    // MARK: HTML

    static func loginForm(mvpd: SandboxMVPDConfig, code: String, error: String?) -> String {
        let errorLine = error.map { "<p class=\"error\" id=\"login-error\">\(escape($0))</p>\n" } ?? ""
        return """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>Sign in to \(escape(mvpd.displayName))</title></head>
        <body>
        <h1>Sign in to \(escape(mvpd.displayName))</h1>
        \(errorLine)<form method="post" action="\(escape(SandboxRoute.loginPath(mvpd: mvpd.id)))">
        <input type="hidden" name="code" value="\(escape(code))">
        <label>Username <input type="text" name="username" value=""></label>
        <label>Password <input type="password" name="password" value=""></label>
        <button type="submit">Sign in</button>
        </form>
        </body></html>
        """
    }

    static func errorPage(_ message: String, status: Int) -> SandboxResponse {
        .html("<!DOCTYPE html>\n<html><head><title>Error</title></head><body><p class=\"error\">\(escape(message))</p></body></html>", status: status)
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes a query or form value (everything but unreserved characters).
    static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
