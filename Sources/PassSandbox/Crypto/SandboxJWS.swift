import Foundation

/// Why an identity token was refused, in words that say what to fix.
enum SandboxJWSProblem: Error, Sendable, Equatable {
    case notCompact
    case notBase64URL(part: String)
    case headerNotJSON
    case algorithm(String?)
    case payloadNotJSON
    case claim(String, String)
    case unknownIssuer(String)
    case wrongKind(issuer: String, kind: SandboxIdentityKind)
    case unusableKey(issuer: String, problem: String)
    case keyIDMismatch(found: String, expected: String)
    case signature(issuer: String)
    case audience([String])
    case expired(at: Double)
    case notYetValid(until: Double)

    /// One sentence for the enhanced error's `details`.
    var text: String {
        switch self {
        case .notCompact:
            "The token is not a JWS in compact form: three Base64URL parts (header, payload, signature) separated by dots."
        case .notBase64URL(let part):
            "The token's \(part) is not Base64URL (letters, digits, \"-\" and \"_\", no padding)."
        case .headerNotJSON:
            "The token's header is not a JSON object."
        case .algorithm(let found?):
            "The token is signed with \"\(found)\"; Adobe Pass accepts RS256 (SHA256withRSA) only."
        case .algorithm(nil):
            "The token's header names no algorithm (\"alg\"); Adobe Pass accepts RS256 only."
        case .payloadNotJSON:
            "The token's payload is not a JSON object."
        case .claim(let name, let expected):
            "The token's claim \"\(name)\" must be \(expected)."
        case .unknownIssuer(let issuer):
            "The token's issuer \"\(issuer)\" is not an identity service of this world; its public key was never handed over."
        case .wrongKind(let issuer, let kind):
            "The issuer \"\(issuer)\" is a \(kind.noun); send its tokens in the \(kind.headerName) header."
        case .unusableKey(let issuer, let problem):
            "The world's key for the issuer \"\(issuer)\" is unusable: \(problem)."
        case .keyIDMismatch(let found, let expected):
            "The token names the key \"\(found)\", but its issuer's key is \"\(expected)\"."
        case .signature(let issuer):
            "The token's signature does not verify with the public key of \"\(issuer)\": it was altered or signed with another key."
        case .audience(let found):
            "The token's audience is \(found.map { "\"\($0)\"" }.joined(separator: ", ")); it must be \"Adobe\"."
        case .expired(let seconds):
            "The token expired at \(Self.timestamp(seconds)); get a new one from the identity service."
        case .notYetValid(let seconds):
            "The token is not valid before \(Self.timestamp(seconds))."
        }
    }

    private static func timestamp(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}

/// A JWS in compact serialization (RFC 7515 §7.1) whose header names RS256: the header's
/// key id, the claims, and what the signature covers. Parsing checks the form only; the
/// signature is checked against a key with ``verifies(with:)``.
struct SandboxJWS: Sendable {
    /// The only algorithm accepted: SHA256withRSA, as both header pages require.
    static let algorithm = "RS256"

    /// `kid` from the header, when present.
    let keyID: String?
    let claims: SandboxJWTClaims
    /// `BASE64URL(header) "." BASE64URL(payload)`, the bytes the signature covers.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Splits and decodes `compact`; refuses any algorithm but RS256 (`none` and `HS256`
    /// included) before looking at the payload.
    static func parse(_ compact: String) -> Result<SandboxJWS, SandboxJWSProblem> {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { return .failure(.notCompact) }
        guard let headerBytes = SandboxBase64URL.decode(parts[0]) else {
            return .failure(.notBase64URL(part: "header"))
        }
        guard let payloadBytes = SandboxBase64URL.decode(parts[1]) else {
            return .failure(.notBase64URL(part: "payload"))
        }
        guard let signature = SandboxBase64URL.decode(parts[2]) else {
            return .failure(.notBase64URL(part: "signature"))
        }
        guard let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes), options: [])) as? [String: Any]
        else {
            return .failure(.headerNotJSON)
        }
        guard let algorithm = header["alg"] as? String, algorithm == Self.algorithm else {
            return .failure(.algorithm(header["alg"].map { "\($0)" }))
        }
        let keyID: String?
        switch header["kid"] {
        case nil: keyID = nil
        case let text as String: keyID = text
        default: return .failure(.claim("kid", "a string"))
        }
        return SandboxJWTClaims.parse(payloadBytes).map { claims in
            SandboxJWS(
                keyID: keyID, claims: claims,
                signingInput: Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8), signature: signature)
        }
    }

    /// `true` when the signature is `key`'s RS256 signature of the signing input.
    func verifies(with key: SandboxRSAPublicKey) -> Bool {
        key.verifiesRS256(signature: signature, of: signingInput)
    }

    /// A compact JWS of `claims` signed with `key` (header `{"alg":"RS256","typ":"JWT"}`,
    /// plus `kid` when given).
    static func sign(_ claims: SandboxJWTClaims, keyID: String?, with key: SandboxRSAPrivateKey) -> String {
        let header = SandboxJSON.object(
            ("alg", .string(algorithm)), ("typ", .string("JWT")), ("kid", keyID.map(SandboxJSON.string)))
        let signingInput = SandboxBase64URL.encode(header.bytes) + "." + SandboxBase64URL.encode(claims.json)
        return signingInput + "." + SandboxBase64URL.encode(key.signRS256(Array(signingInput.utf8)))
    }
}
