import Foundation

/// Decides whether the SDK may talk to a base URL: `https://` always; plain `http://` only
/// to this machine (loopback: `127.0.0.0/8`, `::1`, `localhost` and names under
/// `.localhost`), unless the configuration allows insecure HTTP for a test rig. Over plain
/// HTTP to another host, the client secret, the access token and every media token would
/// cross the network in clear.
struct TransportSecurityPolicy: Sendable {
    /// `AccessEnablerConfiguration.allowsInsecureHTTP`.
    let allowsInsecureHTTP: Bool

    /// Why the SDK refuses `url` (a sentence naming the URL and what to do), or `nil` when
    /// it may use it.
    func refusal(for url: URL, role: String) -> String? {
        guard url.scheme?.lowercased() == "http", !allowsInsecureHTTP, !Self.isLoopback(host: url.host ?? "") else {
            return nil
        }
        return
            "\(role) \(url.absoluteString) uses plain http:// to a host that is not this machine: the client secret and "
            + "access tokens would cross the network unencrypted. Use an https:// URL (plain http:// is accepted only for "
            + "loopback hosts), or, for a test rig on a trusted network, set AccessEnablerConfiguration.allowsInsecureHTTP."
    }

    /// Whether `host` names this machine: an IPv4 address in `127.0.0.0/8` (also IPv4-mapped
    /// in IPv6), `::1`, `localhost` or a name under `.localhost` (RFC 6761 keeps them on the
    /// loopback interface).
    static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name = String(name.dropLast()) }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        if name.hasPrefix("::ffff:") { name = String(name.dropFirst("::ffff:".count)) }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4,
            octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil })
        else { return false }
        return octets[0] == "127"
    }
}
