/// One record of a store, as a key: what a store tracks its own unwritten changes by.
enum StoredRecordKey: Hashable, Sendable {
    case clientCredentials
    case accessToken
    case requestor(String)
    case serviceProviderClient(String)

    /// What the record holds, for a person: "the access token", "the sign-in of REF30".
    var subject: String {
        switch self {
        case .clientCredentials: "the registered client (DCR client credentials)"
        case .accessToken: "the access token"
        case .requestor(let requestor): "the sign-in of \(requestor)"
        case .serviceProviderClient(let baseURL): "the client registered at \(baseURL)"
        }
    }
}
