import Foundation

/// Turns REST client failures into the legacy advanced status codes, per flow. What an
/// enhanced error means is ``ServerAdvice``'s to say; this only picks the status each flow
/// reports for that meaning.
enum ErrorClassification {
    /// `setRequestor` failures: R400 (software statement refused at registration), R401 (no
    /// access token), CFG400 (requestor refused), CFG404 (server unreachable), CFG5xx (the
    /// servers failing, including a passing failure such as `403 network_received_error`).
    /// `requestor`: the id `setRequestor` was given, which the message then names in the path
    /// of the request that failed (a mistyped id is seen at once).
    static func requestorStatus(_ error: RESTClientError, requestor: String? = nil) -> AdvancedStatus {
        let message = error.message(serviceProvider: requestor)
        switch error {
        case .server(let operation, let httpStatus, let enhanced):
            let status = { (id: StatusID) in
                StatusCatalog.status(id, message: message, details: enhanced?.details, enhancedError: enhanced)
            }
            // The servers' trouble is reported as such, whatever the operation: a passing
            // failure answered with a 4xx is still the service being unavailable.
            if httpStatus >= 500 { return status(.cfg5xx(httpStatus)) }
            if enhanced?.advice.isServerTrouble == true { return status(.cfg5xx(503)) }
            switch operation {
            case .dcrRegister: return status(.r400)
            case .dcrToken: return status(.r401)
            default: return status(httpStatus == 401 ? .r401 : .cfg400)
            }
        case .transport:
            return StatusCatalog.status(.cfg404, message: message)
        case .throttled:
            return ThrottleNotice.marking(StatusCatalog.status(.cfg429, message: message), for: error)
        case .undocumentedStatus(_, let httpStatus):
            return StatusCatalog.status(httpStatus >= 500 ? .cfg5xx(httpStatus) : .cfg400, message: message)
        case .malformedBody:
            return StatusCatalog.status(.cfg5xx(500), message: message)
        case .invalidDeviceInfo, .invalidRequest:
            return StatusCatalog.status(.cfg400, message: message)
        case .unsendableToken:
            return StatusCatalog.status(.n500, message: message)
        }
    }

    /// When Adobe Pass refused the application's access token on a REST API V2 request, and
    /// a new token too (the request is sent once more with a renewed one before): R401 for
    /// that call; `nil` for any other failure. The requestor stays ready: the next call tries
    /// a new token again.
    static func refusedAccessToken(_ error: RESTClientError, resource: String? = nil) -> AdvancedStatus? {
        guard case .server(let operation, 401, let enhanced) = error, operation != .dcrRegister, operation != .dcrToken
        else { return nil }
        let message =
            "Adobe Pass refused this application's access token, and a new one too (HTTP 401): \(error.message) "
            + "The next call asks for a new token again."
        return StatusCatalog.status(
            .r401, message: message, details: enhanced?.details, resource: resource, enhancedError: enhanced)
    }

    /// Authentication failures: N130 when the session, its code or the sign-in is missing or
    /// over, R401 when the access token was refused twice, N500 otherwise.
    static func authenticationStatus(_ error: RESTClientError) -> AdvancedStatus {
        if let refused = refusedSingleSignOnToken(error) { return refused }
        if let refused = refusedAccessToken(error) { return refused }
        guard case .server(_, let httpStatus, let enhanced) = error else {
            return ThrottleNotice.marking(StatusCatalog.status(.n500, message: error.message), for: error)
        }
        let gone: Bool
        switch enhanced?.advice {
        case .authenticationSessionGone?, .signInEnded?: gone = true
        case .requestRefused?, .invalidResource?, .integrationUnavailable?, .tempPassUsedUp?, .deniedByMVPD?,
            .deniedByDegradationRule?,
            .tooManyResources?, .configurationChanged?, .clientUnknown?, .authorizationNeeded?, .transient?,
            .serverFailure?, nil:
            gone = statusSaysGone(httpStatus)
        }
        return StatusCatalog.status(
            gone ? .n130 : .n500, message: error.message, details: enhanced?.details, enhancedError: enhanced)
    }

    /// When Adobe Pass refused the single sign-on token a request presented
    /// (`AD-Service-Token` or `Adobe-Subject-Token`: malformed, expired, an unknown issuer, a
    /// bad signature), or the SDK could not send it at all (``unsendableToken(_:)``): N500
    /// saying which token and what to do; `nil` for any other failure. The token itself is
    /// never repeated.
    static func refusedSingleSignOnToken(_ error: RESTClientError) -> AdvancedStatus? {
        if let unsendable = unsendableToken(error) { return unsendable }
        guard case .server(_, _, let enhanced?) = error else { return nil }
        let header: String
        switch enhanced.codeWord {
        case .invalidHeaderServiceToken: header = "the service token (AD-Service-Token)"
        case .invalidHeaderSubjectToken: header = "the platform identity (Adobe-Subject-Token)"
        default: return nil
        }
        let reason = enhanced.details.map { " \($0)" } ?? ""
        return StatusCatalog.status(
            .n500,
            message:
                "Adobe Pass refused \(header) the app presented for single sign-on.\(reason) Get a new token from the identity service, or present none.",
            details: enhanced.details, enhancedError: enhanced)
    }

    /// When a single sign-on token the configuration gave cannot be a header value (empty,
    /// a control character): N500 naming the header, in every flow; `nil` for any other failure.
    static func unsendableToken(_ error: RESTClientError) -> AdvancedStatus? {
        guard case .unsendableToken = error else { return nil }
        return StatusCatalog.status(.n500, message: error.message)
    }

    /// Whether `error` says the authentication session (or its code) no longer exists —
    /// expired, unknown, invalidated — so polling it again is pointless.
    static func isSessionGone(_ error: RESTClientError) -> Bool {
        guard case .server(_, let httpStatus, let enhanced) = error else { return false }
        return statusSaysGone(httpStatus) || enhanced?.advice == .authenticationSessionGone
    }

    /// Whether an HTTP status alone says the session, its code or the sign-in is not there:
    /// 404 Not Found or 410 Gone. One rule for polling and for the status a flow reports, so a
    /// bare 410 is not "gone" to one and a server failure to the other.
    private static func statusSaysGone(_ httpStatus: Int) -> Bool {
        httpStatus == 404 || httpStatus == 410
    }

    /// A denied decision's status: Z100 (denied by the MVPD, or a used-up TempPass), Z120
    /// (the MVPD unreachable: a passing failure), Z130 (bad resource), Z169 (authzNone
    /// degradation), Z500 otherwise. A denial without a reason is the MVPD's (Z100).
    static func decisionStatusID(for error: EnhancedError?) -> StatusID {
        guard let error else { return .z100 }
        return decisionStatusID(for: error.advice)
    }

    /// The decision status of `advice` (see ``decisionStatusID(for:)-(EnhancedError?)``).
    static func decisionStatusID(for advice: ServerAdvice) -> StatusID {
        switch advice {
        case .deniedByMVPD, .tempPassUsedUp, .signInEnded: .z100
        case .transient: .z120
        case .invalidResource: .z130
        case .deniedByDegradationRule: .z169
        case .requestRefused, .integrationUnavailable, .authenticationSessionGone, .tooManyResources,
            .configurationChanged,
            .clientUnknown, .authorizationNeeded, .serverFailure:
            .z500
        }
    }

    /// A preauthorization that failed as a whole: P100 (Adobe's throttling page: a throttled
    /// one too), with Adobe Pass's explanation when it gave one.
    static func preauthorizationStatus(_ error: RESTClientError) -> AdvancedStatus {
        if let refused = refusedAccessToken(error) { return refused }
        let status = StatusCatalog.status(
            .p100, message: "Preauthorization failed: \(error.message)", details: error.enhancedError?.details,
            enhancedError: error.enhancedError)
        return ThrottleNotice.marking(status, for: error)
    }

    /// An authorization call that failed as a whole (no decision came back): the status
    /// its enhanced error implies, or Z500 (network, server, unreadable answer).
    static func authorizationStatus(_ error: RESTClientError, resource: String) -> AdvancedStatus {
        if let unsendable = unsendableToken(error) { return unsendable }
        if let refused = refusedAccessToken(error, resource: resource) { return refused }
        if let refused = refusedSingleSignOnToken(error) {
            return StatusCatalog.status(
                .z500, message: refused.message, details: refused.details, resource: resource,
                enhancedError: refused.enhancedError)
        }
        switch error {
        case .server(_, _, let enhanced?):
            return StatusCatalog.status(
                decisionStatusID(for: enhanced.advice), message: error.message, details: enhanced.details,
                resource: resource, enhancedError: enhanced)
        case .throttled:
            // Adobe's throttling page: a throttled authorization reports Z100.
            let status = StatusCatalog.status(.z100, message: error.message, resource: resource)
            return ThrottleNotice.marking(status, for: error)
        case .server, .undocumentedStatus, .malformedBody, .transport, .invalidDeviceInfo, .invalidRequest,
            .unsendableToken:
            return StatusCatalog.status(.z500, message: error.message, resource: resource)
        }
    }
}
