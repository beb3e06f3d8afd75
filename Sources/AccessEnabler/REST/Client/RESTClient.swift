import Foundation

/// The typed Adobe Pass REST API V2 client: one method per operation, each building its
/// request from typed values, sending it through the SDK's request policies (see
/// ``RESTExchange``: access token, enhanced-error retry, throttling, request timeout) and
/// decoding the documented answer or the enhanced error.
///
/// A 401 answer means the access token was refused: the chain drops it, renews once and
/// retries the request once. A 429 answer is reported as
/// ``RESTClientError/throttled(operation:retryAfter:)`` and makes later requests of every
/// client sharing the ``ThrottleGate`` wait.
struct RESTClient: Sendable {
    /// The base URL under which `/api/v2` and `/o/client` live.
    let baseURL: URL
    /// The access token source (shared by copies of this client).
    let tokenProvider: AccessTokenProvider
    /// The throttling state this client shares with the other clients of its AccessEnabler.
    var throttleGate: ThrottleGate { exchange.gate }

    /// Where the single sign-on tokens come from (none unless the configuration gives providers).
    var singleSignOn: SingleSignOnTokenSource = .none

    private let urls: RESTURLBuilder
    private let exchange: RESTExchange
    private let userAgent: String

    /// Creates a client with its own token provider over `credentials`.
    ///
    /// - Parameters:
    ///   - baseURL: where `/api/v2` and `/o/client` live (for example `https://sp.auth.adobe.com`).
    ///   - softwareStatement: the statement registered once through DCR.
    ///   - transport: moves the requests.
    ///   - timeout: seconds each request may take.
    ///   - credentials: where DCR credentials and the access token are kept.
    ///   - timeSource: the clock deciding token expiry.
    ///   - userAgent: sent when the request context has none, and to DCR.
    ///   - redirectURI: the optional `redirect_uri` sent at registration.
    ///   - throttleGate: the throttling state shared by every client of one AccessEnabler;
    ///     `nil` gives this client (and its DCR calls) a gate of its own on `timeSource`.
    init(
        baseURL: URL, softwareStatement: String, transport: any HTTPTransport, timeout: TimeInterval,
        credentials: any ClientCredentialsCache, timeSource: any TimeSource, userAgent: String,
        redirectURI: String? = nil, throttleGate: ThrottleGate? = nil
    ) {
        let gate = throttleGate ?? ThrottleGate(clock: timeSource)
        let urls = RESTURLBuilder(baseURL: baseURL)
        let exchange = RESTExchange(transport: transport, timeout: timeout, gate: gate)
        let dcr = DCRClient(urls: urls, exchange: exchange, userAgent: userAgent, timeSource: timeSource)
        let provider = AccessTokenProvider(
            dcr: dcr, softwareStatement: softwareStatement, cache: credentials, timeSource: timeSource,
            redirectURI: redirectURI)
        self.init(
            baseURL: baseURL, tokenProvider: provider, transport: transport, timeout: timeout, userAgent: userAgent,
            throttleGate: gate)
    }

    /// Creates a client sharing an existing token provider (several service provider URLs
    /// registered under the same software statement).
    ///
    /// - Parameter throttleGate: the throttling state shared by every client of one
    ///   AccessEnabler; `nil` gives this client a gate of its own on the wall clock.
    init(
        baseURL: URL, tokenProvider: AccessTokenProvider, transport: any HTTPTransport, timeout: TimeInterval,
        userAgent: String,
        throttleGate: ThrottleGate? = nil
    ) {
        self.baseURL = baseURL
        self.tokenProvider = tokenProvider
        self.urls = RESTURLBuilder(baseURL: baseURL)
        self.exchange = RESTExchange(transport: transport, timeout: timeout, gate: throttleGate ?? ThrottleGate())
        self.userAgent = userAgent
    }

    // MARK: Configuration

    /// `GET /api/v2/{serviceProvider}/configuration` (with `?profile=` when the context has
    /// an application profile).
    func configuration(serviceProvider: String, context: RequestContext) async throws(RESTClientError)
        -> ServiceConfiguration
    {
        try await configurationAnswer(serviceProvider: serviceProvider, context: context).configuration
    }

    /// ``configuration(serviceProvider:context:)``, with when its answer arrived (`nil` when the
    /// exchange did not note it): configurations asked of several service providers together
    /// are merged in that order.
    func configurationAnswer(serviceProvider: String, context: RequestContext) async throws(RESTClientError)
        -> (configuration: ServiceConfiguration, arrival: ContinuousClock.Instant?)
    {
        let query = context.applicationProfile.flatMap { $0.isEmpty ? nil : [("profile", $0)] } ?? []
        let answer = try await performPresentingTokens(
            .configuration, "GET", [serviceProvider, "configuration"], query: query, context: context,
            decoding: ServiceConfiguration.self)
        return (answer.value, answer.arrival)
    }

    // MARK: Sessions

    /// `POST /api/v2/{serviceProvider}/sessions`, form `mvpd`, `domainName`, `redirectUrl`.
    /// `mvpd` `nil`: the session is opened without one (the person chooses the MVPD in a
    /// secondary application, which resumes the session): Adobe Pass answers `resume`.
    func createSession(
        serviceProvider: String, mvpd: String?, domainName: String, redirectURL: String, context: RequestContext
    ) async throws(RESTClientError) -> SessionAction {
        let mvpdField: [(String, String)] = mvpd.map { [("mvpd", $0)] } ?? []
        return try await perform(
            .createSession, "POST", [serviceProvider, "sessions"],
            body: .form(mvpdField + [("domainName", domainName), ("redirectUrl", redirectURL)]),
            context: context, decoding: SessionAction.self)
    }

    /// ``createSession(serviceProvider:mvpd:domainName:redirectURL:context:)`` with a URL.
    func createSession(
        serviceProvider: String, mvpd: String?, domainName: String, redirectURL: URL, context: RequestContext
    ) async throws(RESTClientError) -> SessionAction {
        try await createSession(
            serviceProvider: serviceProvider, mvpd: mvpd, domainName: domainName,
            redirectURL: redirectURL.absoluteString,
            context: context)
    }

    /// `POST /api/v2/{serviceProvider}/sessions/{code}`, form `mvpd`, `domainName`, `redirectUrl`.
    func resumeSession(
        serviceProvider: String, code: String, mvpd: String, domainName: String, redirectURL: String,
        context: RequestContext
    ) async throws(RESTClientError) -> SessionAction {
        try await perform(
            .resumeSession, "POST", [serviceProvider, "sessions", code],
            body: .form([("mvpd", mvpd), ("domainName", domainName), ("redirectUrl", redirectURL)]),
            context: context, decoding: SessionAction.self)
    }

    /// ``resumeSession(serviceProvider:code:mvpd:domainName:redirectURL:context:)`` with a URL.
    func resumeSession(
        serviceProvider: String, code: String, mvpd: String, domainName: String, redirectURL: URL,
        context: RequestContext
    ) async throws(RESTClientError) -> SessionAction {
        try await resumeSession(
            serviceProvider: serviceProvider, code: code, mvpd: mvpd, domainName: domainName,
            redirectURL: redirectURL.absoluteString, context: context)
    }

    /// `GET /api/v2/{serviceProvider}/sessions/{code}`.
    func sessionInformation(serviceProvider: String, code: String, context: RequestContext)
        async throws(RESTClientError) -> SessionStatus
    {
        try await perform(
            .sessionInformation, "GET", [serviceProvider, "sessions", code], context: context,
            decoding: SessionStatus.self)
    }

    /// The absolute `/api/v2/authenticate/{serviceProvider}/{code}` URL a user agent opens
    /// to log in at the MVPD. No request is made.
    func authenticateURL(serviceProvider: String, code: String) -> URL {
        urls.url(["api", "v2", "authenticate", serviceProvider, code])
            ?? baseURL.appendingPathComponent("api/v2/authenticate/\(serviceProvider)/\(code)")
    }

    /// An absolute URL for a `url` attribute of a response (kept when absolute, resolved
    /// against the base URL when it is a path such as `/api/v2/authenticate/REF30/8ER640M`).
    func absoluteURL(for reference: String) -> URL? {
        urls.resolve(reference)
    }

    // MARK: Profiles

    /// `GET /api/v2/{serviceProvider}/profiles`: every valid profile, ordered by MVPD id.
    func profiles(serviceProvider: String, context: RequestContext) async throws(RESTClientError) -> [ProfileAnswer] {
        let (answer, tokens, _) = try await performPresentingTokens(
            .profiles, "GET", [serviceProvider, "profiles"], context: context, decoding: ProfilesResponse.self)
        return Self.naming(answer.profiles, issuersOf: tokens)
    }

    /// `GET /api/v2/{serviceProvider}/profiles/{mvpd}`.
    func profile(
        serviceProvider: String, mvpd: String, context: RequestContext
    ) async throws(RESTClientError) -> [ProfileAnswer] {
        let (answer, tokens, _) = try await performPresentingTokens(
            .profileForMVPD, "GET", [serviceProvider, "profiles", mvpd], context: context,
            decoding: ProfilesResponse.self)
        return Self.naming(answer.profiles, issuersOf: tokens)
    }

    /// Profiles shared through a token (`serviceTokenSSO`, `platformSSO`) name the issuer of
    /// the token this request presented: the identity service the sign-in came through.
    private static func naming(_ profiles: [ProfileAnswer], issuersOf tokens: SingleSignOnTokens) -> [ProfileAnswer] {
        guard tokens != .none else { return profiles }
        return profiles.map { profile in
            var named = profile
            named.tokenIssuer = tokens.issuer(forProfileType: profile.type)
            return named
        }
    }

    /// `GET /api/v2/{serviceProvider}/profiles/code/{code}`.
    func profile(
        serviceProvider: String, code: String, context: RequestContext
    ) async throws(RESTClientError) -> [ProfileAnswer] {
        try await perform(
            .profileForCode, "GET", [serviceProvider, "profiles", "code", code], context: context,
            decoding: ProfilesResponse.self
        ).profiles
    }

    // MARK: Partner single sign-on

    /// `POST /api/v2/{serviceProvider}/sessions/sso/{partner}` with the context's
    /// `AP-Partner-Framework-Status`; form `domainName`, `redirectUrl` (documented as
    /// required, used when the server falls back to basic authentication; omitted when nil).
    func partnerSession(
        serviceProvider: String, partner: String, domainName: String? = nil, redirectURL: String? = nil,
        context: RequestContext
    ) async throws(RESTClientError) -> PartnerSessionAction {
        var form: [(name: String, value: String)] = []
        if let domainName { form.append(("domainName", domainName)) }
        if let redirectURL { form.append(("redirectUrl", redirectURL)) }
        return try await perform(
            .partnerSession, "POST", [serviceProvider, "sessions", "sso", partner], body: .form(form), context: context,
            decoding: PartnerSessionAction.self)
    }

    /// ``partnerSession(serviceProvider:partner:domainName:redirectURL:context:)`` with a URL.
    func partnerSession(
        serviceProvider: String, partner: String, domainName: String, redirectURL: URL, context: RequestContext
    ) async throws(RESTClientError) -> PartnerSessionAction {
        try await partnerSession(
            serviceProvider: serviceProvider, partner: partner, domainName: domainName,
            redirectURL: redirectURL.absoluteString, context: context)
    }

    /// `POST /api/v2/{serviceProvider}/profiles/sso/{partner}`, form `SAMLResponse`.
    ///
    /// The documentation wants the SAML response Base64-encoded, then URL-encoded: a value
    /// that is not Base64 already (raw XML) is Base64-encoded first.
    func partnerProfile(
        serviceProvider: String, partner: String, samlResponse: String, context: RequestContext
    ) async throws(RESTClientError) -> [ProfileAnswer] {
        guard !samlResponse.isEmpty else {
            throw .invalidRequest(operation: .partnerProfile, reason: "the SAML response is empty")
        }
        let encoded =
            Data(base64Encoded: samlResponse) != nil ? samlResponse : Data(samlResponse.utf8).base64EncodedString()
        return try await perform(
            .partnerProfile, "POST", [serviceProvider, "profiles", "sso", partner],
            body: .form([("SAMLResponse", encoded)]),
            context: context, decoding: ProfilesResponse.self
        ).profiles
    }

    // MARK: Decisions

    /// `POST /api/v2/{serviceProvider}/decisions/authorize/{mvpd}`, JSON `{"resources": [...]}`.
    func authorize(serviceProvider: String, mvpd: String, resources: [String], context: RequestContext)
        async throws(RESTClientError) -> [Decision]
    {
        try await decisions(
            .authorize, "authorize", serviceProvider: serviceProvider, mvpd: mvpd, resources: resources,
            context: context)
    }

    /// `POST /api/v2/{serviceProvider}/decisions/preauthorize/{mvpd}`, JSON `{"resources": [...]}`.
    func preauthorize(serviceProvider: String, mvpd: String, resources: [String], context: RequestContext)
        async throws(RESTClientError) -> [Decision]
    {
        try await decisions(
            .preauthorize, "preauthorize", serviceProvider: serviceProvider, mvpd: mvpd, resources: resources,
            context: context)
    }

    private func decisions(
        _ operation: RESTOperation, _ kind: String, serviceProvider: String, mvpd: String, resources: [String],
        context: RequestContext
    ) async throws(RESTClientError) -> [Decision] {
        guard !resources.isEmpty else {
            throw .invalidRequest(operation: operation, reason: "no resource was given")
        }
        let body: Data
        do {
            body = try JSONEncoder().encode(["resources": resources])
        } catch {
            throw .invalidRequest(operation: operation, reason: "the resources could not be encoded")
        }
        return try await perform(
            operation, "POST", [serviceProvider, "decisions", kind, mvpd], body: .json(body), context: context,
            decoding: DecisionsResponse.self
        ).decisions
    }

    // MARK: Logout

    /// `GET /api/v2/{serviceProvider}/logout/{mvpd}?redirectUrl=…`.
    func logout(serviceProvider: String, mvpd: String, redirectURL: String, context: RequestContext)
        async throws(RESTClientError) -> [LogoutAction]
    {
        try await perform(
            .logout, "GET", [serviceProvider, "logout", mvpd], query: [("redirectUrl", redirectURL)], context: context,
            decoding: LogoutResponse.self
        ).logouts
    }

    /// ``logout(serviceProvider:mvpd:redirectURL:context:)`` with a URL.
    func logout(serviceProvider: String, mvpd: String, redirectURL: URL, context: RequestContext)
        async throws(RESTClientError) -> [LogoutAction]
    {
        try await logout(
            serviceProvider: serviceProvider, mvpd: mvpd, redirectURL: redirectURL.absoluteString, context: context)
    }

    // MARK: Exchange

    /// Builds (headers once, validated before any traffic), sends through the chain with
    /// the access token, and decodes one `/api/v2` operation.
    private func perform<Response: Decodable>(
        _ operation: RESTOperation, _ method: String, _ segments: [String],
        query: [(name: String, value: String)] = [], body: RESTRequestBody = .none, context: RequestContext,
        decoding: Response.Type
    ) async throws(RESTClientError) -> Response {
        try await performPresentingTokens(
            operation, method, segments, query: query, body: body, context: context, decoding: decoding
        ).value
    }

    /// ``perform(_:_:_:query:body:context:decoding:)``, also answering the single sign-on
    /// tokens the request presented (asked of their providers just before it is built) and
    /// when the answer arrived.
    private func performPresentingTokens<Response: Decodable>(
        _ operation: RESTOperation, _ method: String, _ segments: [String],
        query: [(name: String, value: String)] = [], body: RESTRequestBody = .none, context: RequestContext,
        decoding: Response.Type
    ) async throws(RESTClientError) -> (value: Response, tokens: SingleSignOnTokens, arrival: ContinuousClock.Instant?)
    {
        if segments.contains(where: \.isEmpty) {
            throw .invalidRequest(operation: operation, reason: "a path parameter is empty")
        }
        guard let url = urls.url(["api", "v2"] + segments, query: query) else {
            throw .invalidRequest(operation: operation, reason: "the base URL cannot form the request URL")
        }
        let tokens = operation.acceptsSingleSignOnTokens ? await singleSignOn.current() : .none
        let request = try request(operation, method, url, body: body, context: context, tokens: tokens)
        let response = try await exchange.send(
            request, operation: operation, signedBy: AccessTokenSigning(provider: tokenProvider, context: context))
        return (try read(Response.self, from: response, operation), tokens, response.arrival)
    }

    // Building a request and reading its answer are never inlined into the call above: their
    // temporaries then stay on the thread's stack instead of in the async frame a device
    // keeps while it waits for the answer.

    /// The request, with every header but `Authorization` (the exchange signs it:
    /// ``AccessTokenSigning``).
    @inline(never)
    private func request(
        _ operation: RESTOperation, _ method: String, _ url: URL, body: RESTRequestBody, context: RequestContext,
        tokens: SingleSignOnTokens
    ) throws(RESTClientError) -> HTTPRequestMessage {
        let headers = try RESTHeaders.build(
            operation: operation, accessToken: nil, body: body, context: context, userAgent: userAgent, tokens: tokens)
        return HTTPRequestMessage(
            method: method, url: url, headers: headers, body: body.data, operationName: operation.rawValue)
    }

    /// The decoded success body of `response`, or the error it means.
    @inline(never)
    private func read<Response: Decodable>(
        _ type: Response.Type, from response: HTTPResponseMessage, _ operation: RESTOperation
    ) throws(RESTClientError) -> Response {
        switch RESTResponseClassifier.classify(response, operation: operation, now: exchange.gate.clock.now) {
        case .success(let data):
            return try RESTResponseClassifier.decode(Response.self, from: data, operation: operation)
        case .unauthorized(let error):
            throw .server(operation: operation, httpStatus: 401, error: error)
        case .failure(let error):
            throw error
        }
    }
}
