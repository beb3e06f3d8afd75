import Foundation

/// The answer of creating or resuming an authentication session: the next action.
struct SessionAction: Decodable, Sendable, Equatable {
    /// What the application does next.
    var actionName: ActionName
    /// How the next step is taken.
    var actionType: ActionType
    /// Why Adobe Pass chose the action, when it says.
    var reasonType: ReasonType?
    /// The authentication code, when the session needs one.
    var code: String?
    /// Where to go next, absolute or relative (`/api/v2/authenticate/REF30/8ER640M`) as sent.
    var url: String?
    /// The MVPD, when known.
    var mvpd: String?
    /// The service provider.
    var serviceProvider: String?
    /// Parameters still needed to complete the session.
    var missingParameters: [String]
    /// When the code becomes valid.
    var notBefore: Date?
    /// When the code stops being valid.
    var notAfter: Date?
    /// An opaque id for tracking.
    var sessionId: String?

    init(
        actionName: ActionName, actionType: ActionType, reasonType: ReasonType? = nil, code: String? = nil,
        url: String? = nil,
        mvpd: String? = nil, serviceProvider: String? = nil, missingParameters: [String] = [],
        notBefore: Date? = nil, notAfter: Date? = nil, sessionId: String? = nil
    ) {
        self.actionName = actionName
        self.actionType = actionType
        self.reasonType = reasonType
        self.code = code
        self.url = url
        self.mvpd = mvpd
        self.serviceProvider = serviceProvider
        self.missingParameters = missingParameters
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.sessionId = sessionId
    }

    private enum CodingKeys: String, CodingKey {
        case actionName, actionType, reasonType, code, url, mvpd, serviceProvider, missingParameters
        case notBefore, notAfter, sessionId
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        actionName = try container.decode(ActionName.self, forKey: .actionName)
        actionType = try container.decode(ActionType.self, forKey: .actionType)
        reasonType = try container.decodeIfPresent(ReasonType.self, forKey: .reasonType)
        code = try container.decodeIfPresent(String.self, forKey: .code)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        mvpd = try container.decodeIfPresent(String.self, forKey: .mvpd)
        serviceProvider = try container.decodeIfPresent(String.self, forKey: .serviceProvider)
        missingParameters = try container.decodeIfPresent([String].self, forKey: .missingParameters) ?? []
        notBefore = try container.decodeEpochMillisecondsIfPresent(forKey: .notBefore)
        notAfter = try container.decodeEpochMillisecondsIfPresent(forKey: .notAfter)
        sessionId = try container.decodeIfPresent(String.self, forKey: .sessionId)
    }
}

/// The answer of `GET /api/v2/{serviceProvider}/sessions/{code}`.
struct SessionStatus: Decodable, Sendable, Equatable {
    /// Parameters the session already has (`mvpd`, `domainName`, `redirectUrl`, …), as text.
    var existingParameters: [String: String]
    /// Parameters the session still needs.
    var missingParameters: [String]
    /// The device description the server holds for the session, as received.
    var device: JSONValue?
    /// When the code becomes valid.
    var notBefore: Date?
    /// When the code stops being valid.
    var notAfter: Date?

    private enum CodingKeys: String, CodingKey {
        case existingParameters, missingParameters, device, notBefore, notAfter
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let existing = try container.decodeObject(of: JSONValue.self, forKey: .existingParameters) ?? [:]
        existingParameters = existing.filter { $0.value != .null }.mapValues(\.compactText)
        missingParameters = try container.decodeIfPresent([String].self, forKey: .missingParameters) ?? []
        device = try container.decodeIfPresent(JSONValue.self, forKey: .device)
        notBefore = try container.decodeEpochMillisecondsIfPresent(forKey: .notBefore)
        notAfter = try container.decodeEpochMillisecondsIfPresent(forKey: .notAfter)
    }
}
