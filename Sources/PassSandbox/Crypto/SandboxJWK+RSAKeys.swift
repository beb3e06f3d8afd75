extension SandboxJWK {
    /// The RSA keys this JWK holds: the public key always, the private key when `d` is
    /// present. Refuses another key type, algorithm or use, numbers that are not Base64URL,
    /// keys outside 2048…8192 bits, and private numbers that do not match the public ones.
    func rsaKeys() -> Result<(publicKey: SandboxRSAPublicKey, privateKey: SandboxRSAPrivateKey?), SandboxRSAKeyProblem>
    {
        do throws(SandboxRSAKeyProblem) {
            guard kty == "RSA" else {
                throw SandboxRSAKeyProblem(member: "kty", text: "expected \"RSA\", found \"\(kty)\"")
            }
            if let alg, alg != SandboxJWS.algorithm {
                throw SandboxRSAKeyProblem(member: "alg", text: "expected \"RS256\", found \"\(alg)\"")
            }
            if let use, use != "sig" {
                throw SandboxRSAKeyProblem(member: "use", text: "expected \"sig\", found \"\(use)\"")
            }
            let publicKey = try SandboxRSAPublicKey(
                modulus: try Self.number(n, member: "n"), publicExponent: try Self.number(e, member: "e"))
            guard let d else {
                if let member = [("p", p), ("q", q), ("dp", dp), ("dq", dq), ("qi", qi)].first(where: { $0.1 != nil })?
                    .0
                {
                    throw SandboxRSAKeyProblem(
                        member: member, text: "a private key member needs the private exponent \"d\"")
                }
                return .success((publicKey, nil))
            }
            func optional(_ text: String?, _ member: String) throws(SandboxRSAKeyProblem) -> SandboxBigUInt? {
                guard let text else { return nil }
                return try Self.number(text, member: member)
            }
            let privateKey = try SandboxRSAPrivateKey(
                publicKey: publicKey, privateExponent: try Self.number(d, member: "d"),
                p: try optional(p, "p"), q: try optional(q, "q"),
                dp: try optional(dp, "dp"), dq: try optional(dq, "dq"), qi: try optional(qi, "qi"))
            return .success((publicKey, privateKey))
        } catch {
            return .failure(error)
        }
    }

    /// A positive number from its Base64URL big-endian bytes (padding tolerated).
    private static func number(_ text: String, member: String) throws(SandboxRSAKeyProblem) -> SandboxBigUInt {
        var trimmed = Substring(text)
        while trimmed.hasSuffix("=") { trimmed.removeLast() }
        guard !trimmed.isEmpty, let bytes = SandboxBase64URL.decode(trimmed) else {
            throw SandboxRSAKeyProblem(member: member, text: "not a Base64URL-encoded number")
        }
        let value = SandboxBigUInt(bigEndian: bytes)
        guard !value.isZero else { throw SandboxRSAKeyProblem(member: member, text: "must not be zero") }
        return value
    }
}
