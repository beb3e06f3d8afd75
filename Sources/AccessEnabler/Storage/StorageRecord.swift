/// What one record file of a store holds, read on its own (see ``StorageLoader/reload(_:protection:)``).
enum StorageRecord: Sendable, Equatable {
    case clientCredentials(StoredClientCredentials)
    case accessToken(StoredAccessToken)
    case requestor(RequestorRecord)
    case serviceProviderClient(StoredServiceProviderClient)
    /// The file is gone.
    case absent
}
