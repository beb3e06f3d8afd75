import Foundation

/// The two Dynamic Client Registration calls: register a software statement for client
/// credentials, and trade the credentials for an access token (`client_credentials` grant).
///
/// Both go through the same exchange as `/api/v2` requests (``RESTExchange``, unsigned):
/// Adobe Pass throttles `/o/client/register` and `/o/client/token` too.
struct DCRClient: Sendable {
    let urls: RESTURLBuilder
    let exchange: RESTExchange
    let userAgent: String
    let timeSource: any TimeSource

    /// `POST {base}/o/client/register` with a JSON body holding the software statement.
    func register(softwareStatement: String, redirectURI: String?, deviceInfo: DeviceInfo) async throws(RESTClientError)
        -> DCRClientCredentials
    {
        let request = try registrationRequest(
            softwareStatement: softwareStatement, redirectURI: redirectURI, deviceInfo: deviceInfo)
        return try credentials(from: try await exchange.send(request, operation: .dcrRegister))
    }

    /// `POST {base}/o/client/token`, form body `client_id`, `client_secret`,
    /// `grant_type=client_credentials`. The token expires `expires_in` seconds after now.
    func accessToken(credentials: DCRClientCredentials, deviceInfo: DeviceInfo) async throws(RESTClientError)
        -> DCRAccessToken
    {
        let request = try tokenRequest(credentials: credentials, deviceInfo: deviceInfo)
        return try token(from: try await exchange.send(request, operation: .dcrToken))
    }

    // Building a request and reading its answer are never inlined into the two calls above:
    // their temporaries then stay on the thread's stack instead of in the async frame a
    // device keeps while it waits for the answer.

    /// The registration request.
    @inline(never)
    private func registrationRequest(softwareStatement: String, redirectURI: String?, deviceInfo: DeviceInfo)
        throws(RESTClientError) -> HTTPRequestMessage
    {
        let operation = RESTOperation.dcrRegister
        guard !softwareStatement.isEmpty else {
            throw .invalidRequest(operation: operation, reason: "the software statement is empty")
        }
        guard let url = urls.url(["o", "client", "register"]) else {
            throw .invalidRequest(operation: operation, reason: "the base URL cannot form the registration URL")
        }
        let payload = RegistrationRequest(softwareStatement: softwareStatement, redirectURI: redirectURI)
        let bodyData: Data
        do {
            bodyData = try JSONEncoder().encode(payload)
        } catch {
            throw .invalidRequest(operation: operation, reason: "the registration body could not be encoded")
        }
        let body = RESTRequestBody.json(bodyData)
        let headers = try RESTHeaders.build(
            operation: operation, accessToken: nil, body: body, context: nil, deviceInfo: deviceInfo,
            userAgent: userAgent)
        return HTTPRequestMessage(
            method: "POST", url: url, headers: headers, body: body.data, operationName: operation.rawValue)
    }

    /// The client credentials the registration's answer holds.
    @inline(never)
    private func credentials(from response: HTTPResponseMessage) throws(RESTClientError) -> DCRClientCredentials {
        let operation = RESTOperation.dcrRegister
        let wire = try successBody(RegistrationResponse.self, response, operation)
        if let issued = wire.clientIDIssuedAt, !PlausibleDate.contains(secondsSince1970: TimeInterval(issued)) {
            throw .malformedBody(
                operation: operation, reason: "the field 'client_id_issued_at' is not a date from 1970 to the year 9999"
            )
        }
        return DCRClientCredentials(
            clientID: wire.clientID, clientSecret: wire.clientSecret,
            clientIDIssuedAt: wire.clientIDIssuedAt.map { Date(timeIntervalSince1970: TimeInterval($0)) },
            grantTypes: wire.grantTypes ?? [], scopes: wire.scopes ?? [], redirectURIs: wire.redirectURIs ?? [])
    }

    /// The token request.
    @inline(never)
    private func tokenRequest(credentials: DCRClientCredentials, deviceInfo: DeviceInfo) throws(RESTClientError)
        -> HTTPRequestMessage
    {
        let operation = RESTOperation.dcrToken
        guard let url = urls.url(["o", "client", "token"]) else {
            throw .invalidRequest(operation: operation, reason: "the base URL cannot form the token URL")
        }
        let body = RESTRequestBody.form([
            ("client_id", credentials.clientID),
            ("client_secret", credentials.clientSecret),
            ("grant_type", "client_credentials"),
        ])
        let headers = try RESTHeaders.build(
            operation: operation, accessToken: nil, body: body, context: nil, deviceInfo: deviceInfo,
            userAgent: userAgent)
        return HTTPRequestMessage(
            method: "POST", url: url, headers: headers, body: body.data, operationName: operation.rawValue)
    }

    /// The access token the token request's answer holds.
    @inline(never)
    private func token(from response: HTTPResponseMessage) throws(RESTClientError) -> DCRAccessToken {
        let wire = try successBody(TokenResponse.self, response, .dcrToken)
        return DCRAccessToken(
            value: wire.accessToken, expiresAt: timeSource.now.addingTimeInterval(TimeInterval(wire.expiresIn)))
    }

    /// The decoded success body, or the typed error (a DCR 401 is a plain server error).
    private func successBody<T: Decodable>(_ type: T.Type, _ response: HTTPResponseMessage, _ operation: RESTOperation)
        throws(RESTClientError) -> T
    {
        switch RESTResponseClassifier.classify(response, operation: operation, now: timeSource.now) {
        case .success(let body):
            return try RESTResponseClassifier.decode(T.self, from: body, operation: operation)
        case .unauthorized(let error):
            throw .server(operation: operation, httpStatus: 401, error: error)
        case .failure(let error):
            throw error
        }
    }

    private struct RegistrationRequest: Encodable {
        var softwareStatement: String
        var redirectURI: String?

        enum CodingKeys: String, CodingKey {
            case softwareStatement = "software_statement"
            case redirectURI = "redirect_uri"
        }
    }

    private struct RegistrationResponse: Decodable {
        var clientID: String
        var clientSecret: String
        var clientIDIssuedAt: Int64?
        var grantTypes: [String]?
        var scopes: [String]?
        var redirectURIs: [String]?

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case clientSecret = "client_secret"
            case clientIDIssuedAt = "client_id_issued_at"
            case grantTypes = "grant_types"
            case scopes
            case redirectURIs = "redirect_uris"
        }
    }

    private struct TokenResponse: Decodable {
        /// The lifetimes a token may have, in seconds: a second to ten years. Another one
        /// (none, negative, beyond any date) makes the answer malformed.
        static let lifetimes: ClosedRange<Int64> = 1...315_360_000

        var accessToken: String
        var expiresIn: Int64
        var tokenType: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case tokenType = "token_type"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accessToken = try container.decode(String.self, forKey: .accessToken)
            // Lenient: a number, or a string holding one.
            if let seconds = try? container.decode(Int64.self, forKey: .expiresIn) {
                expiresIn = seconds
            } else if let text = try? container.decode(String.self, forKey: .expiresIn), let seconds = Int64(text) {
                expiresIn = seconds
            } else {
                throw DecodingError.keyNotFound(
                    CodingKeys.expiresIn,
                    DecodingError.Context(codingPath: container.codingPath, debugDescription: "Missing expires_in."))
            }
            guard Self.lifetimes.contains(expiresIn) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .expiresIn, in: container,
                    debugDescription: "expires_in is not a lifetime from 1 second to 10 years.")
            }
            tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        }
    }
}
