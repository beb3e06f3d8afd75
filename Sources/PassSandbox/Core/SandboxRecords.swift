import Foundation

/// A client registered through DCR with a software statement.
struct ClientRegistration: Sendable {
    let clientID: String
    let clientSecret: String
    let statement: String
    /// When the credentials stop working (the world's `registrationTTL`).
    let expiresAt: Date
}

/// An access token issued by `POST /o/client/token`.
struct AccessTokenGrant: Sendable {
    let clientID: String
    let statement: String
    let expiresAt: Date
}

/// Whose profiles these are: profiles belong to one registered client on one device for
/// one service provider (losing client credentials loses the profiles, as the DCR FAQ says).
struct ProfileOwner: Hashable, Sendable {
    let clientID: String
    let deviceID: String
    let serviceProvider: String
}

/// The profile `type` values REST API V2 documents.
enum ProfileKind: String, Sendable {
    case regular, appleSSO, platformSSO, serviceTokenSSO, temporary, degraded

    /// The profile `issuer`: the MVPD for a regular profile and for single sign-on through a
    /// platform identity or a service token, `Apple` for partner single sign-on, `Adobe`
    /// for temporary and degraded access.
    func issuer(mvpd: String) -> String {
        switch self {
        case .regular, .platformSSO, .serviceTokenSSO: mvpd
        case .appleSSO: "Apple"
        case .temporary, .degraded: "Adobe"
        }
    }

    /// The type of a profile shared through a token of `kind`.
    static func sharedThrough(_ kind: SandboxIdentityKind) -> ProfileKind {
        switch kind {
        case .serviceToken: .serviceTokenSSO
        case .platformIdentity: .platformSSO
        }
    }
}

/// A profile the sandbox keeps for an owner and MVPD.
struct StoredProfile: Sendable {
    let mvpd: String
    let kind: ProfileKind
    let notBefore: Date
    let notAfter: Date
    /// The MVPD user the profile belongs to (`nil` for temporary and degraded access).
    let username: String?
    /// The `userID` attribute.
    let userID: String
    let householdID: String?
    let zip: [String]?
    /// Set when Adobe Pass invalidated the profile server-side (`PassSandbox.invalidateProfiles`):
    /// it no longer counts, and requests relying on it are told `authenticated_profile_invalidated`.
    var invalidated = false
    /// The single sign-on profiles recorded when this profile was created by a login that
    /// presented identity tokens: a single logout with one of them deletes this profile too.
    var sharedAs: [SingleSignOnKey] = []

    func isValid(at now: Date) -> Bool { notBefore <= now && now < notAfter }
}

/// An authentication session created by `POST /sessions` (or a partner fallback),
/// identified by its code.
struct AuthenticationSession: Sendable {
    let code: String
    let sessionID: String
    let serviceProvider: String
    let clientID: String
    let deviceID: String?
    let deviceInfo: SandboxJSON?
    var mvpd: String?
    var domainName: String?
    var redirectUrl: String?
    let notBefore: Date
    let notAfter: Date
    /// Set once the user logged in at the MVPD login page (or the second screen's MVPD
    /// choice signed the device in without a login).
    var authenticated = false
    /// Set when a person typed the code on the second screen (`/activate`): the login then
    /// ends on a "go back to your TV" page instead of the application's redirect URL.
    var activatedOnSecondScreen = false
    /// The identity tokens verified when the session was created: they find single sign-on
    /// profiles for it, and the login it leads to is shared through them.
    var identities: [VerifiedIdentity] = []

    /// The parameters still needed, in the documented order.
    var missingParameters: [String] {
        var missing: [String] = []
        if mvpd == nil { missing.append("mvpd") }
        if domainName == nil { missing.append("domainName") }
        if redirectUrl == nil { missing.append("redirectUrl") }
        return missing
    }

    var owner: ProfileOwner? {
        deviceID.map { ProfileOwner(clientID: clientID, deviceID: $0, serviceProvider: serviceProvider) }
    }

    func isOpen(at now: Date) -> Bool { now < notAfter }
}

/// Whose single sign-on profile this is: an identity service's subject with one MVPD,
/// whatever the device or requestor.
struct SingleSignOnKey: Hashable, Sendable {
    let issuer: String
    let subject: String
    let mvpd: String
}

/// A profile shared through identity tokens: a copy of the profile a login created while
/// presenting a token (same user, same `notBefore` and `notAfter`), found by every
/// application that presents a token for the same subject and whose integration with the
/// MVPD has single sign-on enabled.
struct SingleSignOnRecord: Sendable {
    /// The shared profile as the applications that find it see it (`serviceTokenSSO` or
    /// `platformSSO`).
    var profile: StoredProfile
    /// Where logins created it: a single logout deletes their profiles too.
    var origins: Set<ProfileOwner>
}

/// A SAML request handed out in a `partner_profile` action, waiting for the partner
/// framework's SAML response.
struct PendingSAMLRequest: Sendable {
    let requestID: String
    let serviceProvider: String
    let mvpd: String
    let expiresAt: Date
}

/// Basic TempPass is counted per device, requestor and TempPass MVPD.
struct TempPassKey: Hashable, Sendable {
    let deviceID: String
    let serviceProvider: String
    let mvpd: String
}

/// A promotional TempPass trial: when its window started and which resources it has
/// authorized (each distinct resource spends one of the MVPD's `tempPassResourceLimit`).
struct PromotionalTrial: Sendable {
    let start: Date
    /// Distinct resource ids, in the order they were first authorized.
    var usedResources: [String] = []
}

/// Who a promotional trial belongs to: a user identity (the canonical JSON of the
/// `AP-TempPass-Identity` header) or a device, for one requestor and TempPass MVPD. A
/// trial is found by either, as Adobe's table says: a known identity on a new device, or
/// a new identity on a known device, continues the existing trial.
struct PromotionalTrialKey: Hashable, Sendable {
    enum Holder: Hashable, Sendable {
        case identity(String)
        case device(String)
    }
    let holder: Holder
    let serviceProvider: String
    let mvpd: String
}
