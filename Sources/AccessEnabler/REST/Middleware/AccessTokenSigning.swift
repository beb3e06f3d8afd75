import Foundation

/// Signs an `/api/v2` request with the DCR access token (`Authorization: Bearer …`, first
/// header), and when the server refuses the token with `401`, has it dropped and renewed
/// once so the request is sent once more, as Adobe's `401` pages say. A second `401` is
/// returned as it is. ``RESTExchange`` applies it, outermost: a renewed token starts the
/// request's retries afresh.
///
/// A `401` never registers the application again by itself, whatever its `action` says (one
/// passing refusal must not sign the user out): the renewal asks the DCR token endpoint,
/// and only when that endpoint says the client itself is unknown (``ServerAdvice/clientUnknown``:
/// `invalid_client`) does ``AccessTokenProvider`` register again.
///
/// The token itself comes from ``AccessTokenProvider``, which registers, caches and shares
/// one renewal among concurrent callers; its DCR requests go through the same exchange,
/// unsigned.
struct AccessTokenSigning: Sendable {
    let provider: AccessTokenProvider
    /// The request's context: its `X-Device-Info` is what the provider sends to DCR if it
    /// has to register or renew. (The context, one reference, rather than the device
    /// information itself, 344 bytes: every waiting request's frames hold this value.)
    let context: RequestContext

    /// The token to sign with. A renewal that failed at the top of the task
    /// (``PreparedAccessToken``) is this request's failure, not renewed again.
    func token() async throws(RESTClientError) -> String {
        if let failure = PreparedAccessToken.current?.takeFailure(of: provider) { throw failure }
        return try await provider.token(for: context)
    }

    /// `rejected` was refused with a `401`: a renewed token.
    func renewed(after rejected: String) async throws(RESTClientError) -> String {
        await provider.invalidate(rejectedToken: rejected)
        return try await provider.token(for: context)
    }

    /// `request` with `Authorization: Bearer <token>` as its first header (replacing any).
    static func signed(_ request: HTTPRequestMessage, with token: String) -> HTTPRequestMessage {
        var signed = request
        let value = "Bearer " + token
        if let index = signed.headers.firstIndex(where: { $0.name == RESTHeaderName.authorization }) {
            signed.headers[index].value = value
        } else {
            signed.headers.insert((RESTHeaderName.authorization, value), at: 0)
        }
        return signed
    }
}
