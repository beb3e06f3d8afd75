import Foundation

extension PartnerAccountMetadata: CustomReflectable {
    /// The provider and the expiry; the SAML response (a sign-in's proof) is shown as hidden.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accountProviderIdentifier": accountProviderIdentifier as Any,
                "authenticationExpirationDate": authenticationExpirationDate as Any,
                "samlResponse": HiddenSecret(samlResponse),
            ],
            displayStyle: .struct)
    }
}
