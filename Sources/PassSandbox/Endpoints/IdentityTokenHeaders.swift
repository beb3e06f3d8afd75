import Foundation

/// Which header carried which token: the key of a verified token in the engine's cache.
struct VerifiedTokenKey: Hashable, Sendable {
    let kind: SandboxIdentityKind
    let token: String
}

/// The single sign-on headers: `AD-Service-Token` (a service token) and
/// `Adobe-Subject-Token` (a platform identity), read on the requests whose API pages list
/// them — `POST sessions`, `GET profiles`, `GET profiles/{mvpd}`, decisions, logout.
extension SandboxEngine {
    /// How many verified tokens are remembered; past it the memory starts over.
    static let maximumVerifiedTokens = 1_000

    /// The identities the request's tokens vouch for (none when it presents none). A token
    /// that does not verify refuses the request: `400 invalid_header_service_token` or
    /// `invalid_header_subject_token`, `details` saying what is wrong (never the token).
    func presentedIdentities(_ request: SandboxRequest, now: Date) throws(SandboxEnhancedError) -> [VerifiedIdentity] {
        var identities: [VerifiedIdentity] = []
        for kind in SandboxIdentityKind.allCases {
            guard let header = request.header(kind.headerName) else { continue }
            let refusal = kind == .serviceToken ? SandboxEnhancedError.invalidServiceToken : .invalidSubjectToken
            let token = HTTPASCII.trimmingSpaces(header)
            guard !token.isEmpty else { throw refusal.with(details: "The \(kind.headerName) header is empty.") }
            switch verify(token, presentedAs: kind, now: now) {
            case .success(let identity): identities.append(identity)
            case .failure(let problem): throw refusal.with(details: problem.text)
            }
        }
        return identities
    }

    /// Verifies `token`, the signature only the first time it is seen.
    private func verify(_ token: String, presentedAs kind: SandboxIdentityKind, now: Date) -> Result<
        VerifiedIdentity, SandboxJWSProblem
    > {
        let key = VerifiedTokenKey(kind: kind, token: token)
        if let known = verifiedTokens[key] {
            return SandboxIdentityKeyring.checkTimesAndAudience(known.claims, now: now).map { known.identity }
        }
        switch identityKeyring.verify(token, presentedAs: kind, now: now) {
        case .failure(let problem):
            return .failure(problem)
        case .success(let verified):
            if verifiedTokens.count >= Self.maximumVerifiedTokens { verifiedTokens.removeAll() }
            verifiedTokens[key] = verified
            return .success(verified.identity)
        }
    }
}
