import Foundation

/// One authorization or preauthorization decision.
struct Decision: Decodable, Sendable, Equatable {
    /// The resource the decision is for.
    var resource: String
    /// The service provider.
    var serviceProvider: String?
    /// The MVPD.
    var mvpd: String?
    /// Who decided, when the server says.
    var source: DecisionSource?
    /// Permit (`true`) or deny.
    var authorized: Bool
    /// The media token, on a permitted authorization.
    var token: DecisionToken?
    /// Why the decision is a deny, when the server says.
    var error: EnhancedError?
    /// When the decision becomes valid.
    var notBefore: Date?
    /// When the decision stops being valid.
    var notAfter: Date?

    init(
        resource: String, serviceProvider: String? = nil, mvpd: String? = nil, source: DecisionSource? = nil,
        authorized: Bool, token: DecisionToken? = nil, error: EnhancedError? = nil,
        notBefore: Date? = nil, notAfter: Date? = nil
    ) {
        self.resource = resource
        self.serviceProvider = serviceProvider
        self.mvpd = mvpd
        self.source = source
        self.authorized = authorized
        self.token = token
        self.error = error
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    private enum CodingKeys: String, CodingKey {
        case resource, serviceProvider, mvpd, source, authorized, token, error, notBefore, notAfter
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        resource = try container.decode(String.self, forKey: .resource)
        serviceProvider = container.lenientString(.serviceProvider)
        mvpd = container.lenientString(.mvpd)
        source = container.lenientString(.source).map(DecisionSource.init(rawValue:))
        guard let authorized = container.lenientBool(.authorized) else {
            throw DecodingError.keyNotFound(
                CodingKeys.authorized,
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "Missing decision."))
        }
        self.authorized = authorized
        token = try container.decodeIfPresent(DecisionToken.self, forKey: .token)
        error = try container.decodeIfPresent(EnhancedError.self, forKey: .error)
        notBefore = try container.decodeEpochMillisecondsIfPresent(forKey: .notBefore)
        notAfter = try container.decodeEpochMillisecondsIfPresent(forKey: .notAfter)
    }
}

/// The media token of a permitted authorization decision. Secret: never logged.
struct DecisionToken: Decodable, Sendable, Equatable {
    /// The Base64 token handed to the media verifier.
    var serializedToken: String
    /// When the token becomes valid.
    var notBefore: Date?
    /// When the token stops being valid.
    var notAfter: Date?

    init(serializedToken: String, notBefore: Date? = nil, notAfter: Date? = nil) {
        self.serializedToken = serializedToken
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    private enum CodingKeys: String, CodingKey { case serializedToken, notBefore, notAfter }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        serializedToken = try container.decode(String.self, forKey: .serializedToken)
        notBefore = try container.decodeEpochMillisecondsIfPresent(forKey: .notBefore)
        notAfter = try container.decodeEpochMillisecondsIfPresent(forKey: .notAfter)
    }
}

/// The body `{"decisions": [...]}`.
struct DecisionsResponse: Decodable, Sendable {
    /// The decisions in the order sent.
    var decisions: [Decision]
}
