import Foundation

/// Turns REST client failures into the legacy advanced status codes, per flow.
enum ErrorClassification {
    /// `setRequestor` failures: R400 (software statement refused at registration), R401 (no
    /// access token), CFG400 (requestor refused), CFG404 (server unreachable), CFG5xx.
    static func requestorStatus(_ error: RESTClientError) -> AdvancedStatus {
        let message = error.message
        switch error {
        case .server(let operation, let httpStatus, let enhanced):
            switch operation {
            case .dcrRegister where httpStatus >= 500, .dcrToken where httpStatus >= 500:
                // The registration service failing is the servers' trouble, not a refused statement.
                return StatusCatalog.status(.cfg5xx(httpStatus), message: message, details: enhanced?.details, enhancedError: enhanced)
            case .dcrRegister: return StatusCatalog.status(.r400, message: message, details: enhanced?.details, enhancedError: enhanced)
            case .dcrToken: return StatusCatalog.status(.r401, message: message, details: enhanced?.details, enhancedError: enhanced)
            default:
                if httpStatus >= 500 { return StatusCatalog.status(.cfg5xx(httpStatus), message: message, details: enhanced?.details, enhancedError: enhanced) }
                if httpStatus == 401 { return StatusCatalog.status(.r401, message: message, details: enhanced?.details, enhancedError: enhanced) }
                return StatusCatalog.status(.cfg400, message: message, details: enhanced?.details, enhancedError: enhanced)
            }
        case .transport:
            return StatusCatalog.status(.cfg404, message: message)
        case .throttled:
            return StatusCatalog.status(.cfg429, message: message)
        case .undocumentedStatus(_, let httpStatus):
            return StatusCatalog.status(httpStatus >= 500 ? .cfg5xx(httpStatus) : .cfg400, message: message)
        case .malformedBody:
            return StatusCatalog.status(.cfg5xx(500), message: message)
        default:
            return StatusCatalog.status(.cfg400, message: message)
        }
    }

    /// Authentication failures: N130 when the session or its code is missing or expired,
    /// N500 otherwise.
    static func authenticationStatus(_ error: RESTClientError) -> AdvancedStatus {
        if case .server(_, let httpStatus, let enhanced) = error {
            let code = enhanced?.code ?? ""
            if code.contains("session") || code.contains("code") || code == "authenticated_profile_missing" || httpStatus == 404 {
                return StatusCatalog.status(.n130, message: error.message, details: enhanced?.details, enhancedError: enhanced)
            }
            return StatusCatalog.status(.n500, message: error.message, details: enhanced?.details, enhancedError: enhanced)
        }
        return StatusCatalog.status(.n500, message: error.message)
    }

    /// Whether `error` says the authentication session (or its code) no longer exists —
    /// expired, unknown, invalidated — so polling it again is pointless.
    static func isSessionGone(_ error: RESTClientError) -> Bool {
        guard case .server(_, let httpStatus, let enhanced) = error else { return false }
        if httpStatus == 404 || httpStatus == 410 { return true }
        switch enhanced?.code {
        case "invalid_authentication_session", "invalid_parameter_code", "authentication_session_missing",
             "authentication_session_expired", "authentication_session_invalidated":
            return true
        default:
            return false
        }
    }

    /// A denied decision's status: Z100 (denied by the MVPD), Z120 (MVPD unreachable), Z130
    /// (bad resource), Z169 (authzNone degradation), Z500 otherwise.
    static func decisionStatusID(for error: EnhancedError?) -> StatusID {
        guard let code = error?.code else { return .z500 }
        switch code {
        case "authorization_denied_by_mvpd", "authorization_denied_by_parental_controls", "authorization_denied_by_hba_policies",
             "temporary_access_resources_limit_exceeded", "temporary_access_duration_limit_exceeded": return .z100
        case "network_connection_failure", "network_received_error", "network_read_timeout", "network_connection_timeout", "mvpd_unreachable": return .z120
        case "invalid_parameter_resources", "invalid_resource", "malformed_authorization_request", "invalid_resource_id", "resource_malformed": return .z130
        case "authorization_denied_by_degradation_rule": return .z169
        default: return code.hasPrefix("authorization_denied") ? .z100 : .z500
        }
    }

    /// An authorization call that failed as a whole (no decision came back).
    static func authorizationStatus(_ error: RESTClientError, resource: String) -> AdvancedStatus {
        if case .server(_, _, let enhanced) = error {
            return StatusCatalog.status(decisionStatusID(for: enhanced), message: error.message, details: enhanced?.details, resource: resource, enhancedError: enhanced)
        }
        if case .transport = error {
            return StatusCatalog.status(.z500, message: error.message, resource: resource)
        }
        return StatusCatalog.status(.z500, message: error.message, resource: resource)
    }
}
