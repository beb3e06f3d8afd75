import Foundation

/// Dynamic Client Registration: `POST /o/client/register` and `POST /o/client/token`.
/// Errors use the OAuth shape `{"error": "…"}` with status 400, as the DCR pages document,
/// plus an `error_description` (RFC 6749 §5.2) saying what to fix.
extension SandboxEngine {
    static func oauthError(_ code: String, status: Int = 400, description: String? = nil) -> SandboxResponse {
        .json(.object(("error", .string(code)), ("error_description", description.map(SandboxJSON.string))), status: status)
    }

    /// Registers a client for a known software statement (JSON body
    /// `{software_statement, redirect_uri?}`; a form body is accepted too). `X-Device-Info`
    /// is required and checked as on REST API V2: Base64 JSON with the required keys and
    /// documented restricted values.
    func registerClient(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        do {
            try deviceInfo(request, required: true)
        } catch {
            return Self.oauthError("invalid_request", description: "X-Device-Info: \(error.details ?? error.message)")
        }
        var statement: String?
        var redirectURI: String?
        if let object = try? JSONSerialization.jsonObject(with: Data(request.body), options: []) as? [String: Any] {
            statement = object["software_statement"] as? String
            redirectURI = object["redirect_uri"] as? String
        } else {
            let form = formParameters(request)
            statement = form["software_statement"]
            redirectURI = form["redirect_uri"]
        }
        guard let statement, !statement.isEmpty else {
            return Self.oauthError("invalid_request", description: "The software_statement parameter is missing.")
        }
        guard world.softwareStatements[statement] != nil else { return Self.oauthError("unapproved_software_statement") }
        let registration = ClientRegistration(
            clientID: newSecret(byteCount: 12), clientSecret: newSecret(), statement: statement,
            expiresAt: now.addingTimeInterval(TimeInterval(world.registrationTTL)))
        remember(registration)
        return .json(.object(
            ("client_id", .string(registration.clientID)),
            ("client_secret", .string(registration.clientSecret)),
            ("client_id_issued_at", .int(Int64(now.timeIntervalSince1970))),
            ("redirect_uris", .array(redirectURI.map { [.string($0)] } ?? [])),
            ("grant_types", .array([.string("client_credentials")])),
            ("scopes", .array([.string("api:client:v2")]))
        ), status: 201)
    }

    /// Issues an access token for client credentials (form body, or query parameters as
    /// the OpenAPI file spells them) with `grant_type=client_credentials`. Credentials of
    /// an expired (or forgotten) registration are `invalid_client`: register again.
    func issueAccessToken(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        var parameters = formParameters(request)
        for (name, value) in request.query where parameters[name] == nil && !value.isEmpty { parameters[name] = value }
        guard let clientID = parameters["client_id"], let secret = parameters["client_secret"], let grantType = parameters["grant_type"] else {
            return Self.oauthError("invalid_request", description: "client_id, client_secret and grant_type are required.")
        }
        guard grantType == "client_credentials" else { return Self.oauthError("unsupported_grant_type") }
        guard let registration = registrations[clientID], registration.clientSecret == secret else {
            return Self.oauthError("invalid_client", description: "The client credentials are unknown, wrong, or their registration expired; register again.")
        }
        guard now < registration.expiresAt else {
            registrations[clientID] = nil
            return Self.oauthError("invalid_client", description: "The client registration has expired; register again.")
        }
        let token = newSecret(byteCount: 32)
        remember(AccessTokenGrant(
            clientID: clientID, statement: registration.statement,
            expiresAt: now.addingTimeInterval(TimeInterval(world.accessTokenTTL))), token: token)
        return .json(.object(
            ("id", .string(newIdentifier())),
            ("access_token", .string(token)),
            ("created_at", .int(now.epochMilliseconds)),
            ("expires_in", .int(Int64(world.accessTokenTTL))),
            ("token_type", .string("bearer"))
        ), status: 201)
    }
}
