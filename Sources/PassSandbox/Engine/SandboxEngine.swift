import Foundation

/// The sandbox's state and request handling. Not thread-safe by itself: `PassSandbox`
/// calls it only while holding its lock, so each request sees and leaves a consistent state.
final class SandboxEngine {
    /// Seconds an authentication session (its code) stays open unless the world sets
    /// another (``SandboxWorld/authenticationSessionTTL``); 30 minutes as in the samples.
    static let authenticationSessionTTL = TimeInterval(SandboxWorld.defaultAuthenticationSessionTTL)
    /// Seconds a SAML request handed to the partner framework stays answerable.
    static let samlRequestTTL: TimeInterval = 1_800
    /// The SAML attribute names requested in a partner authentication request.
    static let samlAttributeNames = ["userID", "householdID", "zip"]

    /// The world; any change (a dashboard edit) drops the cached configuration answers.
    var world: SandboxWorld {
        didSet { configurationCache.removeAll() }
    }
    let clock: SandboxClock
    var baseURL: URL
    /// Signs minted SAML responses and media tokens; random per sandbox.
    let secret: [UInt8]

    var registrations: [String: ClientRegistration] = [:]
    var accessTokens: [String: AccessTokenGrant] = [:]
    var sessions: [String: AuthenticationSession] = [:]
    var profiles: [ProfileOwner: [String: StoredProfile]] = [:]
    /// Profiles shared through identity tokens, world-wide.
    var singleSignOnProfiles: [SingleSignOnKey: SingleSignOnRecord] = [:]
    /// The keys of the world's identity services.
    let identityKeyring: SandboxIdentityKeyring
    /// Identity tokens whose signature already verified, so a token sent with every
    /// request is verified once (its times are still checked each time).
    var verifiedTokens: [VerifiedTokenKey: (identity: VerifiedIdentity, claims: SandboxJWTClaims)] = [:]
    var pendingSAMLRequests: [String: PendingSAMLRequest] = [:]
    /// Device-level TV provider sign-ins under way, by user code, and the household
    /// credentials issued (the sandbox's TV provider identity service).
    var householdRequests: [String: HouseholdSignInRequest] = [:]
    var householdCredentials: [String: HouseholdCredential] = [:]
    var tempPassStarts: [TempPassKey: Date] = [:]
    /// Promotional TempPass trials, and which identity or device holds which trial.
    var promotionalTrials: [Int: PromotionalTrial] = [:]
    var promotionalTrialHolders: [PromotionalTrialKey: Int] = [:]
    var nextPromotionalTrial = 0
    /// X-Device-Info values already checked, so the hot path decodes each value once.
    var acceptedDeviceInfo: [String: SandboxJSON] = [:]
    /// The encoded `requestor` of the configuration answer per service provider, until the
    /// world changes.
    var configurationCache: [String: [UInt8]] = [:]
    /// What the request being handled showed of the sandbox's state, for the checklist
    /// monitor: emptied as each request starts, filled in by the endpoint.
    var observed = ObservedFacts()

    // Expiry order of the tables whose entries all live equally long.
    var registrationExpiries = ExpiryQueue<String>()
    var accessTokenExpiries = ExpiryQueue<String>()
    var sessionExpiries = ExpiryQueue<String>()
    var samlRequestExpiries = ExpiryQueue<String>()
    /// The number of profile owners at which expired and orphaned profiles are next swept.
    var profileSweepAt = SandboxEngine.minimumProfileSweep
    /// The number of single sign-on profiles at which expired ones are next swept.
    var singleSignOnSweepAt = SandboxEngine.minimumProfileSweep

    init(world: SandboxWorld, clock: SandboxClock, baseURL: URL) {
        self.world = world
        self.clock = clock
        self.baseURL = baseURL
        identityKeyring = SandboxIdentityKeyring(services: world.identityServicesInForce)
        var generator = SystemRandomNumberGenerator()
        secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    // MARK: Routing

    /// Answers one request whose path matched `route`.
    func handle(_ route: SandboxRoute, _ request: SandboxRequest) -> SandboxResponse {
        let method = HTTPASCII.uppercasedToken(request.method)
        guard route.allowedMethods.contains(method) else {
            return Self.methodNotAllowed(method: method, path: request.path)
        }
        let now = clock.now
        observed = ObservedFacts()
        sweepExpired(now: now)
        do {
            switch route {
            case .dcrRegister: return registerClient(request, now: now)
            case .dcrToken: return issueAccessToken(request, now: now)
            case .configuration(let sp): return try configuration(request, serviceProvider: sp)
            case .createSession(let sp): return try createSession(request, serviceProvider: sp, now: now)
            case .resumeSession(let sp, let code):
                return try resumeSession(request, serviceProvider: sp, code: code, now: now)
            case .sessionInformation(let sp, let code):
                return try sessionInformation(request, serviceProvider: sp, code: code, now: now)
            case .authenticate(let sp, let code): return startAuthentication(serviceProvider: sp, code: code, now: now)
            case .login(let mvpd): return loginPage(request, mvpd: mvpd, now: now)
            case .profiles(let sp): return try allProfiles(request, serviceProvider: sp, now: now)
            case .profileForMVPD(let sp, let mvpd):
                return try profileForMVPD(request, serviceProvider: sp, mvpd: mvpd, now: now)
            case .profileForCode(let sp, let code):
                return try profileForCode(request, serviceProvider: sp, code: code, now: now)
            case .partnerSession(let sp, let partner):
                return try partnerSession(request, serviceProvider: sp, partner: partner, now: now)
            case .partnerProfile(let sp, let partner):
                return try partnerProfile(request, serviceProvider: sp, partner: partner, now: now)
            case .authorize(let sp, let mvpd):
                return try decisions(request, serviceProvider: sp, mvpd: mvpd, authorize: true, now: now)
            case .preauthorize(let sp, let mvpd):
                return try decisions(request, serviceProvider: sp, mvpd: mvpd, authorize: false, now: now)
            case .logout(let sp, let mvpd): return try logout(request, serviceProvider: sp, mvpd: mvpd, now: now)
            case .mvpdLogout: return mvpdLogoutPage(request)
            case .activate: return activation(request, now: now)
            case .resetTempPass: return resetTempPassRequest(request, now: now)
            case .checklist: return Self.notFound(path: request.path)  // PassSandbox answers it
            case .householdDeviceCode: return householdDeviceCode(request, now: now)
            case .householdToken: return householdToken(request, now: now)
            case .householdSignIn: return householdSignInPage(request, now: now)
            case .householdSAML: return householdSAML(request, now: now)
            case .householdRevoke: return householdRevoke(request, now: now)
            }
        } catch {
            observed.errorActions.append(error.action)
            observed.errorCode = error.code
            if route.endpoint == .authorize || route.endpoint == .preauthorize { observed.denied = true }
            return error.response
        }
    }

    // MARK: Common checks

    /// The caller of a REST API V2 endpoint: its access token and the service provider.
    struct Caller {
        let grant: AccessTokenGrant
        let provider: SandboxServiceProvider
    }

    /// Checks `Authorization: Bearer` (issued, unexpired) and that the token's software
    /// statement covers `serviceProvider`. A refusal is a `401` whose `WWW-Authenticate`
    /// challenge says what was wrong, as RFC 6750 §3 has it: no error code when no token was
    /// sent, `invalid_request` for another scheme, `invalid_token` for a token refused.
    func authorizeCaller(_ request: SandboxRequest, serviceProvider: String, now: Date) throws(SandboxEnhancedError)
        -> Caller
    {
        func refused(
            _ details: String, error: String?, _ base: SandboxEnhancedError = .invalidAccessTokenClientApplication
        ) -> SandboxEnhancedError {
            base.with(details: details).with(
                challenge: SandboxEnhancedError.bearerChallenge(error: error, description: error == nil ? nil : details)
            )
        }
        let grant: AccessTokenGrant
        switch bearerGrant(request, now: now) {
        case .success(let found): grant = found
        case .failure(let problem): throw refused(problem.details, error: problem.error)
        }
        guard let provider = world.serviceProvider(serviceProvider) else {
            throw SandboxEnhancedError.invalidServiceProvider
        }
        guard world.softwareStatements[grant.statement]?.contains(serviceProvider) == true else {
            throw refused(
                "The access token's software statement does not cover the service provider \(serviceProvider).",
                error: "invalid_token", .invalidAccessTokenServiceProvider)
        }
        return Caller(grant: grant, provider: provider)
    }

    /// Why a request's bearer token is refused: what to say, and the RFC 6750 error code
    /// (`nil` when no token was sent).
    struct BearerProblem: Error {
        let details: String
        let error: String?
    }

    /// The unexpired grant of the request's `Authorization: Bearer` token (issued by
    /// `/o/client/token`), or why not. Notes the client for the checklist monitor.
    func bearerGrant(_ request: SandboxRequest, now: Date) -> Result<AccessTokenGrant, BearerProblem> {
        guard let header = request.header("Authorization") else {
            return .failure(BearerProblem(details: "The Authorization header is missing.", error: nil))
        }
        guard let parts = HTTPASCII.splitOnce(header, at: HTTPByte.space),
            HTTPASCII.equalIgnoringCase(String(parts.head), "bearer")
        else {
            return .failure(
                BearerProblem(details: "The Authorization header is not a Bearer token.", error: "invalid_request"))
        }
        guard let grant = accessTokens[HTTPASCII.trimmingSpaces(String(parts.tail))] else {
            return .failure(BearerProblem(details: "The access token is unknown.", error: "invalid_token"))
        }
        observed.clientID = grant.clientID
        observed.statement = grant.statement
        guard now < grant.expiresAt else {
            return .failure(BearerProblem(details: "The access token has expired.", error: "invalid_token"))
        }
        return .success(grant)
    }

    /// The device identifier from `AP-Device-Identifier: fingerprint <base64>`.
    func deviceIdentifier(_ request: SandboxRequest) throws(SandboxEnhancedError) -> String {
        guard let header = request.header("AP-Device-Identifier") else {
            throw SandboxEnhancedError.invalidDeviceIdentifier.with(
                details: "The AP-Device-Identifier header is missing.")
        }
        guard let identifier = Self.fingerprint(in: header) else {
            throw SandboxEnhancedError.invalidDeviceIdentifier.with(
                details: "Expected \"fingerprint <Base64-encoded identifier>\".")
        }
        return identifier
    }

    /// The Base64 identifier of an `AP-Device-Identifier` value (`fingerprint <Base64>`),
    /// or `nil` when the value is not of that form.
    static func fingerprint(in header: String) -> String? {
        guard let parts = HTTPASCII.splitOnce(header, at: HTTPByte.space), parts.head == "fingerprint" else {
            return nil
        }
        let identifier = HTTPASCII.trimmingSpaces(String(parts.tail))
        return HTTPASCII.isBase64(identifier) ? identifier : nil
    }

    /// The device information from `X-Device-Info` (Base64-encoded JSON object with the
    /// required keys and documented restricted values). `nil` when absent and not `required`.
    @discardableResult
    func deviceInfo(_ request: SandboxRequest, required: Bool) throws(SandboxEnhancedError) -> SandboxJSON? {
        guard let header = request.header("X-Device-Info") else {
            if required {
                throw SandboxEnhancedError.invalidDeviceInfo.with(details: "The X-Device-Info header is missing.")
            }
            return nil
        }
        if let known = acceptedDeviceInfo[header] { return known }
        switch SandboxDeviceInfoRules.check(header) {
        case .failure(let problem):
            throw SandboxEnhancedError.invalidDeviceInfo.with(details: problem.text)
        case .success(let object):
            let info = SandboxJSON(foundation: object)
            if acceptedDeviceInfo.count > 1_000 { acceptedDeviceInfo.removeAll() }
            acceptedDeviceInfo[header] = info
            return info
        }
    }

    /// The MVPD integration `mvpdID` of `provider`, refused with `invalid_integration`
    /// when unknown or inactive.
    func activeIntegration(_ provider: SandboxServiceProvider, _ mvpdID: String) throws(SandboxEnhancedError)
        -> SandboxMVPDConfig
    {
        guard !mvpdID.isEmpty else { throw SandboxEnhancedError.invalidMVPD }
        guard let mvpd = provider.mvpd(mvpdID), mvpd.integrationActive else {
            throw SandboxEnhancedError.invalidIntegration.with(
                details: "No active integration between \(provider.id) and \(mvpdID).")
        }
        return mvpd
    }

    /// Form parameters of an `application/x-www-form-urlencoded` body; the first value wins,
    /// empty values count as missing.
    func formParameters(_ request: SandboxRequest) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in SandboxRequest.decodeForm(String(decoding: request.body, as: UTF8.self))
        where !value.isEmpty && parameters[name] == nil {
            parameters[name] = value
        }
        return parameters
    }

    /// An absolute URL under ``baseURL`` for `path` (which may carry a query).
    func absoluteURL(_ path: String) -> String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// A random identifier (`UUID` text, lower case).
    func newIdentifier() -> String { UUID().uuidString.lowercased() }

    /// A random 7-character authentication code, unused, of characters that do not read
    /// alike (``SandboxRegistrationCode``).
    func newCode() -> String {
        SandboxRegistrationCode.random { sessions[$0] != nil }
    }

    /// A random opaque secret of `byteCount` bytes, Base64URL-encoded.
    func newSecret(byteCount: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let base64 = Data(bytes).base64EncodedString().utf8
        return String(
            decoding: base64.compactMap { byte -> UInt8? in
                switch byte {
                case UInt8(ascii: "+"): UInt8(ascii: "-")
                case UInt8(ascii: "/"): UInt8(ascii: "_")
                case UInt8(ascii: "="): nil
                default: byte
                }
            }, as: UTF8.self)
    }

    // MARK: Expiry and limits

    /// The most entries each table keeps; past it the oldest go even if still valid (an
    /// application whose registration or token went simply registers or renews again).
    static let maximumRegistrations = 100_000
    static let maximumAccessTokens = 100_000
    static let maximumSessions = 100_000
    static let maximumPendingSAMLRequests = 100_000
    /// How long an ended authentication session is remembered (to tell its code expired).
    static let endedSessionRetention: TimeInterval = 86_400
    /// How many expired entries of each table one request may sweep.
    static let sweepBudget = 8
    /// Below this many profile owners, profiles are not swept.
    static let minimumProfileSweep = 10_000

    /// Forgets what ended: a few expired registrations, access tokens, sessions and SAML
    /// requests per request (bounded work, oldest first), and, once the profile table has
    /// doubled since the last sweep, expired profiles and those of clients that are gone.
    /// Also keeps every table within its limit.
    func sweepExpired(now: Date) {
        let budget = Self.sweepBudget
        registrationExpiries.sweep(
            now: now, expiredBudget: budget, capacity: Self.maximumRegistrations, tableCount: { registrations.count }
        ) {
            registrations[$0] = nil
        }
        accessTokenExpiries.sweep(
            now: now, expiredBudget: budget, capacity: Self.maximumAccessTokens, tableCount: { accessTokens.count }
        ) {
            accessTokens[$0] = nil
        }
        sessionExpiries.sweep(
            now: now, expiredBudget: budget, capacity: Self.maximumSessions, tableCount: { sessions.count }
        ) {
            sessions[$0] = nil
        }
        samlRequestExpiries.sweep(
            now: now, expiredBudget: budget, capacity: Self.maximumPendingSAMLRequests,
            tableCount: { pendingSAMLRequests.count }
        ) {
            pendingSAMLRequests[$0] = nil
        }
        if profiles.count > profileSweepAt { sweepProfiles(now: now) }
        if singleSignOnProfiles.count > singleSignOnSweepAt { sweepSingleSignOnProfiles(now: now) }
    }

    /// Drops expired profiles and the profiles of clients no longer registered (nobody can
    /// reach them: profiles belong to the client that created them). Amortised: the next
    /// sweep waits until the table has doubled.
    func sweepProfiles(now: Date) {
        var kept: [ProfileOwner: [String: StoredProfile]] = [:]
        kept.reserveCapacity(profiles.count)
        for (owner, byMVPD) in profiles where registrations[owner.clientID] != nil {
            let live = byMVPD.filter { now < $0.value.notAfter }
            if !live.isEmpty { kept[owner] = live }
        }
        profiles = kept
        profileSweepAt = max(Self.minimumProfileSweep, profiles.count * 2)
    }

    /// Records a new registration and queues its expiry.
    func remember(_ registration: ClientRegistration) {
        registrations[registration.clientID] = registration
        registrationExpiries.append(registration.clientID, expiresAt: registration.expiresAt)
    }

    /// Records a new access token and queues its expiry.
    func remember(_ grant: AccessTokenGrant, token: String) {
        accessTokens[token] = grant
        accessTokenExpiries.append(token, expiresAt: grant.expiresAt)
    }

    /// Records a new authentication session and queues its end.
    func remember(_ session: AuthenticationSession) {
        observed.issuedCode = ObservedFacts.IssuedCode(
            code: session.code, deviceID: session.deviceID, serviceProvider: session.serviceProvider,
            expiresAt: session.notAfter)
        sessions[session.code] = session
        // Ended sessions are kept a day, so a late code is told "expired" rather than "unknown".
        sessionExpiries.append(session.code, expiresAt: session.notAfter.addingTimeInterval(Self.endedSessionRetention))
    }

    /// Records a SAML request handed out and queues its end.
    func remember(_ request: PendingSAMLRequest) {
        pendingSAMLRequests[request.requestID] = request
        samlRequestExpiries.append(request.requestID, expiresAt: request.expiresAt)
    }
}
