import Foundation

/// The user identity of a promotional TempPass request: the `AP-TempPass-Identity`
/// header, Base64 of a JSON object naming the user (`{"email": "…"}`, usually a hash the
/// application computed), as its appendix page encodes it.
///
/// Two headers name the same user when their JSON objects are equal: the identity is
/// kept as the object's canonical encoding (keys sorted, no whitespace), so key order and
/// spacing do not matter.
struct TempPassIdentity: Hashable, Sendable {
    /// The canonical JSON text.
    let canonical: String

    /// The header's name.
    static let headerName = "AP-TempPass-Identity"

    /// Reads the header value; `invalid_header_identity_for_temporary_access` (with
    /// details saying what is wrong) when it is missing, not Base64, or not a non-empty
    /// JSON object.
    static func parse(_ header: String?) -> Result<TempPassIdentity, SandboxEnhancedError> {
        guard let header else {
            return .failure(
                .invalidTempPassIdentity.with(
                    details: "The \(headerName) header is missing; a promotional TempPass needs the user's identity."))
        }
        guard let data = Data(base64Encoded: HTTPASCII.trimmingSpaces(header)) else {
            return .failure(.invalidTempPassIdentity.with(details: "The \(headerName) header is not Base64."))
        }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any], !object.isEmpty
        else {
            return .failure(
                .invalidTempPassIdentity.with(
                    details:
                        "The \(headerName) header must be Base64 of a non-empty JSON object, such as {\"email\": \"…\"}."
                ))
        }
        return .success(
            TempPassIdentity(canonical: String(decoding: SandboxJSON(foundation: object).bytes, as: UTF8.self)))
    }
}
