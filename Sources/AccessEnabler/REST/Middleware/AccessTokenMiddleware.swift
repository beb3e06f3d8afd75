import Foundation

/// Signs an `/api/v2` request with the DCR access token (`Authorization: Bearer …`, first
/// header), and when the server refuses the token with `401`, drops it, renews it once and
/// sends the request once more, as Adobe's `401` pages say. A second `401` is returned as it
/// is.
///
/// A `401` never registers the application again by itself, whatever its `action` says (one
/// passing refusal must not sign the user out): the renewal asks the DCR token endpoint,
/// and only when that endpoint says the client itself is unknown (``ServerAdvice/clientUnknown``:
/// `invalid_client`) does ``AccessTokenProvider`` register again.
///
/// The token itself comes from ``AccessTokenProvider``, which registers, caches and shares
/// one renewal among concurrent callers; its DCR requests go through their own chain
/// (without this middleware).
struct AccessTokenMiddleware: RESTMiddleware {
    let provider: AccessTokenProvider
    /// The `X-Device-Info` the provider sends to DCR if it has to register or renew.
    let deviceInfo: DeviceInfo

    func intercept(
        _ request: HTTPRequestMessage, operation: RESTOperation, next: @escaping RESTNext
    ) async throws(RESTClientError) -> HTTPResponseMessage {
        let token = try await provider.token(deviceInfo: deviceInfo)
        let response = try await next(Self.signed(request, with: token))
        guard response.status == 401 else { return response }
        await provider.invalidate(rejectedToken: token)
        let renewed = try await provider.token(deviceInfo: deviceInfo)
        return try await next(Self.signed(request, with: renewed))
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
