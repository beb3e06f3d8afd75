import Foundation

/// The part of a store that survives every integrity check and every clear: the device
/// identifier (how Adobe Pass recognises the device's profiles, so it must stay stable) and
/// the key that protects the other stored files.
struct StoredIdentity: Codable, Sendable, Equatable {
    /// 64 lowercase hex characters, created once per software statement and storage directory.
    var deviceIdentifier: String
    /// 32 bytes in lowercase hex: the HMAC key of ``StorageEnvelope``.
    var integrityKey: String

    /// A new identity from the system's secure random generator (one draw for both values).
    static func generate() -> StoredIdentity {
        let bytes = StorageFileSystem.randomBytes(count: 64)
        return StoredIdentity(deviceIdentifier: Hex.encode(bytes[..<32]), integrityKey: Hex.encode(bytes[32...]))
    }

    /// The identity of a store that cannot keep its identity file (a read-only, full or
    /// unusable directory): derived, not drawn, so that every launch on this machine sends
    /// the same device identifier and Adobe Pass still finds the device's profiles.
    ///
    /// The device identifier is the HMAC-SHA-256, keyed with this machine's
    /// `/etc/machine-id`, of the statement directory's path (which holds the SHA-256 of the
    /// software statement), in lowercase hex: stable for the installation, different per
    /// application and storage directory, and the machine id itself never leaves the
    /// device. Without a machine id, the host name stands in. The integrity key is derived
    /// the same way; it protects nothing that could be read back, since nothing is written.
    static func derived(statementDirectory: URL, machineID: String?) -> StoredIdentity {
        let key = Array((machineID ?? ProcessInfo.processInfo.hostName).utf8)
        let scope = Array(statementDirectory.standardizedFileURL.path.utf8)
        return StoredIdentity(
            deviceIdentifier: Hex.encode(
                HMACSHA256.authenticationCode(for: Array("device-identifier\n".utf8) + scope, key: key)),
            integrityKey: Hex.encode(
                HMACSHA256.authenticationCode(for: Array("integrity-key\n".utf8) + scope, key: key)))
    }

    /// The integrity key as bytes (empty when malformed, which ``validationProblem`` reports).
    var integrityKeyBytes: [UInt8] {
        Hex.decode(integrityKey) ?? []
    }
}

extension StoredIdentity: StoredValueValidating {
    var validationProblem: String? {
        let identifierIsPrintable = deviceIdentifier.unicodeScalars.allSatisfy {
            $0.isASCII && $0.value > 0x20 && $0.value < 0x7f
        }
        if deviceIdentifier.isEmpty || deviceIdentifier.count > 512 || !identifierIsPrintable {
            return "malformed device identifier"
        }
        if Hex.decode(integrityKey)?.count != 32 {
            return "malformed integrity key"
        }
        return nil
    }
}
