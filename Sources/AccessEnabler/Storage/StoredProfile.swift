import Foundation

/// How a profile was obtained, as REST API V2 reports it.
enum StoredProfileType: String, Codable, Sendable, Equatable {
    /// Signed in with the MVPD through the browser flow.
    case regular
    /// Signed in through the device's TV-provider account (partner single sign-on).
    case appleSSO
    /// Degraded access granted while the MVPD is unavailable.
    case degraded
    /// TempPass or promotional TempPass.
    case temporary
    /// Shared through single sign-on with a service token (`AD-Service-Token`): a sign-in
    /// made in another app presenting a token of the same user.
    case serviceTokenSSO
    /// Shared through single sign-on with a platform identity (`Adobe-Subject-Token`).
    case platformSSO

    /// Whether the profile was shared through a single sign-on token.
    var isSharedThroughToken: Bool { self == .serviceTokenSSO || self == .platformSSO }
}

/// One user metadata value of a profile.
struct StoredAttribute: Codable, Sendable, Equatable {
    var value: JSONValue
    /// Whether the MVPD sent the value encrypted (the app receives it as is).
    var encrypted: Bool
}

/// The authenticated session of a requestor with one MVPD.
struct StoredProfile: Codable, Sendable, Equatable {
    var requestor: String
    var mvpd: String
    var type: StoredProfileType
    var notBefore: Date
    var notAfter: Date
    var attributes: [String: StoredAttribute]
    /// Who vouched for the sign-in: "Apple" for partner single sign-on, the identity
    /// service's issuer for a profile shared through a service token or platform identity.
    var tokenSource: String?
    /// The mapping id of the partner (device) sign-in the profile came from.
    var partnerProviderID: String?
    var serviceProviderURL: String?
    /// The TV provider the profile is with, as the configuration described it when the user
    /// chose it: what ``AccessEnabler/getSelectedProvider()`` answers after a relaunch, with no
    /// configuration asked. `nil` in files written before it was stored.
    var provider: StoredProvider? = nil

    /// How far ahead of the time it is judged at a profile's `notBefore` may be and the
    /// profile still count: HTTP dates carry whole seconds, and clocks drift, so a profile
    /// minted this second can look a moment early.
    static let notBeforeTolerance: TimeInterval = 300

    /// Where `date` stands against the profile's time window.
    enum Timing: Sendable, Equatable {
        /// In force: `notBefore - 300 s <= date < notAfter`.
        case inForce
        /// `notBefore` is more than ``StoredProfile/notBeforeTolerance`` ahead of `date`.
        case notValidYet
        /// `notAfter` has passed.
        case alreadyOver
    }

    /// Where `date` stands against the profile's time window (see ``Timing``).
    func timing(at date: Date) -> Timing {
        if date >= notAfter { return .alreadyOver }
        if notBefore.addingTimeInterval(-Self.notBeforeTolerance) > date { return .notValidYet }
        return .inForce
    }

    /// Whether the profile is in force at `date`: `notBefore - 300 s <= date < notAfter`.
    func isValid(at date: Date) -> Bool {
        timing(at: date) == .inForce
    }
}

extension StoredProfile: StoredValueValidating {
    var validationProblem: String? {
        if requestor.isEmpty { return "profile without requestor" }
        if mvpd.isEmpty { return "profile without MVPD" }
        if notAfter < notBefore { return "profile ends before it starts" }
        if let provider, provider.id != mvpd { return "profile with another MVPD's provider" }
        return nil
    }
}
