import Foundation

/// The claims of an identity token (the `AD-Service-Token` and `Adobe-Subject-Token` header
/// pages): who issued it, whom it names, for whom, and when it is valid. Times are
/// seconds since 1970 (JWT NumericDate).
struct SandboxJWTClaims: Sendable, Equatable {
    /// `iss`: the identity service.
    var issuer: String
    /// `sub`: the user (or platform) the identity service vouches for.
    var subject: String
    /// `aud`: the audiences; Adobe Pass expects `Adobe`.
    var audiences: [String]
    /// `iat`, when present.
    var issuedAt: Double?
    /// `exp`: the token is refused from this second on.
    var expiresAt: Double
    /// `nbf`, when present: the token is refused before it.
    var notBefore: Double?

    /// The payload as compact JSON (keys in the header page's order).
    var json: [UInt8] {
        var pairs: [(String, SandboxJSON?)] = [
            ("iss", .string(issuer)),
            ("sub", .string(subject)),
            ("aud", audiences.count == 1 ? .string(audiences[0]) : .array(audiences.map(SandboxJSON.string))),
            ("iat", issuedAt.map(Self.numericDate)),
            ("exp", Self.numericDate(expiresAt)),
        ]
        if let notBefore { pairs.append(("nbf", Self.numericDate(notBefore))) }
        return SandboxJSON.object(pairs.compactMap { key, value in value.map { (key, $0) } }).bytes
    }

    private static func numericDate(_ seconds: Double) -> SandboxJSON {
        seconds == seconds.rounded() && abs(seconds) < 9e15 ? .int(Int64(seconds)) : .double(seconds)
    }

    /// Reads a JWT payload, or says which claim is missing or of the wrong type.
    static func parse(_ payload: [UInt8]) -> Result<SandboxJWTClaims, SandboxJWSProblem> {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(payload), options: [])) as? [String: Any]
        else {
            return .failure(.payloadNotJSON)
        }
        guard let issuer = object["iss"] as? String, !issuer.isEmpty else {
            return .failure(.claim("iss", "a non-empty string"))
        }
        guard let subject = object["sub"] as? String, !subject.isEmpty else {
            return .failure(.claim("sub", "a non-empty string"))
        }
        let audiences: [String]
        switch object["aud"] {
        case let single as String: audiences = [single]
        case let list as [Any] where !list.isEmpty && list.allSatisfy({ $0 is String }):
            audiences = list.compactMap { $0 as? String }
        default: return .failure(.claim("aud", "a string or an array of strings"))
        }
        guard let expiresAt = number(object["exp"]) else {
            return .failure(.claim("exp", "a number of seconds since 1970"))
        }
        var claims = SandboxJWTClaims(
            issuer: issuer, subject: subject, audiences: audiences, issuedAt: nil, expiresAt: expiresAt, notBefore: nil)
        if let issuedAt = object["iat"] {
            guard let seconds = number(issuedAt) else {
                return .failure(.claim("iat", "a number of seconds since 1970"))
            }
            claims.issuedAt = seconds
        }
        if let notBefore = object["nbf"] {
            guard let seconds = number(notBefore) else {
                return .failure(.claim("nbf", "a number of seconds since 1970"))
            }
            claims.notBefore = seconds
        }
        return .success(claims)
    }

    /// A JSON number (not a boolean, which `JSONSerialization` also hands over as a number).
    private static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let double = number.doubleValue
        return double.isFinite ? double : nil
    }
}
