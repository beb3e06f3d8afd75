import Foundation

/// The answer of `POST /api/v2/{serviceProvider}/sessions/sso/{partner}`: either a partner
/// authentication request to hand to the partner framework, or a fallback action.
struct PartnerSessionAction: Decodable, Sendable, Equatable {
    /// What the application does next: `partnerProfile` when the partner sign-in can proceed.
    var actionName: ActionName
    /// How the next step is taken.
    var actionType: ActionType
    /// Why Adobe Pass chose the action, including why it fell back from the partner sign-in.
    var reasonType: ReasonType?
    /// The MVPD, when known.
    var mvpd: String?
    /// The service provider.
    var serviceProvider: String?
    /// The request for the partner framework, present when partner single sign-on can proceed.
    var authenticationRequest: PartnerAuthenticationRequest?
    /// Parameters still needed, on a fallback.
    var missingParameters: [String]
    /// The authentication code, on a fallback.
    var code: String?
    /// Where to go next, absolute or relative as sent.
    var url: String?
    /// When the code becomes valid.
    var notBefore: Date?
    /// When the code stops being valid.
    var notAfter: Date?
    /// An opaque id for tracking.
    var sessionId: String?

    private enum CodingKeys: String, CodingKey {
        case actionName, actionType, reasonType, mvpd, serviceProvider, authenticationRequest, missingParameters
        case code, url, notBefore, notAfter, sessionId
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        actionName = try container.decode(ActionName.self, forKey: .actionName)
        actionType = try container.decode(ActionType.self, forKey: .actionType)
        reasonType = try container.decodeIfPresent(ReasonType.self, forKey: .reasonType)
        mvpd = try container.decodeIfPresent(String.self, forKey: .mvpd)
        serviceProvider = try container.decodeIfPresent(String.self, forKey: .serviceProvider)
        authenticationRequest = try container.decodeIfPresent(
            PartnerAuthenticationRequest.self, forKey: .authenticationRequest)
        missingParameters = try container.decodeIfPresent([String].self, forKey: .missingParameters) ?? []
        code = try container.decodeIfPresent(String.self, forKey: .code)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        notBefore = try container.decodeEpochMillisecondsIfPresent(forKey: .notBefore)
        notAfter = try container.decodeEpochMillisecondsIfPresent(forKey: .notAfter)
        sessionId = try container.decodeIfPresent(String.self, forKey: .sessionId)
    }
}

/// The partner authentication request: a SAML request for the partner framework.
struct PartnerAuthenticationRequest: Decodable, Sendable, Equatable {
    /// The protocol (`saml`).
    var type: String
    /// The SAML request (secret-ish: never logged).
    var request: String
    /// The attribute names to ask for.
    var attributesNames: [String]

    private enum CodingKeys: String, CodingKey { case type, request, attributesNames }

    init(type: String, request: String, attributesNames: [String]) {
        self.type = type
        self.request = request
        self.attributesNames = attributesNames
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "saml"
        request = try container.decode(String.self, forKey: .request)
        attributesNames = try container.decodeIfPresent([String].self, forKey: .attributesNames) ?? []
    }
}
