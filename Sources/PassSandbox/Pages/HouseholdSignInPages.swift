/// The pages of the device-level TV provider sign-in (`/tv-provider`): the code, the
/// provider choice, the provider's login, and the endings.
extension SandboxEngine {
    /// The code form. `code` is what the person typed last (kept on an error).
    static func householdCodePage(code: String, error: String?) -> String {
        let errorLine = error.map { "<p class=\"error\" id=\"code-error\">\(escape($0))</p>\n" } ?? ""
        return PageStyle.document(
            title: "Sign your TV in to your TV provider", kind: .householdCode,
            content: """
                <h1>Sign your TV in to your TV provider</h1>
                <p class="lead">Type the code your TV shows. You sign in once: every app on the TV that you allow then \
                uses this sign-in.</p>
                \(errorLine)<form method="post" action="\(SandboxRoute.householdSignInPath)" id="tv-provider-code">
                <label for="code">Code</label>
                <input class="code" type="text" name="code" id="code" value="\(escape(code))" maxlength="32" \
                autocomplete="off" autocapitalize="characters" autocorrect="off" spellcheck="false" required autofocus>
                <button type="submit" id="continue">Continue</button>
                </form>
                """)
    }

    /// The provider choice: one button per provider, then "Other TV Provider" and "Cancel".
    static func householdChoicePage(code: String, providers: [HouseholdProvider], error: String?) -> String {
        let errorLine = error.map { "<p class=\"error\" id=\"choice-error\">\(escape($0))</p>\n" } ?? ""
        let buttons = providers.map {
            "<button type=\"submit\" class=\"choice\" name=\"choice\" "
                + "value=\"\(escape($0.id))\">\(escape($0.displayName))</button>"
        }
        let others = [
            "<button type=\"submit\" class=\"choice\" name=\"choice\" value=\"other\" id=\"other\">Other TV "
                + "Provider</button>",
            "<button type=\"submit\" class=\"choice\" name=\"choice\" value=\"cancel\" id=\"cancel\">Cancel</button>",
        ]
        return PageStyle.document(
            title: "Choose your TV provider", kind: .householdChoice,
            content: """
                <h1>Choose your TV provider</h1>
                <p class="lead">for this TV · code <code>\(escape(displayedHouseholdCode(code)))</code></p>
                \(errorLine)<form method="post" action="\(SandboxRoute.householdSignInPath)" id="tv-provider-choice">
                <input type="hidden" name="code" value="\(escape(code))">
                \((buttons + others).joined(separator: "\n"))
                </form>
                """)
    }

    /// The provider's login form, with its test users so a person can try it.
    static func householdLoginPage(code: String, provider: HouseholdProvider, users: [SandboxUser], error: String?)
        -> String
    {
        let name = escape(provider.displayName)
        let errorLine = error.map { "<p class=\"error\" id=\"login-error\">\(escape($0))</p>\n" } ?? ""
        let table =
            users.isEmpty
            ? "<p>This TV provider has no test users in this sandbox's world.</p>"
            : "<table><tr><th>username</th><th>password</th></tr>\n"
                + users.map { "<tr><td>\(escape($0.username))</td><td>\(escape($0.password))</td></tr>" }.joined(
                    separator: "\n")
                + "\n</table>"
        return PageStyle.document(
            title: "Sign in to \(provider.displayName)", kind: .householdLogin,
            content: """
                <h1>Sign in to \(name)</h1>
                <p class="lead">for this TV and every app on it that you allow</p>
                \(errorLine)<form method="post" action="\(SandboxRoute.householdSignInPath)" id="tv-provider-login">
                <input type="hidden" name="code" value="\(escape(code))">
                <input type="hidden" name="choice" value="\(escape(provider.id))">
                <label for="username">Username</label>
                <input type="text" name="username" id="username" value="" autocomplete="username" \
                autocapitalize="none" \
                autocorrect="off" spellcheck="false" required>
                <label for="password">Password</label>
                <input type="password" name="password" id="password" value="" autocomplete="current-password" required>
                <button type="submit" id="sign-in">Sign in</button>
                </form>
                <section class="note" id="test-users">
                <h2>Test users of \(name)</h2>
                \(table)
                </section>
                """)
    }

    /// The end of a sign-in: the TV is signed in to `provider`.
    static func householdSignedInPage(provider: HouseholdProvider) -> String {
        PageStyle.document(
            title: "Your TV is signed in", kind: .householdSignedIn, tone: "done",
            content: """
                <p class="mark" aria-hidden="true">✓</p>
                <h1>Your TV is signed in</h1>
                <p class="lead" id="signed-in-provider" data-provider="\(escape(provider.id))">to \
                \(escape(provider.displayName))</p>
                <p>Every app on the TV that you allow to use your TV provider now signs in by itself. To sign the TV \
                out, \
                use its TV provider settings.</p>
                <p><strong>Go back to your TV:</strong> it continues by itself within a few seconds. You can close \
                this page.</p>
                """)
    }

    /// The end of a sign-in without one: cancelled, or another provider chosen.
    static func householdEndedPage(headline: String, detail: String) -> String {
        PageStyle.document(
            title: headline, kind: .householdEnded,
            content: """
                <h1 id="ended">\(escape(headline))</h1>
                <p>\(escape(detail))</p>
                <p>You can close this page.</p>
                """)
    }
}
