import Foundation

/// An Adobe Pass enhanced error: the `{action, status, code, message, details, helpUrl,
/// trace}` object REST API V2 returns at top level (whole request refused) or at item
/// level (one decision denied).
struct SandboxEnhancedError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var action: String
    var details: String?
    /// The `WWW-Authenticate` challenge a `401` answer carries (RFC 9110 §11.6.1, RFC 6750
    /// §3); a `401` without one gets ``defaultBearerChallenge``.
    var challenge: String?

    static let helpURL =
        "https://experienceleague.adobe.com/docs/pass/authentication/auth-features/error-reportn/enhanced-error-codes.html"

    /// The error object; a fresh trace id each time.
    var json: SandboxJSON {
        .object(
            ("action", .string(action)),
            ("status", .int(Int64(status))),
            ("code", .string(code)),
            ("message", .string(message)),
            ("details", details.map(SandboxJSON.string)),
            ("helpUrl", .string(Self.helpURL)),
            ("trace", .string(UUID().uuidString.lowercased()))
        )
    }

    /// A top-level error response; a `401` names the Bearer scheme it expects.
    var response: SandboxResponse {
        var response = SandboxResponse.json(json, status: status)
        if status == 401 { response.headers.append(("WWW-Authenticate", challenge ?? Self.defaultBearerChallenge)) }
        return response
    }

    func with(details: String) -> SandboxEnhancedError {
        var copy = self
        copy.details = details
        return copy
    }

    /// The same error with a `WWW-Authenticate` challenge.
    func with(challenge: String) -> SandboxEnhancedError {
        var copy = self
        copy.challenge = challenge
        return copy
    }

    /// The realm every Bearer challenge names.
    static let bearerRealm = "Adobe Pass"

    /// The challenge of a request that sent a token the sandbox refuses.
    static let defaultBearerChallenge = bearerChallenge(error: "invalid_token", description: nil)

    /// `Bearer realm="Adobe Pass"`, with `error` and `error_description` when given (RFC
    /// 6750 §3: a request that sent no credentials gets no error code). The description
    /// keeps to the characters a quoted string may hold.
    static func bearerChallenge(error: String?, description: String?) -> String {
        var challenge = "Bearer realm=\"\(bearerRealm)\""
        if let error { challenge += ", error=\"\(error)\"" }
        if let description {
            let safe = String(
                decoding: description.utf8.map { byte in
                    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x7F
                        ? UInt8(ascii: "'") : byte
                }, as: UTF8.self)
            challenge += ", error_description=\"\(safe)\""
        }
        return challenge
    }
}

extension SandboxEnhancedError {
    // Messages, statuses and actions follow the REST API V2 list of the Enhanced Error
    // Codes page (the action is the group the code is listed under).

    static let invalidServiceProvider = Self(
        status: 400, code: "invalid_parameter_service_provider",
        message: "The service provider parameter value is missing or invalid.", action: "none")
    static let invalidMVPD = Self(
        status: 400, code: "invalid_parameter_mvpd", message: "The mvpd parameter value is missing or invalid.",
        action: "none")
    static let invalidCode = Self(
        status: 400, code: "invalid_parameter_code", message: "The code parameter value is missing or invalid.",
        action: "none")
    static let invalidResources = Self(
        status: 400, code: "invalid_parameter_resources",
        message: "The resources parameter value is missing or invalid.", action: "none")
    static let invalidRedirectURL = Self(
        status: 400, code: "invalid_parameter_redirect_url",
        message: "The redirect URL parameter value is missing or invalid.", action: "none")
    static let invalidPartner = Self(
        status: 400, code: "invalid_parameter_partner", message: "The partner parameter value is missing or invalid.",
        action: "none")
    static let invalidSAMLResponse = Self(
        status: 400, code: "invalid_parameter_saml_response",
        message: "The SAML response parameter value is missing or invalid.", action: "none")
    static let invalidDeviceInfo = Self(
        status: 400, code: "invalid_header_device_info",
        message: "The device information header value is missing or invalid.", action: "none")
    static let invalidDeviceIdentifier = Self(
        status: 400, code: "invalid_header_device_identifier",
        message: "The device identifier header value is missing or invalid.", action: "none")
    static let pfsAccessNotPresent = Self(
        status: 400, code: "invalid_header_pfs_permission_access_not_present",
        message: "The permission access status value from the partner framework status header is not present.",
        action: "none")
    static let pfsAccessNotDetermined = Self(
        status: 400, code: "invalid_header_pfs_permission_access_not_determined",
        message: "The permission access status value from the partner framework status header is undetermined.",
        action: "none")
    static let pfsAccessNotGranted = Self(
        status: 400, code: "invalid_header_pfs_permission_access_not_granted",
        message: "The permission access status value from the partner framework status header is not granted.",
        action: "none")
    static let pfsProviderNotDetermined = Self(
        status: 400, code: "invalid_header_pfs_provider_id_not_determined",
        message: "The provider id value from the partner framework status header is not associated with a known mvpd.",
        action: "none")
    static let pfsProviderMismatch = Self(
        status: 400, code: "invalid_header_pfs_provider_id_mismatch",
        message:
            "The provider id value from the partner framework status header does not match the mvpd sent as parameter.",
        action: "none")
    static let pfsProviderExpired = Self(
        status: 400, code: "invalid_header_pfs_provider_info_expired",
        message: "The provider information from the partner framework status header has expired.", action: "none")
    /// A request naming an MVPD whose integration with the service provider is disabled or
    /// gone (a dashboard change), with the action Adobe's enhanced error codes table files
    /// the code under: `none` (the SDK reads the code: the profile ends, and the configuration
    /// it holds is out of date).
    static let invalidIntegration = Self(
        status: 400, code: "invalid_integration",
        message: "The integration between the specified service provider and mvpd does not exist or is disabled.",
        action: "none")
    static let invalidAuthenticationSession = Self(
        status: 400, code: "invalid_authentication_session",
        message: "The authentication session associated with this request is missing or invalid.", action: "none")
    static let deniedByMVPD = Self(
        status: 403, code: "authorization_denied_by_mvpd",
        message: "The MVPD has returned a \"Deny\" decision when requesting authorization for the specified resource.",
        action: "none")
    static let deniedByDegradationRule = Self(
        status: 403, code: "authorization_denied_by_degradation_rule",
        message:
            "The integration between the specified service provider and MVPD has a degradation rule applied that denies authorization for the requested resources.",
        action: "none")
    static let preauthorizationDeniedByMVPD = Self(
        status: 403, code: "preauthorization_denied_by_mvpd",
        message:
            "The MVPD has returned a \"Deny\" decision when requesting pre-authorization for the specified resource.",
        action: "none")
    static let internalServerError = Self(
        status: 500, code: "internal_server_error", message: "The request failed due to an internal server error.",
        action: "none")
    static let tooManyResources = Self(
        status: 403, code: "too_many_resources",
        message:
            "The authorization or preauthorization request failed because too many resources were queried. Please contact support team to properly configure the authorization and preauthorization limitations.",
        action: "configuration")
    static let invalidAccessTokenServiceProvider = Self(
        status: 401, code: "invalid_access_token_service_provider",
        message: "The access token is invalid due to invalid service provider.", action: "application-registration")
    static let invalidAccessTokenClientApplication = Self(
        status: 401, code: "invalid_access_token_client_application",
        message: "The access token is invalid due to invalid client application.", action: "application-registration")
    static let profileMissing = Self(
        status: 403, code: "authenticated_profile_missing",
        message: "The authenticated profile associated with this request is missing.", action: "authentication")
    static let profileExpired = Self(
        status: 403, code: "authenticated_profile_expired",
        message: "The authenticated profile associated with this request has expired.", action: "authentication")
    static let profileInvalidated = Self(
        status: 403, code: "authenticated_profile_invalidated",
        message: "The authenticated profile associated with this request has been invalidated.",
        action: "authentication")
    static let tempPassDurationExceeded = Self(
        status: 403, code: "temporary_access_duration_limit_exceeded",
        message: "The temporary access duration limit has been exceeded.", action: "authentication")
    static let tempPassResourcesExceeded = Self(
        status: 403, code: "temporary_access_resources_limit_exceeded",
        message: "The temporary access resources limit has been exceeded.", action: "authentication")
    static let invalidTempPassIdentity = Self(
        status: 400, code: "invalid_header_identity_for_temporary_access",
        message: "The identity for temporary access header value is missing or invalid.", action: "none")
    /// Not in the REST API V2 list (which has no code for a wrong method): the sandbox's
    /// answer to a method an endpoint does not serve, with the 405 status the list allows.
    static let methodNotAllowed = Self(
        status: 405, code: "method_not_allowed", message: "The HTTP method is not allowed for the requested resource.",
        action: "none")
    /// Not in the REST API V2 list, which has no code for an identity token Adobe Pass
    /// refuses: named as the list names its other header errors, status 400, action `none`,
    /// with `details` saying what is wrong with the `AD-Service-Token`.
    static let invalidServiceToken = Self(
        status: 400, code: "invalid_header_service_token", message: "The service token header value is invalid.",
        action: "none")
    /// The same for the `Adobe-Subject-Token` (platform identity) header.
    static let invalidSubjectToken = Self(
        status: 400, code: "invalid_header_subject_token",
        message: "The subject token (platform identity) header value is invalid.", action: "none")
    /// Not in the REST API V2 list (which has no code for an unknown path): the sandbox's
    /// answer to a path no endpoint serves, with the 404 status the list allows.
    static let resourceNotFound = Self(
        status: 404, code: "resource_not_found", message: "The requested resource does not exist.", action: "none")
    /// Not in the REST API V2 list: the sandbox's answer to a body sent without the media
    /// type the endpoint's page requires (the page marks `Content-Type` required; the list's
    /// `invalid_header_*` codes answer a missing or invalid required header with 400).
    static let invalidContentType = Self(
        status: 400, code: "invalid_header_content_type",
        message: "The content type header value is missing or invalid.", action: "none")
    static let networkReceivedError = Self(
        status: 403, code: "network_received_error",
        message:
            "There was a read error while retrieving the response from the associated partner service. Retrying the request might solve the issue.",
        action: "retry")

    /// The error an injected status fault answers with.
    static func injected(status: Int) -> SandboxEnhancedError {
        var error: SandboxEnhancedError =
            switch status {
            case 401: invalidAccessTokenClientApplication
            case 403: networkReceivedError
            case 400..<500: invalidServiceProvider
            default: internalServerError
            }
        error.status = status
        return error
    }
}

extension SandboxResponse {
    static let jsonContentType = "application/json;charset=UTF-8"

    /// A JSON response.
    static func json(_ value: SandboxJSON, status: Int = 200) -> SandboxResponse {
        SandboxResponse(status: status, headers: [("Content-Type", jsonContentType)], body: value.bytes)
    }

    /// An HTML page.
    static func html(_ page: String, status: Int = 200) -> SandboxResponse {
        SandboxResponse(status: status, headers: [("Content-Type", "text/html;charset=UTF-8")], body: Array(page.utf8))
    }

    /// A `302 Found` to `location`, with `page` as its body (what a client that does not
    /// follow the redirect shows), or none.
    static func redirect(to location: String, page: String? = nil) -> SandboxResponse {
        SandboxResponse(
            status: 302, headers: [("Location", location), ("Content-Type", "text/html;charset=UTF-8")],
            body: Array((page ?? "").utf8))
    }

    /// A plain-text response.
    static func text(_ text: String, status: Int, headers: [(name: String, value: String)] = []) -> SandboxResponse {
        SandboxResponse(
            status: status, headers: [("Content-Type", "text/plain;charset=UTF-8")] + headers, body: Array(text.utf8))
    }
}
