import Foundation

/// How `setRequestor(_:serviceProviders:)` reads a service provider as legacy apps wrote
/// them: the legacy SDK's constants (`https://sp.auth.adobe.com`, the documentation's
/// `http://sp.auth.adobe.com/`), or a bare host name.
///
/// - A host with no scheme is `https://host`.
/// - A host of Adobe Pass (`….auth.adobe.com`, `….auth-staging.adobe.com`) given with plain
///   `http://` is `https://`: Adobe Pass answers over TLS only.
/// - A trailing `/` is dropped, so `https://sp.auth.adobe.com/` is the same service provider
///   (and the same client registration) as ``AccessEnablerConfiguration/Environment/production``.
///
/// Anything else is taken as written; an address that is not an `http(s)` URL with a host
/// is `nil` (setRequestor reports CFG404).
enum ServiceProviderAddress {
    /// The base URL `text` names, or `nil`.
    static func url(_ text: String) -> URL? {
        var written = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !written.isEmpty else { return nil }
        if !written.contains("://") { written = "https://" + written }
        guard var components = URLComponents(string: written), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.host = host
        if scheme == "http", isAdobePass(host) { components.scheme = "https" }
        while components.path.hasSuffix("/") { components.path.removeLast() }
        return components.url
    }

    /// Whether `host` is one of Adobe Pass's own.
    static func isAdobePass(_ host: String) -> Bool {
        host.hasSuffix(".auth.adobe.com") || host.hasSuffix(".auth-staging.adobe.com")
    }
}
