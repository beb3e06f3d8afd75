import Foundation

/// The household's sign-in to a TV provider, as the service keeps it: the provider, when
/// the sign-in ends, and the credential the provider's identity service issued, with which
/// the service answers Adobe Pass's SAML requests. The credential is a secret: it appears
/// in no log, no answer and no `dump()`.
package struct HouseholdSignIn: Sendable, Equatable, CustomReflectable {
    /// The provider's platform mapping id (what `accountProviderIdentifier` answers).
    package var provider: String
    /// The provider's name as people read it.
    package var providerName: String
    /// When the sign-in ends.
    package var expiresAt: Date
    /// The bearer credential of the provider's identity service.
    package var credential: String

    /// A sign-in.
    package init(provider: String, providerName: String, expiresAt: Date, credential: String) {
        self.provider = provider
        self.providerName = providerName
        self.expiresAt = expiresAt
        self.credential = credential
    }

    /// Everything but the credential.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "provider": provider, "providerName": providerName, "expiresAt": expiresAt, "credential": "<redacted>",
            ])
    }

    /// `true` while the sign-in lasts.
    package func isValid(at now: Date) -> Bool { now < expiresAt }
}
