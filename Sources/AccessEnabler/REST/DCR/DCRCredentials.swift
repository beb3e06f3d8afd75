import Foundation
import Synchronization

/// The client credentials Dynamic Client Registration issued for a software statement.
/// Kept for the life of the installation; secret, never logged.
struct DCRClientCredentials: Codable, Sendable, Equatable {
    /// `client_id`.
    var clientID: String
    /// `client_secret`.
    var clientSecret: String
    /// `client_id_issued_at`, when the server sent it.
    var clientIDIssuedAt: Date?
    /// `grant_types` the client may use at the token endpoint.
    var grantTypes: [String]
    /// `scopes` the client may use.
    var scopes: [String]
    /// `redirect_uris` registered for the client.
    var redirectURIs: [String]

    init(
        clientID: String, clientSecret: String, clientIDIssuedAt: Date? = nil, grantTypes: [String] = [],
        scopes: [String] = [], redirectURIs: [String] = []
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientIDIssuedAt = clientIDIssuedAt
        self.grantTypes = grantTypes
        self.scopes = scopes
        self.redirectURIs = redirectURIs
    }
}

/// A DCR access token and the instant it stops being valid. Secret, never logged.
struct DCRAccessToken: Codable, Sendable, Equatable {
    /// The bearer token for the `Authorization` header.
    var value: String
    /// `created_at`/now + `expires_in`.
    var expiresAt: Date
}

/// Where the SDK keeps DCR credentials and the current access token between launches
/// (implemented by the SDK's storage).
protocol ClientCredentialsCache: Sendable {
    /// The stored client credentials, or `nil`.
    func loadClientCredentials() -> DCRClientCredentials?
    /// Stores client credentials, replacing any.
    func saveClientCredentials(_ credentials: DCRClientCredentials)
    /// The stored access token, or `nil`.
    func loadAccessToken() -> DCRAccessToken?
    /// Stores an access token, replacing any.
    func saveAccessToken(_ token: DCRAccessToken)
}

/// A cache held in memory only: for tests and for callers that do not persist.
final class InMemoryClientCredentialsCache: ClientCredentialsCache, Sendable {
    private let credentials: Mutex<DCRClientCredentials?>
    private let token: Mutex<DCRAccessToken?>

    init(credentials: DCRClientCredentials? = nil, token: DCRAccessToken? = nil) {
        self.credentials = Mutex(credentials)
        self.token = Mutex(token)
    }

    func loadClientCredentials() -> DCRClientCredentials? { credentials.withLock { $0 } }
    func saveClientCredentials(_ credentials: DCRClientCredentials) { self.credentials.withLock { $0 = credentials } }
    func loadAccessToken() -> DCRAccessToken? { token.withLock { $0 } }
    func saveAccessToken(_ token: DCRAccessToken) { self.token.withLock { $0 = token } }
}
