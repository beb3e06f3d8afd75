import Foundation

/// A household sign-in the TV provider's identity service opened: the code for the person,
/// and the secret the service polls with.
package struct IssuedSignInCode: Sendable, Equatable, CustomReflectable {
    /// What the person types, where, and until when.
    package var code: SignInCode
    /// The identity service's `device_code` (a secret).
    package var deviceCode: String
    /// Seconds between two polls.
    package var interval: TimeInterval

    package init(code: SignInCode, deviceCode: String, interval: TimeInterval) {
        self.code = code
        self.deviceCode = deviceCode
        self.interval = interval
    }

    /// Everything but the device code.
    package var customMirror: Mirror {
        Mirror(self, children: ["code": code, "deviceCode": "<redacted>", "interval": interval])
    }
}

/// What a poll of the household sign-in found.
package enum HouseholdPollOutcome: Sendable, Equatable {
    /// Nobody has finished yet.
    case pending
    /// The household signed in.
    case signedIn(HouseholdSignIn)
    /// The person chose a provider the platform does not board for single sign-on: the app
    /// learns the choice, no sign-in is kept.
    case chosenOnly(provider: String)
    /// The person chose "Other TV Provider".
    case otherProvider
    /// The person cancelled.
    case cancelled
    /// The code expired unused.
    case expired
}

/// Why the TV provider's identity service did not give what was asked.
package enum IdentityProviderFailure: Error, Sendable, Equatable {
    /// It could not be reached, or answered with a server error.
    case unreachable(String)
    /// Its answer could not be read.
    case badAnswer(String)
    /// It no longer accepts the household's credential (revoked, expired, unknown).
    case refusedCredential
    /// The SAML request is not one Adobe Pass issued, or it expired.
    case unknownSAMLRequest
    /// The provider refused to answer for this app (the household is not its subscriber).
    case providerRejected(String)

    /// A sentence for logs and answers.
    package var message: String {
        switch self {
        case .unreachable(let reason): "The TV provider's sign-in service could not be reached: \(reason)"
        case .badAnswer(let reason): "The TV provider's sign-in service answered something unreadable: \(reason)"
        case .refusedCredential: "The TV provider no longer accepts this device's sign-in. Sign the device in again."
        case .unknownSAMLRequest: "The TV provider did not accept Adobe Pass's SAML request (unknown or expired)."
        case .providerRejected(let reason): reason
        }
    }
}
