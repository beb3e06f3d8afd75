import Foundation

/// Dynamic Client Registration: `POST /o/client/register` and `POST /o/client/token`.
/// Errors use the OAuth shape `{"error": "…"}` with status 400, as the DCR pages document,
/// plus an `error_description` (RFC 6749 §5.2) saying what to fix.
///
/// Both endpoints read requests as strictly as their pages describe them: `X-Device-Info`
/// is required and checked (Base64 JSON with the required keys and documented restricted
/// values, as on REST API V2), the body has the page's media type, a repeated parameter is
/// `invalid_request`, and a parameter of the wrong type is refused, never dropped.
extension SandboxEngine {
    static func oauthError(_ code: String, status: Int = 400, description: String? = nil) -> SandboxResponse {
        .json(
            .object(("error", .string(code)), ("error_description", description.map(SandboxJSON.string))),
            status: status)
    }

    /// The checks both DCR endpoints share: `X-Device-Info`, then the body's media type (a
    /// request without a body has none to name).
    private func dcrRefusal(_ request: SandboxRequest, bodyType: SandboxMediaType) -> SandboxResponse? {
        do {
            try deviceInfo(request, required: true)
        } catch {
            return Self.oauthError("invalid_request", description: "X-Device-Info: \(error.details ?? error.message)")
        }
        let contentType = request.header("Content-Type")
        guard request.body.isEmpty || bodyType.matches(contentType) else {
            return Self.oauthError("invalid_request", description: bodyType.problem(with: contentType))
        }
        return nil
    }

    /// Registers a client for a known software statement: a JSON object
    /// `{"software_statement": "…", "redirect_uri": "…"}` (`redirect_uri` optional).
    func registerClient(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        if let refusal = dcrRefusal(request, bodyType: .json) { return refusal }
        if let problem = SandboxStrictJSON.problem(in: request.body) {
            return Self.oauthError("invalid_request", description: problem.text)
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body), options: []) as? [String: Any]
        else {
            return Self.oauthError(
                "invalid_request",
                description: "The body must be a JSON object with software_statement and, optionally, redirect_uri.")
        }
        guard let statementValue = object["software_statement"] else {
            return Self.oauthError("invalid_request", description: "The software_statement parameter is missing.")
        }
        guard let statement = statementValue as? String, !statement.isEmpty else {
            return Self.oauthError(
                "invalid_software_statement",
                description: "software_statement must be the software statement text (a non-empty string).")
        }
        var redirectURI: String?
        if let value = object["redirect_uri"] {
            guard let text = value as? String, let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty
            else {
                return Self.oauthError(
                    "invalid_redirect_uri",
                    description:
                        "redirect_uri must be an absolute URI (a string with a scheme, such as adobepass://ios.app).")
            }
            redirectURI = text
        }
        guard world.softwareStatements[statement] != nil else {
            return Self.oauthError("unapproved_software_statement")
        }
        let registration = ClientRegistration(
            clientID: newSecret(byteCount: 12), clientSecret: newSecret(), statement: statement,
            expiresAt: now.addingTimeInterval(TimeInterval(world.registrationTTL)))
        remember(registration)
        observed.issuedRegistration = ObservedFacts.IssuedRegistration(
            clientID: registration.clientID, statement: statement, expiresAt: registration.expiresAt)
        return .json(
            .object(
                ("client_id", .string(registration.clientID)),
                ("client_secret", .string(registration.clientSecret)),
                ("client_id_issued_at", .int(Int64(now.timeIntervalSince1970))),
                ("redirect_uris", .array(redirectURI.map { [.string($0)] } ?? [])),
                ("grant_types", .array([.string("client_credentials")])),
                ("scopes", .array([.string("api:client:v2")]))
            ), status: 201)
    }

    /// The parameters of the token request, as its page names them.
    private static let tokenParameters = ["client_id", "client_secret", "grant_type"]

    /// Issues an access token for client credentials sent in the form body with
    /// `grant_type=client_credentials`. Credentials of an expired (or forgotten) registration
    /// are `invalid_client`: register again.
    func issueAccessToken(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        if let refusal = dcrRefusal(request, bodyType: .form) { return refusal }
        // The page lists body parameters; credentials in a URL end up in logs (RFC 6749 §2.3.1).
        if let named = request.query.first(where: { Self.tokenParameters.contains($0.name) }) {
            return Self.oauthError(
                "invalid_request", description: "\(named.name) must be sent in the form body, not in the URL.")
        }
        var parameters: [String: String] = [:]
        // Parameters the endpoint does not define are ignored; a parameter without a value
        // counts as omitted (RFC 6749 §3.1).
        for (name, value) in SandboxRequest.decodeForm(String(decoding: request.body, as: UTF8.self))
        where Self.tokenParameters.contains(name) && !value.isEmpty {
            guard parameters[name] == nil else {
                return Self.oauthError("invalid_request", description: "The parameter \(name) is repeated.")
            }
            parameters[name] = value
        }
        observed.clientID = parameters["client_id"]
        guard let clientID = parameters["client_id"], let secret = parameters["client_secret"],
            let grantType = parameters["grant_type"]
        else {
            let missing = Self.tokenParameters.filter { parameters[$0] == nil }
            return Self.oauthError(
                "invalid_request",
                description:
                    "\(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") required (client_id, client_secret and grant_type)."
            )
        }
        if request.header("Authorization") != nil {
            return Self.oauthError(
                "invalid_request",
                description: "Send the client credentials once, in the form body, without an Authorization header.")
        }
        guard grantType == "client_credentials" else { return Self.oauthError("unsupported_grant_type") }
        guard let registration = registrations[clientID], registration.clientSecret == secret else {
            observed.clientRefused = true
            return Self.oauthError(
                "invalid_client",
                description: "The client credentials are unknown, wrong, or their registration expired; register again."
            )
        }
        guard now < registration.expiresAt else {
            registrations[clientID] = nil
            observed.clientRefused = true
            return Self.oauthError(
                "invalid_client", description: "The client registration has expired; register again.")
        }
        let token = newSecret(byteCount: 32)
        let expiresAt = now.addingTimeInterval(TimeInterval(world.accessTokenTTL))
        remember(
            AccessTokenGrant(clientID: clientID, statement: registration.statement, expiresAt: expiresAt), token: token)
        observed.statement = registration.statement
        observed.issuedToken = ObservedFacts.IssuedToken(
            token: ObservedRequest.hash(token: token), clientID: clientID, lifetime: TimeInterval(world.accessTokenTTL),
            expiresAt: expiresAt)
        return .json(
            .object(
                ("id", .string(newIdentifier())),
                ("access_token", .string(token)),
                ("created_at", .int(now.epochMilliseconds)),
                ("expires_in", .int(Int64(world.accessTokenTTL))),
                ("token_type", .string("bearer"))
            ), status: 201)
    }
}
