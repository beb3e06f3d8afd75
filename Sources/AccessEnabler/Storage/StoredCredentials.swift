import Foundation

/// The client the SDK registered through Dynamic Client Registration for a software statement.
struct StoredClientCredentials: Codable, Sendable, Equatable {
    var clientID: String
    var clientSecret: String
}

extension StoredClientCredentials: StoredValueValidating, CustomStringConvertible, CustomDebugStringConvertible {
    var validationProblem: String? {
        if clientID.isEmpty { return "empty client id" }
        if clientSecret.isEmpty { return "empty client secret" }
        return nil
    }

    // The secret never appears in logs.
    var description: String { "StoredClientCredentials(clientID: \(clientID), clientSecret: <redacted>)" }
    var debugDescription: String { description }
}

/// The OAuth access token obtained with the client credentials, used as the bearer on REST V2 calls.
struct StoredAccessToken: Codable, Sendable, Equatable {
    var value: String
    var expiresAt: Date
}

extension StoredAccessToken: StoredValueValidating, CustomStringConvertible, CustomDebugStringConvertible {
    var validationProblem: String? {
        value.isEmpty ? "empty access token" : nil
    }

    // The token never appears in logs.
    var description: String { "StoredAccessToken(value: <redacted>, expiresAt: \(expiresAt))" }
    var debugDescription: String { description }
}
