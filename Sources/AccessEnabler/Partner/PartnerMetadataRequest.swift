import Foundation

/// What the SDK asks of the partner framework; mirrors `VSAccountMetadataRequest`.
public struct PartnerMetadataRequest: Sendable, Equatable {
    /// `isInterruptionAllowed`: may the framework show UI (picker, MVPD login)? `false` for
    /// status checks and decisions, `true` inside getAuthentication.
    public var isInterruptionAllowed: Bool
    /// `includeAccountProviderIdentifier`.
    public var includeAccountProviderIdentifier: Bool
    /// `includeAuthenticationExpirationDate`.
    public var includeAuthenticationExpirationDate: Bool
    /// `supportedAccountProviderIdentifiers`: the provider mapping ids the picker may show, in order.
    public var supportedAccountProviderIdentifiers: [String]
    /// `featuredAccountProviderIdentifiers`: the mapping ids shown first.
    public var featuredAccountProviderIdentifiers: [String]
    /// `verificationToken` / SAML request issued by Adobe Pass, when a SAML response is wanted.
    public var samlRequest: String?
    /// `attributeNames` to return.
    public var attributeNames: [String]

    /// Creates a request.
    public init(
        isInterruptionAllowed: Bool,
        includeAccountProviderIdentifier: Bool = true,
        includeAuthenticationExpirationDate: Bool = true,
        supportedAccountProviderIdentifiers: [String] = [],
        featuredAccountProviderIdentifiers: [String] = [],
        samlRequest: String? = nil,
        attributeNames: [String] = []
    ) {
        self.isInterruptionAllowed = isInterruptionAllowed
        self.includeAccountProviderIdentifier = includeAccountProviderIdentifier
        self.includeAuthenticationExpirationDate = includeAuthenticationExpirationDate
        self.supportedAccountProviderIdentifiers = supportedAccountProviderIdentifiers
        self.featuredAccountProviderIdentifiers = featuredAccountProviderIdentifiers
        self.samlRequest = samlRequest
        self.attributeNames = attributeNames
    }
}
