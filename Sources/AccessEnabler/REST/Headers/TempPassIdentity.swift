import Foundation

/// The `AP-TempPass-Identity` header of promotional TempPass: the user identity the app
/// gives (`getAuthentication(_:withData:)`, `getAuthorization(_:withData:)`) as a JSON
/// object, Base64-encoded, as the header's appendix page encodes `{"email": "…"}`.
enum TempPassIdentity {
    /// The header value for `identity`, or `nil` when it is empty. Keys are sorted, so the
    /// same identity always gives the same value.
    static func headerValue(_ identity: [String: String]) -> String? {
        guard !identity.isEmpty,
            let json = try? JSONSerialization.data(
                withJSONObject: identity, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return json.base64EncodedString()
    }
}
