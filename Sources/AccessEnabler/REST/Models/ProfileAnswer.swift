import Foundation

/// One authenticated profile, from a `profiles` map keyed by MVPD id.
struct ProfileAnswer: Sendable, Equatable {
    /// The MVPD id (the map key).
    var mvpd: String
    /// `regular`, `appleSSO`, `platformSSO`, `serviceTokenSSO`, `degraded`, `temporary`.
    var type: String
    /// When the profile becomes valid.
    var notBefore: Date
    /// When the profile stops being valid.
    var notAfter: Date
    /// Who owns the profile (the MVPD, `Adobe` or `Apple`).
    var issuer: String?
    /// The user metadata attributes.
    var attributes: [String: ProfileAttribute]
    /// An opaque id for tracking, when sent.
    var sessionId: String?
    /// For a profile shared through a single sign-on token (`serviceTokenSSO`,
    /// `platformSSO`): the issuer of the token the request presented. Not on the wire.
    var tokenIssuer: String?

    init(
        mvpd: String, type: String, notBefore: Date, notAfter: Date, issuer: String? = nil,
        attributes: [String: ProfileAttribute] = [:], sessionId: String? = nil
    ) {
        self.mvpd = mvpd
        self.type = type
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.issuer = issuer
        self.attributes = attributes
        self.sessionId = sessionId
    }
}

/// One user metadata attribute of a profile.
struct ProfileAttribute: Codable, Sendable, Equatable {
    /// The value: a string, number, list or map.
    var value: JSONValue
    /// `plain`, or `enc` when the value is encrypted.
    var state: String

    /// Whether the value is encrypted.
    var isEncrypted: Bool { state == "enc" }

    init(value: JSONValue, state: String = "plain") {
        self.value = value
        self.state = state
    }

    private enum CodingKeys: String, CodingKey { case value, state }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null
        state = try container.decodeIfPresent(String.self, forKey: .state) ?? "plain"
    }
}

/// The body `{"profiles": {"<mvpd>": {…}}}` shared by every profiles operation. `profiles`
/// is required: a body without it (`{}`), or with it null, says nothing about the device's
/// sign-ins and is malformed — only an empty map says there are none.
struct ProfilesResponse: Decodable, Sendable {
    /// The profiles, ordered by MVPD id.
    var profiles: [ProfileAnswer]

    private struct WireProfile: Decodable {
        var type: String
        var notBefore: Date
        var notAfter: Date
        var issuer: String?
        var attributes: [String: ProfileAttribute]
        var sessionId: String?

        private enum CodingKeys: String, CodingKey { case type, notBefore, notAfter, issuer, attributes, sessionId }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            notBefore = try container.decodeEpochMilliseconds(forKey: .notBefore)
            notAfter = try container.decodeEpochMilliseconds(forKey: .notAfter)
            issuer = container.lenientString(.issuer)
            attributes = try container.decodeObject(of: ProfileAttribute.self, forKey: .attributes) ?? [:]
            sessionId = container.lenientString(.sessionId)
        }
    }

    private enum CodingKeys: String, CodingKey { case profiles }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let map = try container.decodeObject(of: WireProfile.self, forKey: .profiles) else {
            throw DecodingError.keyNotFound(
                CodingKeys.profiles,
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "Missing profiles."))
        }
        profiles = map.keys.sorted().compactMap { key in
            guard let wire = map[key] else { return nil }
            return ProfileAnswer(
                mvpd: key, type: wire.type, notBefore: wire.notBefore, notAfter: wire.notAfter,
                issuer: wire.issuer, attributes: wire.attributes, sessionId: wire.sessionId)
        }
    }
}
