import Foundation

/// The RSA keys of identity services, read from JWKs or derived from issuer names once per
/// process: checking a key signs and verifies with it, and deriving one searches for
/// primes, so every sandbox (tests make hundreds) shares the work.
final class SandboxIdentityKeyCache: @unchecked Sendable {
    typealias Keys = (publicKey: SandboxRSAPublicKey, privateKey: SandboxRSAPrivateKey?)

    static let shared = SandboxIdentityKeyCache()

    private let lock = NSLock()
    private var read: [SandboxJWK: Result<Keys, SandboxRSAKeyProblem>] = [:]
    private var derived: [String: SandboxRSAPrivateKey] = [:]

    /// The keys `jwk` holds, or what is wrong with it.
    func keys(for jwk: SandboxJWK) -> Result<Keys, SandboxRSAKeyProblem> {
        if let known = lock.withLock({ read[jwk] }) { return known }
        let result = jwk.rsaKeys()
        lock.withLock { read[jwk] = result }
        return result
    }

    /// The key pair derived from `issuer` (see ``SandboxRSAKeyDerivation``).
    func derivedKey(issuer: String) -> SandboxRSAPrivateKey {
        if let known = lock.withLock({ derived[issuer] }) { return known }
        let key = SandboxRSAKeyDerivation.keyPair(named: issuer)
        lock.withLock { derived[issuer] = key }
        return key
    }
}
