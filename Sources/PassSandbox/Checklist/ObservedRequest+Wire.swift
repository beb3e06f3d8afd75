import Foundation

/// What the checklist monitor keeps of a request's wire form: the names it sent (the
/// parameter and header rules compare them with the API's own) and the device it described
/// (the launch rules group look-alike launches by it). Values are not kept: they may carry
/// credentials.
extension ObservedRequest {
    /// The names of the body's parameters: the fields of a form
    /// (`application/x-www-form-urlencoded`) or the members of a JSON object, by the
    /// request's `Content-Type`; none for another body, or one that does not parse.
    static func bodyNames(of request: SandboxRequest) -> [String] {
        guard !request.body.isEmpty, let type = request.header("Content-Type")?.lowercased() else { return [] }
        if type.contains("json") {
            let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            return object.map { $0.keys.sorted() } ?? []
        }
        if type.contains("x-www-form-urlencoded") {
            return SandboxRequest.decodeForm(String(decoding: request.body, as: UTF8.self)).map(\.name)
        }
        return []
    }

    /// The most characters of an `X-Device-Info` value kept when it does not decode.
    static let undecodedDescriptionLimit = 120

    /// What an `X-Device-Info` value says of the device, in a stable form that two launches of
    /// one device share: the members of its JSON object (Base64, plain or percent-encoded)
    /// as sorted `name=value` pairs, the `connection…` members left out (an address and port
    /// change between launches); the value itself, shortened, when it does not decode.
    static func describe(deviceInfo value: String) -> String {
        let trimmed = HTTPASCII.trimmingSpaces(value)
        let candidates = [trimmed, trimmed.removingPercentEncoding ?? trimmed]
        for candidate in candidates {
            guard let data = Data(base64Encoded: candidate),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { continue }
            return object.keys.filter { !$0.hasPrefix("connection") }.sorted().map { "\($0)=\(object[$0] ?? "")" }
                .joined(separator: ", ")
        }
        return String(trimmed.prefix(undecodedDescriptionLimit))
    }
}
