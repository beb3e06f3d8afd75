import Foundation

/// Decides whether a URL handed to `handleExternalURL` is the configured redirect URL (or
/// below it), so that only our own redirects complete a flow.
struct RedirectURLMatcher: Sendable {
    let redirectURL: String

    /// `true` when `candidate` has the redirect URL's scheme and host, and its path starts
    /// with the redirect URL's path. Scheme and host compare case-insensitively.
    func matches(_ candidate: String) -> Bool {
        guard let expected = URLComponents(string: redirectURL),
              let actual = URLComponents(string: candidate.trimmingCharacters(in: .whitespaces)),
              let expectedScheme = expected.scheme, let actualScheme = actual.scheme
        else { return false }
        guard expectedScheme.lowercased() == actualScheme.lowercased(),
              (expected.host ?? "").lowercased() == (actual.host ?? "").lowercased()
        else { return false }
        let expectedPath = expected.path.hasSuffix("/") ? String(expected.path.dropLast()) : expected.path
        return expectedPath.isEmpty || actual.path == expectedPath || actual.path.hasPrefix(expectedPath + "/")
    }
}
