import Foundation

/// Header names used by REST API V2 and DCR.
enum RESTHeaderName {
    static let authorization = "Authorization"
    static let contentType = "Content-Type"
    static let deviceIdentifier = "AP-Device-Identifier"
    static let deviceInfo = "X-Device-Info"
    static let partnerFrameworkStatus = "AP-Partner-Framework-Status"
    static let visitorIdentifier = "AP-Visitor-Identifier"
    static let tempPassIdentity = "AP-TempPass-Identity"
    static let serviceToken = "AD-Service-Token"
    static let subjectToken = "Adobe-Subject-Token"
    static let accept = "Accept"
    static let userAgent = "User-Agent"
}

/// The media types the operations send.
enum RESTContentType {
    static let json = "application/json"
    static let form = "application/x-www-form-urlencoded"
}

/// A request body with its media type.
enum RESTRequestBody: Sendable {
    case none
    case form([(name: String, value: String)])
    case json(Data)

    var contentType: String? {
        switch self {
        case .none: nil
        case .form: RESTContentType.form
        case .json: RESTContentType.json
        }
    }

    var data: Data? {
        switch self {
        case .none: nil
        case .form(let pairs): Data(FormEncoding.encode(pairs).utf8)
        case .json(let data): data
        }
    }
}

/// Builds the header list of one request from typed values, in a fixed order:
/// Authorization, Content-Type, AP-Device-Identifier, X-Device-Info,
/// AP-Partner-Framework-Status, AP-Visitor-Identifier, AP-TempPass-Identity,
/// AD-Service-Token, Adobe-Subject-Token, Accept, User-Agent.
enum RESTHeaders {
    /// The headers for `operation`; validates the device values and the single sign-on
    /// tokens before anything is sent.
    ///
    /// - Parameters:
    ///   - accessToken: the DCR bearer token, `nil` for the DCR endpoints themselves.
    ///   - deviceInfo: for DCR calls, which take `X-Device-Info` without a full context.
    ///   - tokens: the single sign-on tokens, sent when the operation's page lists their headers.
    static func build(
        operation: RESTOperation, accessToken: String?, body: RESTRequestBody, context: RequestContext?,
        deviceInfo: DeviceInfo? = nil, userAgent: String, tokens: SingleSignOnTokens = .none
    ) throws(RESTClientError) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(8)
        if let accessToken {
            headers.append((RESTHeaderName.authorization, "Bearer \(accessToken)"))
        }
        if let contentType = body.contentType {
            headers.append((RESTHeaderName.contentType, contentType))
        }
        if let context, operation.sendsDeviceHeaders {
            if context.deviceIdentifier.isEmpty {
                throw .invalidRequest(operation: operation, reason: "the device identifier is empty")
            }
            headers.append((RESTHeaderName.deviceIdentifier, context.deviceIdentifierHeaderValue))
            headers.append((RESTHeaderName.deviceInfo, try context.deviceInfo.validatedHeaderValue()))
        } else if context == nil, let deviceInfo {
            headers.append((RESTHeaderName.deviceInfo, try deviceInfo.validatedHeaderValue()))
        }
        if let status = context?.partnerStatus, operation.acceptsPartnerFrameworkStatus {
            if let problem = status.validationProblem {
                throw .invalidRequest(
                    operation: operation, reason: "the partner framework status is invalid: \(problem)")
            }
            headers.append((RESTHeaderName.partnerFrameworkStatus, status.cachedHeaderValue))
        }
        if let visitorID = context?.visitorID, !visitorID.isEmpty, operation.acceptsVisitorIdentifier {
            headers.append((RESTHeaderName.visitorIdentifier, visitorID))
        }
        if let identity = context?.tempPassIdentity, operation.acceptsTempPassIdentity {
            headers.append((RESTHeaderName.tempPassIdentity, identity))
        }
        if operation.acceptsSingleSignOnTokens {
            for (name, token) in [
                (RESTHeaderName.serviceToken, tokens.serviceToken),
                (RESTHeaderName.subjectToken, tokens.platformIdentity),
            ] {
                guard let token else { continue }
                // Never dropped silently: a value no header can carry ends the call, said.
                if let problem = HeaderFieldValue.problem(token) {
                    throw .unsendableToken(operation: operation, header: name, problem: problem)
                }
                headers.append((name, token))
            }
        }
        headers.append((RESTHeaderName.accept, RESTContentType.json))
        let agent = context.map(\.userAgent).flatMap { $0.isEmpty ? nil : $0 } ?? userAgent
        if !agent.isEmpty {
            headers.append((RESTHeaderName.userAgent, agent))
        }
        return headers
    }
}
