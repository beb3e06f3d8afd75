import Foundation

/// An Adobe Pass enhanced error: the body of a failed REST API V2 response, or the
/// `error` object of one decision in a decisions response.
///
/// DCR endpoints answer failures with an OAuth-style `{"error": "invalid_request"}` body;
/// it decodes into the same type with ``code`` set to that value.
public struct EnhancedError: Sendable, Equatable, Codable {
    /// The HTTP status the error stands for (it may differ from the response status for
    /// item-level errors).
    public var status: Int?
    /// The Adobe Pass error code, for example `authorization_denied_by_mvpd`.
    public var code: String
    /// A human readable message that may be shown to the user.
    public var message: String?
    /// Extra detail, sometimes supplied by the MVPD.
    public var details: String?
    /// A documentation link about the error.
    public var helpUrl: String?
    /// A support identifier for the response.
    public var trace: String?
    /// The recommended remedy: `none`, `configuration`, `application-registration`,
    /// `authentication`, `authorization` or `retry`.
    public var action: String?

    /// Creates an enhanced error.
    public init(
        status: Int? = nil, code: String, message: String? = nil, details: String? = nil,
        helpUrl: String? = nil, trace: String? = nil, action: String? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.helpUrl = helpUrl
        self.trace = trace
        self.action = action
    }

    private enum CodingKeys: String, CodingKey {
        case status, code, message, details, helpUrl, trace, action
        // OAuth-style DCR error body.
        case error
        case errorDescription = "error_description"
    }

    /// Decodes the enhanced error shape, or the OAuth shape DCR uses. Lenient with types
    /// the server may vary (a numeric status sent as a string, a message sent as an object).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let code = container.lenientString(.code) {
            self.code = code
            self.message = container.lenientString(.message)
        } else if let oauthError = container.lenientString(.error) {
            self.code = oauthError
            self.message = container.lenientString(.errorDescription)
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.code,
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "No error code in the body.")
            )
        }
        self.status = container.lenientInt(.status)
        self.details = container.lenientString(.details)
        self.helpUrl = container.lenientString(.helpUrl)
        self.trace = container.lenientString(.trace)
        self.action = container.lenientString(.action)
    }

    /// Encodes the enhanced error shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encode(code, forKey: .code)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encodeIfPresent(details, forKey: .details)
        try container.encodeIfPresent(helpUrl, forKey: .helpUrl)
        try container.encodeIfPresent(trace, forKey: .trace)
        try container.encodeIfPresent(action, forKey: .action)
    }
}

extension KeyedDecodingContainer {
    /// A string value, or a number/bool/object rendered as text, or `nil` when absent,
    /// null or undecodable. For fields that only inform a person.
    func lenientString(_ key: Key) -> String? {
        if let string = try? decodeIfPresent(String.self, forKey: key) { return string }
        if let value = try? decodeIfPresent(JSONValue.self, forKey: key), value != .null {
            return value.compactText
        }
        return nil
    }

    /// An integer, or a string holding one, or `nil`.
    func lenientInt(_ key: Key) -> Int? {
        if let int = try? decodeIfPresent(Int.self, forKey: key) { return int }
        if let string = try? decodeIfPresent(String.self, forKey: key) { return Int(string) }
        return nil
    }

    /// A boolean, or the strings `true` / `false`, or `nil`.
    func lenientBool(_ key: Key) -> Bool? {
        if let bool = try? decodeIfPresent(Bool.self, forKey: key) { return bool }
        if let string = try? decodeIfPresent(String.self, forKey: key) {
            switch string.lowercased() {
            case "true": return true
            case "false": return false
            default: return nil
            }
        }
        return nil
    }
}
