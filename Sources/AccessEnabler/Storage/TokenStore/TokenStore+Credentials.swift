import Foundation

/// ``TokenStore``'s surface for the records every requestor shares: the DCR client, the
/// access token, and the client and token of each extra service provider.
extension TokenStore {
    // MARK: - Client and access token

    var clientCredentials: StoredClientCredentials? {
        stateLock.withLock { snapshot.clientCredentials }
    }

    /// Stores the DCR client; nil removes it.
    ///
    /// A client with another client id than the stored one (a new registration after
    /// `application-registration` or `invalid_client`, or after the stored client was lost)
    /// removes every stored profile, media token and preauthorization: they were obtained
    /// with the old client and no longer hold. Returns the requestors whose sign-in went that
    /// way (those that had a profile), so the user can be told.
    @discardableResult
    func setClientCredentials(_ credentials: StoredClientCredentials?) -> [String] {
        let signedOut = stateLock.withLock { () -> [String]? in
            guard snapshot.clientCredentials != credentials else { return nil }
            var signedOut: [String] = []
            let change = changes.next()
            if let credentials, credentials.clientID != snapshot.clientCredentials?.clientID {
                signedOut = snapshot.requestors.values.filter { $0.profile != nil || $0.standby != nil }
                    .map(\.requestor).sorted()
                for requestor in snapshot.requestors.keys { changes.changed(.requestor(requestor), by: change) }
                snapshot.requestors = [:]
                changes.droppedRequestors(by: change)
                if !signedOut.isEmpty { changes.markUrgent() }
            }
            snapshot.clientCredentials = credentials
            changes.changed(.clientCredentials, by: change)
            return signedOut
        }
        guard let signedOut else { return [] }
        changed()
        return signedOut
    }

    var accessToken: StoredAccessToken? {
        stateLock.withLock { snapshot.accessToken }
    }

    /// Stores the access token; nil removes it.
    func setAccessToken(_ token: StoredAccessToken?) {
        let isChange: Bool = stateLock.withLock {
            guard snapshot.accessToken != token else { return false }
            snapshot.accessToken = token
            let change = changes.next()
            changes.changed(.accessToken, by: change)
            return true
        }
        if isChange { changed() }
    }

    // MARK: - Extra service providers

    /// The client and token registered at the service provider `baseURL`, if any.
    func serviceProviderClient(baseURL: String) -> StoredServiceProviderClient? {
        stateLock.withLock { snapshot.serviceProviderClients[baseURL] }
    }

    /// Changes the client and token stored for the service provider `baseURL`.
    func updateServiceProviderClient(baseURL: String, _ change: (inout StoredServiceProviderClient) -> Void) {
        let isChange: Bool = stateLock.withLock {
            var record = snapshot.serviceProviderClients[baseURL] ?? StoredServiceProviderClient(baseURL: baseURL)
            change(&record)
            guard snapshot.serviceProviderClients[baseURL] != record else { return false }
            snapshot.serviceProviderClients[baseURL] = record
            let number = changes.next()
            changes.changed(.serviceProviderClient(baseURL), by: number)
            return true
        }
        if isChange { changed() }
    }
}
