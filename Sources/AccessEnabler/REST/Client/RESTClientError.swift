import Foundation

/// Why a REST API V2 or DCR operation did not produce its documented result.
///
/// Indirect, so an error is one reference: every `try await` of a request reserves room for
/// the error it may throw in the async frame of its caller, and a device waiting for an
/// answer keeps those frames (inline, an error took 129 bytes at each).
indirect enum RESTClientError: Error, Sendable, Equatable {
    /// The server answered with a documented error status (4xx/5xx); `error` is the
    /// enhanced error decoded from the body, when the body held one.
    case server(operation: RESTOperation, httpStatus: Int, error: EnhancedError?)
    /// The server answered 429 Too Many Requests (Adobe Pass throttling; the body is often an
    /// HTML page), or an earlier one still holds the host back longer than this request may
    /// wait (it was not sent). `retryAfter` is the time to wait in seconds, when known: the
    /// `Retry-After` header (5 minutes at most), or the time left of the back-off.
    /// Later requests to the same host wait out the back-off; this one was not retried.
    case throttled(operation: RESTOperation, retryAfter: TimeInterval?)
    /// The server answered with a status the documentation does not describe for the operation.
    case undocumentedStatus(operation: RESTOperation, httpStatus: Int)
    /// The success body was not the documented JSON (not JSON, truncated, wrong shape).
    case malformedBody(operation: RESTOperation, reason: String)
    /// No response: the transport failed.
    case transport(operation: RESTOperation, TransportFailure)
    /// The X-Device-Info values break the header's rules (missing required key, value
    /// outside a restricted list).
    case invalidDeviceInfo(String)
    /// The request could not be built from the given values (nothing was sent).
    case invalidRequest(operation: RESTOperation, reason: String)
    /// A single sign-on token the configuration gave cannot be sent as the value of
    /// `header` (`AD-Service-Token`, `Adobe-Subject-Token`): `problem` says why (empty, a
    /// control character). Nothing was sent.
    case unsendableToken(operation: RESTOperation, header: String, problem: String)

    /// The operation that failed, when the error belongs to one.
    var operation: RESTOperation? {
        switch self {
        case .server(let operation, _, _), .undocumentedStatus(let operation, _), .throttled(let operation, _),
            .malformedBody(let operation, _), .transport(let operation, _),
            .invalidRequest(let operation, _), .unsendableToken(let operation, _, _):
            operation
        case .invalidDeviceInfo:
            nil
        }
    }

    /// The HTTP status of the response, when one arrived.
    var httpStatus: Int? {
        switch self {
        case .server(_, let status, _), .undocumentedStatus(_, let status): status
        case .throttled: 429
        default: nil
        }
    }

    /// The enhanced error the server sent, if any.
    var enhancedError: EnhancedError? {
        if case .server(_, _, let error) = self { return error }
        return nil
    }

    /// A sentence a person can act on: which operation failed and why. Never contains
    /// credentials, tokens or request bodies.
    var message: String { message(serviceProvider: nil) }

    /// ``message``, naming in the request's path the service provider (the requestor id) it
    /// was sent for, when the caller knows it: "GET /api/v2/NOPE/profiles" rather than the
    /// path's template.
    func message(serviceProvider: String?) -> String {
        let request = self.operation.map { $0.displayName(serviceProvider: serviceProvider) } ?? ""
        switch self {
        case .server(_, let status, let error):
            var text = "Adobe Pass \(request) failed with HTTP \(status)"
            if let error {
                text += " (\(error.code)"
                if let message = error.message, !message.isEmpty { text += ": \(message)" }
                if let details = error.details, !details.isEmpty { text += " — \(details)" }
                text += ")"
                if let action = error.action, !action.isEmpty, action != "none" {
                    text += "; recommended action: \(action)"
                }
            } else {
                text += " and no error details"
            }
            return text + "."
        case .throttled(_, let retryAfter):
            let wait =
                retryAfter.map { "in \(WholeNumber.clamped($0, rounding: .up) as Int) s (Retry-After)" }
                ?? "in at least 1 s"
            return
                "Adobe Pass \(request) was throttled (HTTP 429 Too Many Requests): this device sent more than Adobe allows (1 request per second after a burst of 10). Adobe Pass takes its next request \(wait); reduce how often the app calls the SDK."
        case .undocumentedStatus(_, let status):
            return
                "Adobe Pass \(request) answered HTTP \(status), a status its documentation does not describe; check the service URL and any proxy in between."
        case .malformedBody(_, let reason):
            return "Adobe Pass \(request) returned a body that is not the documented JSON: \(reason)."
        case .transport(_, let failure):
            return "Adobe Pass \(request) got no response: \(failure.sentence)"
        case .invalidDeviceInfo(let reason):
            return "The X-Device-Info values are invalid: \(reason). Fix the device information in the configuration."
        case .invalidRequest(_, let reason):
            return "Adobe Pass \(request) was not sent: \(reason)."
        case .unsendableToken(_, let header, let problem):
            let token = header == RESTHeaderName.subjectToken ? "platform identity" : "service token"
            return
                "Adobe Pass \(request) was not sent: the \(token) (\(header)) the app's configuration gave cannot be sent as a header value: \(problem). Fix the token the app presents, or present none (nil)."
        }
    }
}

extension TransportFailure {
    /// A sentence describing the failure for a person.
    var sentence: String {
        switch self {
        case .timedOut: "no answer arrived before the request timeout; check the network or raise the timeout."
        case .cannotConnect(let detail):
            "could not connect to the server (\(detail)); check the service URL and the network."
        case .connectionLost(let detail):
            "the connection closed before the whole response arrived (\(detail)); try again."
        case .cancelled: "the request was cancelled."
        case .responseTooLarge(let limit):
            "the response body was larger than \(ResponseSizeLimit.describe(limit)), the most the SDK accepts (AccessEnablerConfiguration.maximumResponseBodySize); the rest was not read."
        case .other(let detail): "\(detail)."
        }
    }
}
