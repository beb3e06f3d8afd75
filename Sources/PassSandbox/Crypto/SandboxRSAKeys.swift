/// What is wrong with an RSA key: the JWK member at fault (`n`, `e`, `d`, …; `nil` for the
/// key as a whole) and why.
struct SandboxRSAKeyProblem: Error, Sendable, Equatable {
    var member: String?
    var text: String
}

/// An RSA public key: verifies RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256).
struct SandboxRSAPublicKey: Sendable {
    /// RS256 keys are at least 2048 bits (RFC 7518 §3.3); the sandbox stops at 8192.
    static let bitWidths = 2048...8192

    let modulus: SandboxBigUInt
    let publicExponent: SandboxBigUInt
    /// The modulus's length in bytes: the length of every signature.
    let byteCount: Int
    private let arithmetic: SandboxMontgomery

    /// Checks the numbers: an odd modulus of 2048 to 8192 bits, an odd exponent of at least 3
    /// below the modulus.
    init(modulus: SandboxBigUInt, publicExponent: SandboxBigUInt) throws(SandboxRSAKeyProblem) {
        guard Self.bitWidths.contains(modulus.bitWidth) else {
            throw SandboxRSAKeyProblem(
                member: "n", text: "an RS256 key needs a modulus of 2048 to 8192 bits, found \(modulus.bitWidth)")
        }
        guard modulus.isOdd else { throw SandboxRSAKeyProblem(member: "n", text: "an RSA modulus is odd") }
        guard publicExponent.isOdd, publicExponent >= SandboxBigUInt(3), publicExponent < modulus else {
            throw SandboxRSAKeyProblem(
                member: "e", text: "the public exponent must be odd, at least 3 and below the modulus")
        }
        self.modulus = modulus
        self.publicExponent = publicExponent
        byteCount = (modulus.bitWidth + 7) / 8
        arithmetic = SandboxMontgomery(modulus: modulus)
    }

    /// `true` when `signature` is this key's RS256 signature of `message`: exactly as long
    /// as the modulus, below it, and its RSA image the expected EMSA-PKCS1-v1_5 encoding.
    func verifiesRS256(signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == byteCount else { return false }
        let representative = SandboxBigUInt(bigEndian: signature)
        guard representative < modulus,
            let recovered = arithmetic.power(representative, publicExponent).bigEndianBytes(count: byteCount),
            let expected = SandboxPKCS1.encodedSHA256(message, length: byteCount)
        else { return false }
        return recovered == expected
    }
}

/// An RSA private key: signs RS256, by the Chinese remainder theorem when the primes are
/// known (two half-size exponentiations, about four times faster).
struct SandboxRSAPrivateKey: Sendable {
    /// The primes and the exponents and coefficient the theorem needs.
    private struct PrimeFactors: Sendable {
        let p: SandboxBigUInt, q: SandboxBigUInt
        let dp: SandboxBigUInt, dq: SandboxBigUInt, qi: SandboxBigUInt
        let pArithmetic: SandboxMontgomery, qArithmetic: SandboxMontgomery
    }

    let publicKey: SandboxRSAPublicKey
    let privateExponent: SandboxBigUInt
    private let factors: PrimeFactors?
    private let arithmetic: SandboxMontgomery

    /// A private key from its numbers. `p` and `q` come together or not at all; `dp`, `dq`
    /// and `qi` are computed when missing and checked when given. The key must sign what
    /// `publicKey` verifies.
    init(
        publicKey: SandboxRSAPublicKey, privateExponent d: SandboxBigUInt,
        p: SandboxBigUInt? = nil, q: SandboxBigUInt? = nil,
        dp: SandboxBigUInt? = nil, dq: SandboxBigUInt? = nil, qi: SandboxBigUInt? = nil
    ) throws(SandboxRSAKeyProblem) {
        guard !d.isZero, d < publicKey.modulus else {
            throw SandboxRSAKeyProblem(
                member: "d", text: "the private exponent must be above zero and below the modulus")
        }
        self.publicKey = publicKey
        privateExponent = d
        arithmetic = SandboxMontgomery(modulus: publicKey.modulus)
        switch (p, q) {
        case (nil, nil):
            guard dp == nil, dq == nil, qi == nil else {
                throw SandboxRSAKeyProblem(member: "p", text: "dp, dq and qi need the primes p and q")
            }
            factors = nil
        case (let p?, let q?):
            let one = SandboxBigUInt(1)
            guard p > one, q > one, p * q == publicKey.modulus, p.isOdd, q.isOdd else {
                throw SandboxRSAKeyProblem(member: "p", text: "p × q must equal the modulus n")
            }
            let expectedDP = d % (p - one), expectedDQ = d % (q - one)
            guard let expectedQI = q.inverse(modulo: p) else {
                throw SandboxRSAKeyProblem(member: "q", text: "q has no inverse modulo p")
            }
            if let dp, dp != expectedDP { throw SandboxRSAKeyProblem(member: "dp", text: "dp must be d mod (p − 1)") }
            if let dq, dq != expectedDQ { throw SandboxRSAKeyProblem(member: "dq", text: "dq must be d mod (q − 1)") }
            if let qi, qi != expectedQI {
                throw SandboxRSAKeyProblem(member: "qi", text: "qi must be the inverse of q modulo p")
            }
            factors = PrimeFactors(
                p: p, q: q, dp: expectedDP, dq: expectedDQ, qi: expectedQI,
                pArithmetic: SandboxMontgomery(modulus: p), qArithmetic: SandboxMontgomery(modulus: q))
        default:
            throw SandboxRSAKeyProblem(member: p == nil ? "p" : "q", text: "p and q come together")
        }
        let probe = Array("PassSandbox key check".utf8)
        guard publicKey.verifiesRS256(signature: signRS256(probe), of: probe) else {
            throw SandboxRSAKeyProblem(
                member: "d", text: "the private key does not match the public key (n, e): its signatures do not verify")
        }
    }

    /// The RS256 signature of `message`: the EMSA-PKCS1-v1_5 encoding of its SHA-256
    /// digest raised to the private exponent, as many bytes as the modulus.
    func signRS256(_ message: [UInt8]) -> [UInt8] {
        let byteCount = publicKey.byteCount
        // The encoding always fits: the smallest allowed modulus has 256 bytes.
        let representative = SandboxBigUInt(bigEndian: SandboxPKCS1.encodedSHA256(message, length: byteCount) ?? [])
        let signature: SandboxBigUInt
        if let factors {
            // Garner's recombination: s = s_q + q·(qi·(s_p − s_q) mod p).
            let sp = factors.pArithmetic.power(representative % factors.p, factors.dp)
            let sq = factors.qArithmetic.power(representative % factors.q, factors.dq)
            let sqModP = sq % factors.p
            let difference = sp >= sqModP ? sp - sqModP : factors.p - (sqModP - sp)
            let h = (factors.qi * difference) % factors.p
            signature = sq + factors.q * h
        } else {
            signature = arithmetic.power(representative, privateExponent)
        }
        return signature.bigEndianBytes(count: byteCount) ?? []
    }
}
