import Foundation

/// What the partner framework said at one moment, without prompting the user: the
/// permission and, when granted, who is signed in at system level.
struct PartnerSnapshot: Sendable, Equatable {
    var access: PartnerAccessResult
    /// The signed-in account, when permission is granted and the query succeeded.
    var account: PartnerAccountMetadata?
    /// The metadata query's failure, when it failed.
    var metadataError: PartnerFrameworkError?

    /// What a partner framework that did not answer the silent questions in time counts as:
    /// an error of the account service.
    static let timedOut = PartnerSnapshot(
        access: .error(code: "timeout", message: "The TV provider account service did not answer in time."),
        account: nil, metadataError: nil)

    /// The provider mapping id of the system-level account, expired or not, if permission
    /// is granted. The Apple SSO overview's TTL table keeps an Adobe profile valid after
    /// Apple's device token expired, as long as that account is still the one signed in.
    var accountProviderID: String? {
        guard access == .granted, let id = account?.accountProviderIdentifier, !id.isEmpty else { return nil }
        return id
    }

    /// The provider mapping id signed in at system level and not yet expired, if any.
    func signedInProvider(at now: Date) -> String? {
        guard access == .granted, let account, let id = account.accountProviderIdentifier, !id.isEmpty else {
            return nil
        }
        if let expiry = account.authenticationExpirationDate, expiry <= now { return nil }
        return id
    }
}

/// Builds the `AP-Partner-Framework-Status` value from partner answers, and only from
/// validated ones: permission granted, a provider mapping id present and known to the
/// requestor's configuration, and an expiration (when given) still in the future.
enum PartnerStatusValidation {
    static func validatedStatus(
        access: PartnerAccessResult, account: PartnerAccountMetadata?, knownMappingIDs: Set<String>, now: Date
    ) -> PartnerFrameworkStatus? {
        guard access == .granted, let account, let id = account.accountProviderIdentifier, knownMappingIDs.contains(id)
        else { return nil }
        if let expiry = account.authenticationExpirationDate, expiry <= now { return nil }
        return PartnerFrameworkStatus(
            accessStatus: access.wireValue, providerID: id, expirationDate: account.authenticationExpirationDate,
            error: nil)
    }
}
