import Foundation

/// Who an identity token vouches for, once verified: the issuer (whose kind says which
/// header carried it) and the subject.
struct VerifiedIdentity: Hashable, Sendable {
    let issuer: String
    let subject: String
    let kind: SandboxIdentityKind

    /// The key of this identity's single sign-on profile with `mvpd`.
    func singleSignOnKey(mvpd: String) -> SingleSignOnKey {
        SingleSignOnKey(issuer: issuer, subject: subject, mvpd: mvpd)
    }
}

/// The keys of a world's identity services, by issuer: they verify the tokens applications
/// present and sign the tokens the sandbox issues as an identity service.
struct SandboxIdentityKeyring: Sendable {
    /// One identity service's key, ready to use.
    struct Entry: Sendable {
        let kind: SandboxIdentityKind
        let keyID: String?
        let publicKey: SandboxRSAPublicKey
        /// `nil` when the world gave only the public key.
        let privateKey: SandboxRSAPrivateKey?
    }

    /// The issuers and their keys (or why a key is unusable: a world built in code is not
    /// checked as a world file is).
    private let entries: [String: (kind: SandboxIdentityKind, key: Result<Entry, SandboxRSAKeyProblem>)]

    /// The keyring of `services` (a world's identity services in force). Keys are read or
    /// derived at once, so no request waits for a prime search.
    init(services: [SandboxIdentityService]) {
        var entries: [String: (kind: SandboxIdentityKind, key: Result<Entry, SandboxRSAKeyProblem>)] = [:]
        for service in services {
            let key: Result<Entry, SandboxRSAKeyProblem>
            if let jwk = service.key {
                key = SandboxIdentityKeyCache.shared.keys(for: jwk).map {
                    Entry(kind: service.kind, keyID: jwk.kid, publicKey: $0.publicKey, privateKey: $0.privateKey)
                }
            } else {
                let derived = SandboxIdentityKeyCache.shared.derivedKey(issuer: service.issuer)
                key = .success(Entry(kind: service.kind, keyID: nil, publicKey: derived.publicKey, privateKey: derived))
            }
            entries[service.issuer] = (service.kind, key)
        }
        self.entries = entries
    }

    /// Every issuer, sorted.
    var issuers: [String] { entries.keys.sorted() }

    /// The key of `issuer`: `nil` for an unknown issuer, a failure when its key is unusable.
    func entry(issuer: String) -> Result<Entry, SandboxRSAKeyProblem>? {
        entries[issuer]?.key
    }

    /// Verifies a token presented in `kind`'s header at `now`, in the order that gives the
    /// most useful answer: its form and algorithm, its issuer, the kind of that issuer, the
    /// key id, the signature, then (trusting the claims only now) audience and validity.
    func verify(_ compact: String, presentedAs kind: SandboxIdentityKind, now: Date) -> Result<
        (identity: VerifiedIdentity, claims: SandboxJWTClaims), SandboxJWSProblem
    > {
        let token: SandboxJWS
        switch SandboxJWS.parse(compact) {
        case .failure(let problem): return .failure(problem)
        case .success(let parsed): token = parsed
        }
        let issuer = token.claims.issuer
        guard let known = entries[issuer] else { return .failure(.unknownIssuer(issuer)) }
        guard known.kind == kind else { return .failure(.wrongKind(issuer: issuer, kind: known.kind)) }
        let entry: Entry
        switch known.key {
        case .failure(let problem): return .failure(.unusableKey(issuer: issuer, problem: problem.text))
        case .success(let found): entry = found
        }
        if let presented = token.keyID, let expected = entry.keyID, presented != expected {
            return .failure(.keyIDMismatch(found: presented, expected: expected))
        }
        guard token.verifies(with: entry.publicKey) else { return .failure(.signature(issuer: issuer)) }
        return Self.checkTimesAndAudience(token.claims, now: now).map {
            (VerifiedIdentity(issuer: issuer, subject: token.claims.subject, kind: kind), token.claims)
        }
    }

    /// The audience (`Adobe`, in any case: the header page writes "Adobe", its example
    /// `adobe`) and the validity window at `now`.
    static func checkTimesAndAudience(_ claims: SandboxJWTClaims, now: Date) -> Result<Void, SandboxJWSProblem> {
        guard claims.audiences.contains(where: { $0.caseInsensitiveCompare("Adobe") == .orderedSame }) else {
            return .failure(.audience(claims.audiences))
        }
        let seconds = now.timeIntervalSince1970
        guard seconds < claims.expiresAt else { return .failure(.expired(at: claims.expiresAt)) }
        if let notBefore = claims.notBefore, seconds < notBefore { return .failure(.notYetValid(until: notBefore)) }
        return .success(())
    }
}
