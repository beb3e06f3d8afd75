import Foundation

/// How the sandbox "encrypts" `state: enc` user metadata: Base64 of the JSON value, so
/// tests can read it back. (Adobe Pass encrypts with the programmer's certificate.)
public enum SandboxMetadataCipher {
    /// The `value` written for an encrypted attribute.
    public static func encrypt(_ values: [String]) -> String {
        Data(SandboxJSON.array(values.map(SandboxJSON.string)).bytes).base64EncodedString()
    }

    /// Reads back a value written by ``encrypt(_:)``; `nil` when it is not one.
    public static func decrypt(_ value: String) -> [String]? {
        guard let data = Data(base64Encoded: value) else { return nil }
        return try? JSONSerialization.jsonObject(with: data, options: []) as? [String]
    }
}
