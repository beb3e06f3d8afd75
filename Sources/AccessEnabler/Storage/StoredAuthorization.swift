import Foundation

/// A media token (short authorization) obtained for one resource.
struct StoredAuthorization: Codable, Sendable, Equatable {
    var requestor: String
    var mvpd: String
    var resource: String
    var serializedToken: String
    var notBefore: Date
    var notAfter: Date
}

extension StoredAuthorization: StoredValueValidating, CustomStringConvertible, CustomDebugStringConvertible {
    var validationProblem: String? {
        if requestor.isEmpty || mvpd.isEmpty || resource.isEmpty {
            return "authorization without requestor, MVPD or resource"
        }
        if serializedToken.isEmpty { return "authorization without token" }
        if notAfter < notBefore { return "authorization ends before it starts" }
        return nil
    }

    // The media token never appears in logs.
    var description: String {
        "StoredAuthorization(requestor: \(requestor), mvpd: \(mvpd), resource: \(resource), serializedToken: <redacted>, notBefore: \(notBefore), notAfter: \(notAfter))"
    }
    var debugDescription: String { description }
}

/// One cached answer of a preauthorization check.
struct StoredPreauthorization: Codable, Sendable, Equatable {
    var resource: String
    var authorized: Bool
    var expiresAt: Date
}

extension StoredPreauthorization: StoredValueValidating {
    var validationProblem: String? {
        resource.isEmpty ? "preauthorization without resource" : nil
    }
}
