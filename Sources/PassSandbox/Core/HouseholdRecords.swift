import Foundation

/// A device's request to sign its household in to a TV provider (the sandbox's TV provider
/// identity service, RFC 8628's device authorization): a secret `deviceCode` the device
/// polls with, and the short `userCode` a person types on the sign-in page.
struct HouseholdSignInRequest: Sendable {
    /// What the person did on the sign-in page, once they did it.
    enum Outcome: Sendable, Equatable {
        /// Signed in to the provider (mapping id) as the MVPD user `username`.
        case signedIn(provider: String, username: String)
        /// Chose a provider the platform lists but has not boarded for single sign-on: the
        /// device learns the choice, and no sign-in is kept.
        case chosenOnly(provider: String)
        /// Chose "Other TV Provider".
        case otherProvider
        /// Cancelled on the page.
        case cancelled
    }

    let deviceCode: String
    let userCode: String
    /// The provider mapping ids the page offers, in order (empty: every provider of the platform).
    let supported: [String]
    /// The mapping ids shown first.
    let featured: [String]
    let expiresAt: Date
    var outcome: Outcome?
}

/// A household sign-in the identity service issued: what its bearer credential vouches for.
struct HouseholdCredential: Sendable {
    /// The provider mapping id.
    let provider: String
    /// The MVPD user signed in.
    let username: String
    let expiresAt: Date
}

/// A TV provider as the platform's sign-in page shows it: one per platform mapping id.
struct HouseholdProvider: Sendable, Equatable {
    /// The platform mapping id.
    let id: String
    let displayName: String
    /// `true` when some MVPD with this mapping id is boarded for single sign-on
    /// (`boardingStatus` SUPPORTED), or none says otherwise.
    let boarded: Bool
}
