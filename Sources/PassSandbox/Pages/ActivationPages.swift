/// The second screen's own pages: type the code shown on the TV, choose the TV provider
/// when the TV did not, and the final "go back to your TV" page.
extension SandboxEngine {
    /// The activation form. `code` is what the person typed last (kept on an error).
    static func activationPage(code: String, error: String?) -> String {
        let errorLine = error.map { "<p class=\"error\" id=\"activation-error\">\(escape($0))</p>\n" } ?? ""
        return PageStyle.document(
            title: "Activate your TV", kind: .activate,
            content: """
                <h1>Activate your TV</h1>
                <p class="lead">Type the code shown on your TV. You then sign in with your TV provider, and the TV continues by itself.</p>
                \(errorLine)<form method="post" action="\(SandboxRoute.activatePath)" id="activate-form">
                <label for="code">Code</label>
                <input class="code" type="text" name="code" id="code" value="\(escape(code))" maxlength="32" autocomplete="off" autocapitalize="characters" autocorrect="off" spellcheck="false" required autofocus>
                <button type="submit" id="continue">Continue</button>
                </form>
                """)
    }

    /// The TV provider choice for a session without an MVPD: one button per active MVPD of
    /// the requestor, labelled with its display name.
    static func providerChoicePage(code: String, requestorName: String, mvpds: [SandboxMVPDConfig], error: String?)
        -> String
    {
        let errorLine = error.map { "<p class=\"error\" id=\"choice-error\">\(escape($0))</p>\n" } ?? ""
        let buttons = mvpds.map {
            "<button type=\"submit\" class=\"choice\" name=\"mvpd\" value=\"\(escape($0.id))\">\(escape($0.displayName))</button>"
        }.joined(separator: "\n")
        return PageStyle.document(
            title: "Choose your TV provider", kind: .providerChoice,
            content: """
                <h1>Choose your TV provider</h1>
                <p class="lead">to watch on \(escape(requestorName)) · code <code>\(escape(code))</code></p>
                \(errorLine)<form method="post" action="\(SandboxRoute.activatePath)" id="provider-choice">
                <input type="hidden" name="code" value="\(escape(code))">
                \(buttons)
                </form>
                """)
    }

    /// The end of the second screen: the TV's session is signed in with `mvpd`.
    /// `detail` adds how, when no login was needed (an existing, temporary or degraded access).
    static func signedInPage(mvpd: SandboxMVPDConfig, detail: String?) -> String {
        let detailLine = detail.map { "<p>\(escape($0))</p>\n" } ?? ""
        return PageStyle.document(
            title: "You're signed in", kind: .signedIn, tone: "done",
            content: """
                <p class="mark" aria-hidden="true">✓</p>
                <h1>You're signed in</h1>
                <p class="lead" id="signed-in-provider" data-mvpd="\(escape(mvpd.id))">with \(escape(mvpd.displayName))</p>
                \(detailLine)<p><strong>Go back to your TV:</strong> it continues by itself within a few seconds. You can close this page.</p>
                """)
    }
}
