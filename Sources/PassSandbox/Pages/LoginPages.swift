/// The pages of the MVPD's side of a sign-in: the login form, the page that hands over
/// to an application whose redirect URL a browser cannot open, the logout page, and the
/// refusal and error pages.
extension SandboxEngine {
    /// The MVPD login form, with the world's test users for that MVPD so a person can try it.
    /// `error` is shown above the form when the last attempt failed. `redirectURL`, where the
    /// sign-in hands over to the application, is announced when a browser cannot open it
    /// (a custom scheme): the person learns beforehand that the page will not change.
    static func loginForm(
        mvpd: SandboxMVPDConfig, requestorName: String?, code: String, error: String?, redirectURL: String? = nil
    ) -> String {
        let name = escape(mvpd.displayName)
        let errorLine = error.map { "<p class=\"error\" id=\"login-error\">\(escape($0))</p>\n" } ?? ""
        let purpose = requestorName.map { "<p class=\"lead\">to watch on \(escape($0))</p>\n" } ?? ""
        let users: String
        if mvpd.users.isEmpty {
            users = "<p>This TV provider has no test users in this sandbox's world.</p>"
        } else {
            users =
                "<table><tr><th>username</th><th>password</th></tr>\n"
                + mvpd.users.map { "<tr><td>\(escape($0.username))</td><td>\(escape($0.password))</td></tr>" }.joined(
                    separator: "\n")
                + "\n</table>"
        }
        var handOver = ""
        if let redirectURL, !isWebURL(redirectURL) {
            handOver = """
                <section class="note" id="after-sign-in">
                <h2>After you sign in</h2>
                <p>Signing in sends this browser back to the application at <code>\(escape(redirectURL))</code>, an address only \
                the application opens: a web view inside it hands over at once. A desktop browser cannot follow it, so it stays on \
                this page (or asks whether to open an application): you are then signed in, and the application takes over.</p>
                </section>

                """
        }
        return PageStyle.document(
            title: "Sign in to \(mvpd.displayName)", kind: .login,
            content: """
                <h1>Sign in to \(name)</h1>
                \(purpose)\(errorLine)<form method="post" action="\(escape(SandboxRoute.loginPath(mvpd: mvpd.id)))">
                <input type="hidden" name="code" value="\(escape(code))">
                <label for="username">Username</label>
                <input type="text" name="username" id="username" value="" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" required>
                <label for="password">Password</label>
                <input type="password" name="password" id="password" value="" autocomplete="current-password" required>
                <button type="submit" id="sign-in">Sign in</button>
                </form>
                \(handOver)<section class="note" id="test-users">
                <h2>Test users of \(name)</h2>
                \(users)
                </section>
                """)
    }

    /// Signed in on this device: the body of the `302` to the session's redirect URL, for a
    /// client that shows it instead of following the redirect (the link, `id="redirect-url"`,
    /// carries the URL).
    static func backToApplicationPage(mvpd: SandboxMVPDConfig, redirectURL: String) -> String {
        PageStyle.document(
            title: "Signed in to \(mvpd.displayName)", kind: .backToApplication, tone: "done",
            content: """
                <p class="mark" aria-hidden="true">✓</p>
                <h1>You're signed in to \(escape(mvpd.displayName))</h1>
                <p>The application takes over from here. If it did not come back by itself, return to it now.</p>
                <a class="button" id="redirect-url" href="\(escape(redirectURL))">Open the application</a>
                <p class="note">This answer redirects to <code>\(escape(redirectURL))</code>, the address the application asked to be called back at.</p>
                """)
    }

    /// Signed out at the MVPD: the body of the logout page's `302` to the redirect URL.
    static func signedOutPage(mvpdName: String?, redirectURL: String) -> String {
        let headline = mvpdName.map { "You're signed out of \(escape($0))" } ?? "You're signed out"
        return PageStyle.document(
            title: "Signed out", kind: .signedOut, tone: "done",
            content: """
                <p class="mark" aria-hidden="true">✓</p>
                <h1>\(headline)</h1>
                <p>The application takes over from here. If it did not come back by itself, return to it now.</p>
                <a class="button" id="redirect-url" href="\(escape(redirectURL))">Open the application</a>
                <p class="note">This answer redirects to <code>\(escape(redirectURL))</code>, the address the application asked to be called back at.</p>
                """)
    }

    /// A sign-in link that cannot be used, with what to do instead (`400`).
    static func refusalPage(_ refusal: SignInRefusal) -> SandboxResponse {
        .html(
            PageStyle.document(
                title: refusal.headline, kind: .refused, tone: "refused",
                content: """
                    <h1>\(escape(refusal.headline))</h1>
                    <p class="error" id="refusal">\(escape(refusal.message))</p>
                    <p>\(escape(refusal.advice))</p>
                    """), status: 400)
    }

    /// Any other failure of a page (an injected fault, a missing parameter).
    static func errorPage(_ message: String, status: Int) -> SandboxResponse {
        .html(
            PageStyle.document(
                title: "Something went wrong", kind: .error, tone: "failed",
                content: """
                    <h1>Something went wrong</h1>
                    <p class="error">\(escape(message))</p>
                    <p>Try again in a moment, or start again from the application.</p>
                    """), status: status)
    }
}
