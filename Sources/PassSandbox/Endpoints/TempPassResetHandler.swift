import Foundation

/// `DELETE /reset-tempass/v3/reset?requestor_id=…&mvpd_id=…[&device_id=…]`: Adobe's
/// TempPass reset, as the TempPass feature page describes it. A management API, called
/// with a DCR access token (`Authorization: Bearer …`), not a device's request.
///
/// Answers, as the page lists them: `204` (reset), `400` (a required parameter missing, or
/// one the world does not know), `401` (no valid access token: get a new one), `403` (the
/// token's client may not act for that requestor: register a client whose software
/// statement covers it). The page gives no error body; the sandbox's follow RFC 6750, the
/// scheme of the bearer token: `{"error": "invalid_request" | "invalid_token" |
/// "insufficient_scope", "error_description": …}`, with a `WWW-Authenticate` challenge on
/// `401` and `403`.
extension SandboxEngine {
    func resetTempPassRequest(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        let grant: AccessTokenGrant
        switch bearerGrant(request, now: now) {
        case .success(let found): grant = found
        case .failure(let problem):
            var response = Self.oauthError(problem.error ?? "invalid_token", status: 401, description: problem.details)
            response.headers.append(
                (
                    "WWW-Authenticate",
                    SandboxEnhancedError.bearerChallenge(
                        error: problem.error, description: problem.error == nil ? nil : problem.details)
                ))
            return response
        }
        guard let requestorID = Self.parameter("requestor_id", of: request) else {
            return Self.oauthError(
                "invalid_request",
                description: "requestor_id is required: the service provider (requestor) whose TempPass to reset.")
        }
        guard let mvpdID = Self.parameter("mvpd_id", of: request) else {
            return Self.oauthError("invalid_request", description: "mvpd_id is required: the TempPass MVPD to reset.")
        }
        guard let provider = world.serviceProvider(requestorID) else {
            return Self.oauthError(
                "invalid_request",
                description: "requestor_id \(SignInRefusal.shown(requestorID)) is not a service provider of this world."
            )
        }
        guard world.softwareStatements[grant.statement]?.contains(requestorID) == true else {
            let details =
                "The access token's client may not act for \(requestorID); register with a software statement that covers it."
            var response = Self.oauthError("insufficient_scope", status: 403, description: details)
            response.headers.append(
                (
                    "WWW-Authenticate",
                    SandboxEnhancedError.bearerChallenge(error: "insufficient_scope", description: details)
                ))
            return response
        }
        guard let mvpd = provider.mvpd(mvpdID), mvpd.tempPass else {
            return Self.oauthError(
                "invalid_request",
                description: "mvpd_id \(SignInRefusal.shown(mvpdID)) is not a TempPass MVPD of \(requestorID).")
        }
        let device = Self.parameter("device_id", of: request)
        if let device, device.lowercased() != "all" {
            // Adobe's identifier as the device knows it, or as the sandbox shows it (the
            // Base64 of `AP-Device-Identifier`, with or without `fingerprint `).
            var keys = [Data(device.utf8).base64EncodedString()]
            if let shown = Self.fingerprint(in: device) ?? (HTTPASCII.isBase64(device) ? device : nil) {
                keys.append(shown)
            }
            for key in Set(keys) { _ = resetTempPass(mvpd: mvpd.id, deviceID: key, serviceProvider: requestorID) }
        } else {
            _ = resetTempPass(mvpd: mvpd.id, deviceID: nil, serviceProvider: requestorID)
        }
        return SandboxResponse(status: 204)
    }

    /// A query parameter's value, `nil` when missing or empty.
    private static func parameter(_ name: String, of request: SandboxRequest) -> String? {
        guard let value = request.queryValue(name)?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        return value
    }
}
