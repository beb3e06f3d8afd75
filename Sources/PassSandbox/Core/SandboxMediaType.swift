/// The media type a request body must be sent with, as each endpoint's page requires in its
/// `Content-Type` row: forms for sessions, partner single sign-on and the DCR token, JSON
/// for decisions and the DCR registration. Parameters (`charset=utf-8`) and letter case do
/// not matter.
enum SandboxMediaType: String, Sendable {
    case form = "application/x-www-form-urlencoded"
    case json = "application/json"

    /// `true` when `contentType` (a `Content-Type` value, `nil` when absent) names this type.
    func matches(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let essence = HTTPASCII.splitOnce(contentType, at: UInt8(ascii: ";")).map { String($0.head) } ?? contentType
        return HTTPASCII.equalIgnoringCase(HTTPASCII.trimmingSpaces(essence), rawValue)
    }

    /// A sentence saying what was sent and what is expected.
    func problem(with contentType: String?) -> String {
        guard let contentType else { return "The Content-Type header is missing; send the body as \(rawValue)." }
        return "The body is sent as \"\(contentType)\"; send it as \(rawValue)."
    }
}

extension SandboxEngine {
    /// Refuses a REST API V2 request whose body is not of `type`
    /// (`invalid_header_content_type`, 400). A request without a body has no content to
    /// type (RFC 9110 §8.3): its parameters are simply missing.
    func requireBody(_ type: SandboxMediaType, _ request: SandboxRequest) throws(SandboxEnhancedError) {
        let contentType = request.header("Content-Type")
        guard request.body.isEmpty || type.matches(contentType) else {
            throw SandboxEnhancedError.invalidContentType.with(details: type.problem(with: contentType))
        }
    }
}
