import Foundation

/// The partner framework's answer; mirrors `VSAccountMetadata`.
public struct PartnerAccountMetadata: Sendable, Equatable {
    /// `accountProviderIdentifier`: the provider mapping id the user is signed in with, or
    /// `nil` when nobody is signed in at system level.
    public var accountProviderIdentifier: String?
    /// `authenticationExpirationDate`: when the system-level sign-in ends.
    public var authenticationExpirationDate: Date?
    /// `samlAttributeQueryResponse` / `accountProviderResponse.body`: the SAML response to
    /// the request's `samlRequest`, when one was asked for.
    public var samlResponse: String?

    /// Creates metadata.
    public init(
        accountProviderIdentifier: String?, authenticationExpirationDate: Date? = nil, samlResponse: String? = nil
    ) {
        self.accountProviderIdentifier = accountProviderIdentifier
        self.authenticationExpirationDate = authenticationExpirationDate
        self.samlResponse = samlResponse
    }
}
