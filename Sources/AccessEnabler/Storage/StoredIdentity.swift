/// The part of a store that survives every integrity check and every clear: the device
/// identifier (how Adobe Pass recognises the device's profiles, so it must stay stable) and
/// the key that protects the other stored files.
struct StoredIdentity: Codable, Sendable, Equatable {
    /// 64 lowercase hex characters, created once per software statement and storage directory.
    var deviceIdentifier: String
    /// 32 bytes in lowercase hex: the HMAC key of ``StorageEnvelope``.
    var integrityKey: String

    /// A new identity from the system's secure random generator.
    static func generate() -> StoredIdentity {
        StoredIdentity(
            deviceIdentifier: Hex.encode(StorageFileSystem.randomBytes(count: 32)),
            integrityKey: Hex.encode(StorageFileSystem.randomBytes(count: 32)))
    }

    /// The integrity key as bytes (empty when malformed, which ``validationProblem`` reports).
    var integrityKeyBytes: [UInt8] {
        Hex.decode(integrityKey) ?? []
    }
}

extension StoredIdentity: StoredValueValidating {
    var validationProblem: String? {
        let identifierIsPrintable = deviceIdentifier.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7f }
        if deviceIdentifier.isEmpty || deviceIdentifier.count > 512 || !identifierIsPrintable {
            return "malformed device identifier"
        }
        if Hex.decode(integrityKey)?.count != 32 {
            return "malformed integrity key"
        }
        return nil
    }
}
