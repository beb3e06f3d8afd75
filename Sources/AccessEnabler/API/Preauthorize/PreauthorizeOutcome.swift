import Foundation

/// How a Preauthorize API call ended, before it becomes a ``PreauthorizeResponse``: the one
/// place where the three shapes of the legacy documentation are produced and where it is
/// decided which closure of the ``AccessEnablerCallback`` receives them.
package enum PreauthorizeOutcome: Sendable, Equatable {
    /// The decision for one resource, as Adobe Pass gave it.
    package struct ResourceDecision: Sendable, Equatable {
        /// The resource.
        var resource: String
        /// Permit or deny.
        var authorized: Bool
        /// The reason of a deny, when enhanced error reporting gives one.
        var error: EnhancedError?

        init(resource: String, authorized: Bool, error: EnhancedError? = nil) {
            self.resource = resource
            self.authorized = authorized
            self.error = error
        }

        /// The part of a REST API V2 decision the Preauthorize API reports.
        init(_ decision: Decision) {
            self.init(resource: decision.resource, authorized: decision.authorized, error: decision.error)
        }
    }

    /// Adobe Pass decided on every resource (in the order asked).
    case decisions([ResourceDecision])
    /// Adobe Pass answered the request with an error: the HTTP status and the enhanced error.
    case serverError(httpStatus: Int, EnhancedError)
    /// Adobe Pass throttled the request (HTTP 429): the whole seconds to wait. The legacy
    /// page's shape is a server error response (`too_many_requests`, status 429).
    case throttled(retryAfter: Int)
    /// The SDK could not make or read the request.
    case sdkFailure(PreauthorizeFailure)

    /// The response the legacy documentation shows for this outcome.
    var response: PreauthorizeResponse {
        switch self {
        case .decisions(let decisions):
            PreauthorizeResponse(
                status: nil,
                decisions: decisions.map {
                    PreauthorizeDecision(
                        id: $0.resource, authorized: $0.authorized, error: $0.error.map { PreauthorizeStatus($0) })
                })
        case .serverError(let httpStatus, let error):
            PreauthorizeResponse(status: PreauthorizeStatus(error, httpStatus: httpStatus), decisions: [])
        case .throttled(let wait):
            PreauthorizeResponse(
                status: PreauthorizeStatus(
                    EnhancedError(
                        status: 429, code: "too_many_requests",
                        message: "Adobe Pass throttled this device. Retry after \(wait) s.",
                        details: ThrottleNotice.details(seconds: wait), action: "retry-after"),
                    httpStatus: 429),
                decisions: [])
        case .sdkFailure(let failure):
            PreauthorizeResponse(status: failure.status, decisions: [])
        }
    }

    /// Whether the response goes to `onFailure` (the SDK failed) rather than `onResponse`.
    var isFailure: Bool {
        if case .sdkFailure = self { return true }
        return false
    }

    /// Hands the response to the closure this outcome calls for.
    func deliver(to callback: AccessEnablerCallback<PreauthorizeResponse>) {
        if isFailure {
            callback.onFailure(result: response)
        } else {
            callback.onResponse(result: response)
        }
    }
}
