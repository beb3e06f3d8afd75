import Foundation

/// The single sign-on tokens one request presents: the app's service token
/// (`AD-Service-Token`) and the platform identity (`Adobe-Subject-Token`), each a compact JWS.
struct SingleSignOnTokens: Sendable, Equatable {
    /// Sent as `AD-Service-Token`.
    var serviceToken: String?
    /// Sent as `Adobe-Subject-Token`.
    var platformIdentity: String?

    /// No token at all.
    static let none = SingleSignOnTokens()

    /// The issuer (`iss`) of the token a profile of `type` was shared through: a
    /// `serviceTokenSSO` profile came through the service token, a `platformSSO` one through
    /// the platform identity. Read from the token's payload without verifying it (Adobe Pass
    /// verified it); `nil` for other types or an unreadable token.
    func issuer(forProfileType type: String) -> String? {
        switch type {
        case "serviceTokenSSO": serviceToken.flatMap(Self.issuer(ofJWS:))
        case "platformSSO": platformIdentity.flatMap(Self.issuer(ofJWS:))
        default: nil
        }
    }

    /// The `iss` claim of a compact JWS, `nil` when it has none or is not one.
    static func issuer(ofJWS token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let issuer = claims["iss"] as? String, !issuer.isEmpty
        else { return nil }
        return issuer
    }
}

/// Where the tokens come from: the configuration's providers, asked before each request
/// that carries them (the app caches its tokens; a renewed one is used at once).
struct SingleSignOnTokenSource: Sendable {
    /// ``AccessEnablerConfiguration/serviceToken``.
    var serviceToken: (@Sendable () async -> String?)?
    /// ``AccessEnablerConfiguration/platformIdentity``.
    var platformIdentity: (@Sendable () async -> String?)?

    /// No providers: requests carry no token.
    static let none = SingleSignOnTokenSource()

    /// Whether any provider is configured.
    var isConfigured: Bool { serviceToken != nil || platformIdentity != nil }

    /// The tokens now, as the providers gave them: `nil` is none; an empty one is kept, for
    /// the headers to refuse (it cannot be a header value, and is never dropped silently).
    func current() async -> SingleSignOnTokens {
        guard isConfigured else { return .none }
        async let service = serviceToken?()
        async let platform = platformIdentity?()
        let (serviceValue, platformValue) = await (service, platform)
        return SingleSignOnTokens(serviceToken: serviceValue, platformIdentity: platformValue)
    }
}
