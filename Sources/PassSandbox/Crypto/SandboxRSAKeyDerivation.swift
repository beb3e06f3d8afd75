/// Derives a 2048-bit RSA key pair from a name, the same one every time: the key of an
/// identity service a world file lists without one. The search is deterministic (a
/// HMAC-SHA-256 stream seeded by the name feeds the prime search), so every sandbox, in
/// every process, derives the same key for the same issuer — a test key, which anyone who
/// knows the name can derive too.
enum SandboxRSAKeyDerivation {
    /// The public exponent of derived keys (F4).
    static let publicExponent = SandboxBigUInt(65_537)
    /// Miller–Rabin rounds per prime: FIPS 186-4 table C.2 asks 5 for 1024-bit primes
    /// (error below 2⁻¹⁰⁰); 8 leaves a margin.
    static let millerRabinRounds = 8

    /// The key pair derived from `name`.
    static func keyPair(named name: String) -> SandboxRSAPrivateKey {
        var stream = DeterministicStream(
            seed: SandboxHMAC.sha256(Array("PassSandbox derived RSA key v1\u{0}\(name)".utf8)))
        let one = SandboxBigUInt(1)
        while true {
            let p = prime(bits: 1024, from: &stream)
            let q = prime(bits: 1024, from: &stream)
            guard p != q else { continue }
            let lambda = ((p - one) * (q - one)) / SandboxBigUInt.gcd(p - one, q - one)
            guard let d = publicExponent.inverse(modulo: lambda),
                let publicKey = try? SandboxRSAPublicKey(modulus: p * q, publicExponent: publicExponent),
                let privateKey = try? SandboxRSAPrivateKey(
                    publicKey: publicKey, privateExponent: d, p: max(p, q), q: min(p, q))
            else { continue }
            return privateKey
        }
    }

    /// The first probable prime of exactly `bits` bits (the top two set, so a product of
    /// two has twice as many) at or after a candidate drawn from `stream`, with `p − 1`
    /// prime to the public exponent. Candidates are sieved by the small primes, their
    /// residues updated as the candidate steps by two, before the costly test.
    static func prime(bits: Int, from stream: inout DeterministicStream) -> SandboxBigUInt {
        let smallPrimes = SandboxSmallPrimes.all.dropFirst()  // 2 divides no odd candidate
        let exponent = publicExponent.limbs[0]
        while true {
            var bytes = stream.next(byteCount: bits / 8)
            bytes[0] |= 0xc0
            bytes[bytes.count - 1] |= 1
            let base = SandboxBigUInt(bigEndian: bytes)
            let residues = smallPrimes.map { base.remainder(dividingBy: $0) }
            let baseModExponent = base.remainder(dividingBy: exponent)
            // Steps of 2 from the base; 2^16 steps stay far below the next bit width.
            for step in stride(from: UInt64(0), to: 1 << 16, by: 2) {
                var survives = (baseModExponent + step) % exponent != 1
                if survives {
                    for (index, small) in zip(residues.indices, smallPrimes) where (residues[index] + step) % small == 0
                    {
                        survives = false
                        break
                    }
                }
                guard survives else { continue }
                let candidate = base + SandboxBigUInt(step)
                guard candidate.bitWidth == bits, candidate.passesMillerRabin(bases: [SandboxBigUInt(2)]) else {
                    continue
                }
                let bases = (0..<millerRabinRounds).map { _ in randomBase(below: candidate, from: &stream) }
                if candidate.passesMillerRabin(bases: bases) { return candidate }
            }
        }
    }

    /// A number in `2 … n−2` drawn from `stream`.
    private static func randomBase(below n: SandboxBigUInt, from stream: inout DeterministicStream) -> SandboxBigUInt {
        let drawn = SandboxBigUInt(bigEndian: stream.next(byteCount: (n.bitWidth + 7) / 8 + 8))
        return drawn % (n - SandboxBigUInt(3)) + SandboxBigUInt(2)
    }

    /// HMAC-SHA-256 in counter mode: block i is HMAC(seed, i).
    struct DeterministicStream {
        let seed: [UInt8]
        var counter: UInt64 = 0

        mutating func next(byteCount: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(byteCount + 32)
            while bytes.count < byteCount {
                let block = (0..<8).map { UInt8(truncatingIfNeeded: counter >> UInt64(56 - 8 * $0)) }
                bytes += SandboxHMAC.authenticationCode(key: seed, message: block)
                counter += 1
            }
            return Array(bytes.prefix(byteCount))
        }
    }
}
