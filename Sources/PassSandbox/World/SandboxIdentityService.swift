/// How an application presents the tokens of an identity service, and so which single
/// sign-on method they serve.
public enum SandboxIdentityKind: String, Codable, Sendable, CaseIterable {
    /// The application's own identity service (a direct-to-consumer account, a third-party
    /// login): tokens go in `AD-Service-Token`; profiles shared through them have the type
    /// `serviceTokenSSO`.
    case serviceToken
    /// The device platform's identity: tokens go in `Adobe-Subject-Token`; profiles shared
    /// through them have the type `platformSSO`.
    case platformIdentity

    /// The request header that carries this kind of token.
    public var headerName: String {
        switch self {
        case .serviceToken: "AD-Service-Token"
        case .platformIdentity: "Adobe-Subject-Token"
        }
    }

    /// What the issuer is, in a sentence.
    var noun: String {
        switch self {
        case .serviceToken: "service token issuer"
        case .platformIdentity: "platform identity"
        }
    }
}

/// An identity service outside Adobe Pass whose public key Adobe Pass holds: it signs the
/// JWS an application sends in `AD-Service-Token` (a service token) or
/// `Adobe-Subject-Token` (a platform identity), and profiles signed in with one of its
/// tokens are shared with every application presenting a token for the same subject.
///
/// Every world has two: ``defaultServiceTokenIssuer`` and ``defaultPlatformIssuer``, with
/// fixed test keys. A world file may list more (or replace those two by listing their
/// issuer).
public struct SandboxIdentityService: Codable, Sendable, Equatable {
    /// The `iss` of its tokens.
    public var issuer: String
    /// Which header its tokens go in.
    public var kind: SandboxIdentityKind
    /// Its RSA key as a JWK: the public half (the sandbox verifies its tokens) or the whole
    /// key pair (the sandbox can also sign tokens for it). `nil`: a key pair derived from
    /// the issuer, the same in every sandbox.
    public var key: SandboxJWK?

    /// The issuer of the default service-token identity service.
    public static let defaultServiceTokenIssuer = "sandbox-identity"
    /// The issuer of the default platform identity.
    public static let defaultPlatformIssuer = "sandbox-platform"

    /// Creates an identity service.
    public init(issuer: String, kind: SandboxIdentityKind, key: SandboxJWK? = nil) {
        self.issuer = issuer
        self.kind = kind
        self.key = key
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case issuer, kind, key }

    /// The two identity services every world has, with their fixed test key pairs.
    public static let defaults: [SandboxIdentityService] = [
        SandboxIdentityService(
            issuer: defaultServiceTokenIssuer, kind: .serviceToken, key: SandboxDefaultIdentityKeys.serviceToken),
        SandboxIdentityService(
            issuer: defaultPlatformIssuer, kind: .platformIdentity, key: SandboxDefaultIdentityKeys.platformIdentity),
    ]
}

/// An RSA key in JSON Web Key form (RFC 7517, RFC 7518 §6.3): the numbers Base64URL-encoded
/// big-endian, without padding. `n` and `e` make the public key; `d` (and optionally the
/// primes `p`, `q` with `dp`, `dq`, `qi`) the private one.
public struct SandboxJWK: Codable, Sendable, Hashable {
    /// The key type: `RSA`.
    public var kty: String
    /// The key id the tokens' `kid` header may name.
    public var kid: String?
    /// The intended algorithm: `RS256` when present.
    public var alg: String?
    /// The intended use: `sig` when present.
    public var use: String?
    /// The modulus.
    public var n: String
    /// The public exponent (`AQAB` is 65537).
    public var e: String
    /// The private exponent.
    public var d: String?
    /// The first prime factor.
    public var p: String?
    /// The second prime factor.
    public var q: String?
    /// `d mod (p − 1)`.
    public var dp: String?
    /// `d mod (q − 1)`.
    public var dq: String?
    /// `q⁻¹ mod p`.
    public var qi: String?

    /// Creates a JWK from its members.
    public init(
        kty: String = "RSA", kid: String? = nil, alg: String? = nil, use: String? = nil, n: String, e: String,
        d: String? = nil, p: String? = nil, q: String? = nil, dp: String? = nil, dq: String? = nil, qi: String? = nil
    ) {
        self.kty = kty
        self.kid = kid
        self.alg = alg
        self.use = use
        self.n = n
        self.e = e
        self.d = d
        self.p = p
        self.q = q
        self.dp = dp
        self.dq = dq
        self.qi = qi
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case kty, kid, alg, use, n, e, d, p, q, dp, dq, qi }

    /// The public half: what an identity service hands over to Adobe Pass.
    public var publicKey: SandboxJWK {
        SandboxJWK(kty: kty, kid: kid, alg: alg, use: use, n: n, e: e)
    }
}
