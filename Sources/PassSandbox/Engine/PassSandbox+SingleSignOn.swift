import Foundation

/// Why the sandbox could not issue an identity token: the issuer asked for, and what stops it.
public struct SandboxIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The issuer asked for.
    public var issuer: String
    /// What stops it, in a sentence.
    public var problem: String

    /// `identity service "issuer": problem`.
    public var description: String { "identity service \"\(issuer)\": \(problem)" }

    /// Creates an error.
    public init(issuer: String, problem: String) {
        self.issuer = issuer
        self.problem = problem
    }
}

/// Single sign-on through a service token or a platform identity, seen from outside Adobe
/// Pass: the sandbox plays the identity service, and the MVPD ending sessions.
extension PassSandbox {
    /// A token of the identity service `issuer` (the platform, for a platform identity
    /// issuer such as `sandbox-platform`) for `subject`, as an application gets from it:
    /// a JWS signed RS256 with the issuer's private key, claims `iss`, `sub`, `aud` `Adobe`,
    /// `iat` the sandbox clock's current second and `exp` `iat + validFor` (seconds, rounded
    /// up), header `kid` when the issuer's key has one. Send it in `AD-Service-Token` (a
    /// service token issuer) or `Adobe-Subject-Token` (a platform identity).
    ///
    /// Throws ``SandboxIdentityError`` for an issuer the world does not have, one whose
    /// key the world gives without its private half, an empty subject, or a `validFor`
    /// that is not a finite number. A negative `validFor` makes a token that has already
    /// expired.
    public func issueIdentityToken(
        subject: String, issuer: String = "sandbox-identity", validFor: TimeInterval = 86_400
    ) throws -> String {
        let keyring = withEngine { $0.identityKeyring }
        guard let found = keyring.entry(issuer: issuer) else {
            throw SandboxIdentityError(
                issuer: issuer,
                problem:
                    "the world has no identity service with this issuer (it has \(keyring.issuers.joined(separator: ", ")))"
            )
        }
        let entry: SandboxIdentityKeyring.Entry
        switch found {
        case .failure(let problem):
            throw SandboxIdentityError(issuer: issuer, problem: "its key is unusable: \(problem.text)")
        case .success(let usable): entry = usable
        }
        guard let privateKey = entry.privateKey else {
            throw SandboxIdentityError(
                issuer: issuer, problem: "the world gives only its public key, so the sandbox cannot sign for it")
        }
        guard !subject.isEmpty else {
            throw SandboxIdentityError(issuer: issuer, problem: "the subject must not be empty")
        }
        guard validFor.isFinite, abs(validFor) < 1e12 else {
            throw SandboxIdentityError(issuer: issuer, problem: "validFor must be a finite number of seconds")
        }
        let issuedAt = clock.now.timeIntervalSince1970.rounded(.down)
        let claims = SandboxJWTClaims(
            issuer: issuer, subject: subject, audiences: ["Adobe"], issuedAt: issuedAt,
            expiresAt: issuedAt + validFor.rounded(.up), notBefore: nil)
        return SandboxJWS.sign(claims, keyID: entry.keyID, with: privateKey)
    }

    /// Ends every sign-in with `mvpd` at Adobe Pass, as a single logout from elsewhere (or
    /// the MVPD) would: the MVPD's profiles of every device, client and requestor — regular,
    /// partner single sign-on and degraded ones, and those shared through identity tokens —
    /// are deleted, so profile requests no longer list them and decisions answer
    /// `authenticated_profile_missing` until the user signs in again. TempPass windows stay.
    /// Returns how many profiles it deleted.
    @discardableResult
    public func serverLogout(mvpd: String) -> Int {
        withEngine { $0.deleteProfiles(mvpd: mvpd) }
    }
}
