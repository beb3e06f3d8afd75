import Foundation

/// Decides whether a URL handed to `handleExternalURL` is the configured redirect URL (or
/// below it), so that only our own redirects complete a flow.
struct RedirectURLMatcher: Sendable {
    let redirectURL: String

    /// `true` when `candidate` has the redirect URL's scheme, host and port, no user
    /// information the redirect URL does not have (`adobepass://evil@ios.app`), and a path
    /// at or below the redirect URL's path. Scheme and host compare case-insensitively; a
    /// port is equal to the scheme's default when either side leaves it out.
    func matches(_ candidate: String) -> Bool {
        guard let expected = URLComponents(string: redirectURL),
            let actual = URLComponents(string: candidate.trimmingCharacters(in: .whitespaces)),
            let expectedScheme = expected.scheme, let actualScheme = actual.scheme
        else { return false }
        guard expectedScheme.lowercased() == actualScheme.lowercased(),
            (expected.host ?? "").lowercased() == (actual.host ?? "").lowercased(),
            actual.user == expected.user, actual.password == expected.password,
            Self.port(of: actual) == Self.port(of: expected)
        else { return false }
        let expectedPath = expected.path.hasSuffix("/") ? String(expected.path.dropLast()) : expected.path
        return expectedPath.isEmpty || actual.path == expectedPath || actual.path.hasPrefix(expectedPath + "/")
    }

    /// The port, or the scheme's default one (http 80, https 443; none for custom schemes).
    private static func port(of url: URLComponents) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
