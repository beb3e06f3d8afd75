/// EMSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §9.2): the message representative an RS256
/// signature is the RSA image of.
enum SandboxPKCS1 {
    /// The DER prefix of a SHA-256 `DigestInfo` (RFC 8017 §9.2, note 1): the algorithm
    /// identifier, then the 32-byte octet string header.
    static let sha256DigestInfoPrefix: [UInt8] = [
        0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04,
        0x20,
    ]

    /// `0x00 0x01 FF…FF 0x00 DigestInfo(SHA-256(message))`, `length` bytes long (the
    /// modulus's byte length), or `nil` when `length` is too short to hold it (RFC 8017:
    /// at least eight `FF` bytes).
    static func encodedSHA256(_ message: [UInt8], length: Int) -> [UInt8]? {
        let digestInfo = sha256DigestInfoPrefix + SandboxHMAC.sha256(message)
        guard length >= digestInfo.count + 11 else { return nil }
        return [0x00, 0x01] + [UInt8](repeating: 0xff, count: length - digestInfo.count - 3) + [0x00] + digestInfo
    }
}
