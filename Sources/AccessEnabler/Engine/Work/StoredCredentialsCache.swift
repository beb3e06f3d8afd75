import Foundation

/// Lets the REST client's DCR credentials and access token live in the ``TokenStore``, so
/// registration happens once per software statement and device, across launches.
struct StoredCredentialsCache: ClientCredentialsCache {
    let store: TokenStore
    /// Told the requestors whose sign-in a new registration removed (a new client id: the
    /// profiles of the old client no longer hold), so the user hears of it.
    var signedOut: @Sendable ([String]) -> Void = { _ in }

    func loadClientCredentials() -> DCRClientCredentials? {
        store.clientCredentials.map { DCRClientCredentials(clientID: $0.clientID, clientSecret: $0.clientSecret) }
    }

    func saveClientCredentials(_ credentials: DCRClientCredentials) {
        let dropped = store.setClientCredentials(
            StoredClientCredentials(clientID: credentials.clientID, clientSecret: credentials.clientSecret))
        if !dropped.isEmpty { signedOut(dropped) }
    }

    func loadAccessToken() -> DCRAccessToken? {
        store.accessToken.map { DCRAccessToken(value: $0.value, expiresAt: $0.expiresAt) }
    }

    func saveAccessToken(_ token: DCRAccessToken) {
        store.setAccessToken(StoredAccessToken(value: token.value, expiresAt: token.expiresAt))
    }
}

/// The DCR client and access token of an extra service provider, kept in the ``TokenStore``
/// under its base URL, so a relaunch reuses the client its profiles are bound to.
struct ServiceProviderCredentialsCache: ClientCredentialsCache {
    let store: TokenStore
    let baseURL: String

    func loadClientCredentials() -> DCRClientCredentials? {
        store.serviceProviderClient(baseURL: baseURL)?.credentials.map {
            DCRClientCredentials(clientID: $0.clientID, clientSecret: $0.clientSecret)
        }
    }

    func saveClientCredentials(_ credentials: DCRClientCredentials) {
        store.updateServiceProviderClient(baseURL: baseURL) {
            $0.credentials = StoredClientCredentials(
                clientID: credentials.clientID, clientSecret: credentials.clientSecret)
        }
    }

    func loadAccessToken() -> DCRAccessToken? {
        store.serviceProviderClient(baseURL: baseURL)?.accessToken.map {
            DCRAccessToken(value: $0.value, expiresAt: $0.expiresAt)
        }
    }

    func saveAccessToken(_ token: DCRAccessToken) {
        store.updateServiceProviderClient(baseURL: baseURL) {
            $0.accessToken = StoredAccessToken(value: token.value, expiresAt: token.expiresAt)
        }
    }
}
