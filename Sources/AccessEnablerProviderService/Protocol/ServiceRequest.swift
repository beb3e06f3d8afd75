import Foundation

/// One request of the line protocol, read and checked (the format is in
/// Docs/ProviderService.md): what an app or an administrator asks the service.
package enum ServiceRequest: Sendable, Equatable {
    /// What `accountMetadata` asks: Video Subscriber Account's account metadata request.
    package struct MetadataQuestion: Sendable, Equatable {
        /// May the service interrupt the person (start the household sign-in and wait)?
        package var isInterruptionAllowed: Bool
        /// Answer the provider's mapping id.
        package var includeAccountProviderIdentifier: Bool
        /// Answer when the sign-in ends.
        package var includeAuthenticationExpirationDate: Bool
        /// The mapping ids the app supports, in its order (the sign-in page offers these).
        package var supportedAccountProviderIdentifiers: [String]
        /// The mapping ids shown first.
        package var featuredAccountProviderIdentifiers: [String]
        /// Adobe Pass's SAML request, when the app wants a SAML response.
        package var samlRequest: String?
        /// SAML attribute names the app asks for.
        package var attributeNames: [String]
        /// How long the app waits for the person, in seconds (interactive requests only).
        package var waitSeconds: Double?

        /// A question; the defaults are the app's usual silent read.
        package init(
            isInterruptionAllowed: Bool = false, includeAccountProviderIdentifier: Bool = true,
            includeAuthenticationExpirationDate: Bool = true,
            supportedAccountProviderIdentifiers: [String] = [], featuredAccountProviderIdentifiers: [String] = [],
            samlRequest: String? = nil,
            attributeNames: [String] = [], waitSeconds: Double? = nil
        ) {
            self.isInterruptionAllowed = isInterruptionAllowed
            self.includeAccountProviderIdentifier = includeAccountProviderIdentifier
            self.includeAuthenticationExpirationDate = includeAuthenticationExpirationDate
            self.supportedAccountProviderIdentifiers = supportedAccountProviderIdentifiers
            self.featuredAccountProviderIdentifiers = featuredAccountProviderIdentifiers
            self.samlRequest = samlRequest
            self.attributeNames = attributeNames
            self.waitSeconds = waitSeconds
        }
    }

    /// What an administrator changes about an app's permission.
    package enum PermissionChange: String, Sendable, Equatable, CaseIterable {
        /// `grant`: the app may use the sign-in.
        case grant
        /// `deny`: it may not.
        case deny
        /// `restrict`: it may not ask (parental controls).
        case restrict
        /// `reset`: nobody has answered (the next prompt asks again).
        case reset

        /// The permission the change leaves.
        package var permission: AppPermission {
            switch self {
            case .grant: .granted
            case .deny: .denied
            case .restrict: .restricted
            case .reset: .notDetermined
            }
        }
    }

    /// `hello`: the service's name and protocol version.
    case hello
    /// `accessStatus`: the app's permission; `prompt` lets the service ask the person.
    case accessStatus(AppIdentity, prompt: Bool)
    /// `accountMetadata`: the household's sign-in, for a permitted app.
    case accountMetadata(AppIdentity, MetadataQuestion)
    /// `subscribe`: this connection receives events from now on.
    case subscribe
    /// `status` (administrator): the sign-in, a sign-in under way, every app's permission.
    case status
    /// `grant`, `deny`, `restrict`, `reset` (administrator).
    case changePermission(AppIdentity, PermissionChange)
    /// `signIn` (administrator): start the household sign-in (answers its code at once).
    case signIn(supported: [String], featured: [String])
    /// `signOut` (administrator): "Settings → TV Provider → Sign Out".
    case signOut

    /// `true` for the operations only an administrator may ask.
    package var needsAdministrator: Bool {
        switch self {
        case .status, .changePermission, .signIn, .signOut: true
        case .hello, .accessStatus, .accountMetadata, .subscribe: false
        }
    }
}

/// The id a request carries, echoed in its answer as it was written: a string or an integer.
package enum RequestID: Hashable, Sendable {
    /// `"id": "7"`.
    case string(String)
    /// `"id": 7`.
    case number(Int64)
}
