/// Which page a person is looking at. Every sandbox page names its kind in
/// `<main data-page="…">`, so programs (the simulated user agent, the tests) tell pages
/// apart without reading their prose.
enum SandboxPageKind: String, Sendable, CaseIterable {
    /// `/activate`: type the code shown on the TV.
    case activate
    /// `/activate` after a code whose session has no MVPD: choose the TV provider.
    case providerChoice = "provider-choice"
    /// The MVPD login form.
    case login
    /// Second screen done: signed in, go back to the TV.
    case signedIn = "signed-in"
    /// Signed in on this device; the application takes over: the body of the login's `302`
    /// to the redirect URL.
    case backToApplication = "back-to-application"
    /// Signed out at the MVPD: the body of the logout page's `302` to the redirect URL.
    case signedOut = "signed-out"
    /// A sign-in link that cannot be used (unknown, expired or already used code).
    case refused
    /// Any other failure (an injected fault, a request missing a parameter).
    case error
    /// `/checklist`: what the checklist monitor found.
    case checklist
    /// `/tv-provider`: type the code a device shows to sign it in to a TV provider.
    case householdCode = "tv-provider"
    /// `/tv-provider` after a code: choose the TV provider (or another one, or cancel).
    case householdChoice = "tv-provider-choice"
    /// `/tv-provider` after a choice: the provider's login form.
    case householdLogin = "tv-provider-login"
    /// `/tv-provider` done: the device is signed in.
    case householdSignedIn = "tv-provider-signed-in"
    /// `/tv-provider` ended without a sign-in: cancelled, another provider, or a provider
    /// only chosen.
    case householdEnded = "tv-provider-ended"

    /// The marker a page of this kind carries.
    var marker: String { "data-page=\"\(rawValue)\"" }

    /// The kind named in `html`'s `data-page` marker, if any.
    init?(html: String) {
        guard let start = html.range(of: "data-page=\"")?.upperBound,
            let end = html[start...].firstIndex(of: "\"")
        else { return nil }
        self.init(rawValue: String(html[start..<end]))
    }
}
