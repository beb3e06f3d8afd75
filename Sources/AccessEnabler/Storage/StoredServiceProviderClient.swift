import Foundation

/// The DCR client and access token registered at one extra service provider
/// (`setRequestor(_:serviceProviders:)`), kept across launches like the configured
/// environment's: a profile belongs to the client it was obtained with, so a client
/// registered anew at each launch would lose the user's sign-in there.
struct StoredServiceProviderClient: Codable, Sendable, Equatable {
    /// The service provider's base URL.
    var baseURL: String
    var credentials: StoredClientCredentials?
    var accessToken: StoredAccessToken?
}

extension StoredServiceProviderClient: StoredValueValidating {
    var validationProblem: String? {
        if baseURL.isEmpty { return "service provider client without base URL" }
        return credentials?.validationProblem ?? accessToken?.validationProblem
    }
}
