import Foundation

/// The `AP-Device-Identifier` header: `fingerprint <Base64 of the device identifier>`.
///
/// The identifier is created and kept by the SDK's storage (64 lowercase hex characters),
/// or derived from one the application supplies (`AccessEnablerConfiguration.deviceIdentifier`):
/// the header's documentation recommends an SHA-256 hash over the value the operating
/// system or the application provides, so that value is hashed (``hashed(_:)``, lowercase
/// hex) and the hash is what is stored, Base64-encoded into the header and returned as
/// `METADATA_DEVICE_ID`. The raw value never leaves the device.
enum DeviceIdentifier {
    /// The SHA-256 of `raw`'s UTF-8 bytes in lowercase hex: the device identifier for an
    /// identifier the application supplies.
    static func hashed(_ raw: String) -> String {
        SHA256.hexDigest(Array(raw.utf8))
    }

    /// `fingerprint <Base64 of identifier>`, encoded once per distinct identifier.
    static func headerValue(_ identifier: String) -> String {
        if let cached = headerCache.value(for: identifier) { return cached }
        let value = "fingerprint " + Data(identifier.utf8).base64EncodedString()
        headerCache.store(value, for: identifier)
        return value
    }

    private static let headerCache = LastValueCache<String, String>()
}
