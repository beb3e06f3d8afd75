import Foundation

/// Turns a raw HTTP response into the operation's result or a typed error. Pure: no I/O.
enum RESTResponseClassifier {
    /// What a response means for the operation.
    enum Outcome: Sendable {
        /// A documented success status; the body is to be decoded.
        case success(Data)
        /// 401: the access token was refused. Carries the enhanced error, if any.
        case unauthorized(EnhancedError?)
        /// Any other outcome, already an error.
        case failure(RESTClientError)
    }

    /// Classifies `response` for `operation`, received when the clock read `now`.
    ///
    /// Success statuses give the body; `429 Too Many Requests` (whatever its body, often an
    /// HTML page) gives ``RESTClientError/throttled(operation:retryAfter:)`` with the
    /// `Retry-After` delay measured from `now`; documented error statuses and any 5xx give
    /// ``RESTClientError/server(operation:httpStatus:error:)`` with the enhanced error when
    /// the body holds one, and so does any other 4xx whose enhanced error says the servers
    /// are in trouble (``ServerAdvice/isServerTrouble``: a `403 network_received_error` from
    /// DCR, say); everything else (1xx, 3xx, other 2xx, other 4xx such as 418) is
    /// ``RESTClientError/undocumentedStatus(operation:httpStatus:)``.
    static func classify(_ response: HTTPResponseMessage, operation: RESTOperation, now: Date) -> Outcome {
        let status = response.status
        if operation.successStatuses.contains(status) {
            return .success(response.body)
        }
        if status == 429 {
            return .failure(.throttled(operation: operation, retryAfter: RetryAfter.delay(in: response, now: now)))
        }
        if status == 401 {
            return .unauthorized(enhancedError(in: response.body))
        }
        if operation.documentedErrorStatuses.contains(status) || (500...599).contains(status) {
            return .failure(.server(operation: operation, httpStatus: status, error: enhancedError(in: response.body)))
        }
        if (400...499).contains(status), let explained = enhancedError(in: response.body),
            explained.advice.isServerTrouble
        {
            return .failure(.server(operation: operation, httpStatus: status, error: explained))
        }
        return .failure(.undocumentedStatus(operation: operation, httpStatus: status))
    }

    /// The enhanced error in a failure body, or `nil` when the body is empty, not JSON
    /// (an HTML error page) or JSON of another shape.
    static func enhancedError(in body: Data) -> EnhancedError? {
        guard !body.isEmpty else { return nil }
        return try? JSONDecoder().decode(EnhancedError.self, from: body)
    }

    /// Decodes a success body as `type`, reporting a body that is not the documented JSON
    /// as ``RESTClientError/malformedBody(operation:reason:)`` without quoting its content.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data, operation: RESTOperation) throws(RESTClientError)
        -> T
    {
        if body.isEmpty {
            throw .malformedBody(operation: operation, reason: "the body is empty")
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw .malformedBody(operation: operation, reason: describe(error))
        } catch {
            throw .malformedBody(operation: operation, reason: "the body could not be read as JSON")
        }
    }

    /// A description of a decoding failure naming the field, never the value.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey], adding key: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (key.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "the top level" : "'\(text)'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the required field \(path(context.codingPath, adding: key)) is missing"
        case .valueNotFound(_, let context):
            return "the field \(path(context.codingPath)) is null"
        case .typeMismatch(let type, let context):
            return "the field \(path(context.codingPath)) is not of type \(type)"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return "it is not valid JSON (truncated or not JSON at all)"
            }
            return "the field \(path(context.codingPath)) has an invalid value"
        @unknown default:
            return "it does not have the documented shape"
        }
    }
}
