import Foundation

/// The sandbox's state and request handling. Not thread-safe by itself: `PassSandbox`
/// calls it only while holding its lock, so each request sees and leaves a consistent state.
final class SandboxEngine {
    /// Seconds an authentication session (its code) stays open; 30 minutes as in the samples.
    static let authenticationSessionTTL: TimeInterval = 1_800
    /// The most resources one preauthorization request may ask about ("typically up to 5").
    static let maximumPreauthorizeResources = 5
    /// The most resources one authorization request may ask about.
    static let maximumAuthorizeResources = 5
    /// The SAML attribute names requested in a partner authentication request.
    static let samlAttributeNames = ["userID", "householdID", "zip"]

    var world: SandboxWorld
    let clock: SandboxClock
    var baseURL: URL
    /// Signs minted SAML responses and media tokens; random per sandbox.
    let secret: [UInt8]

    var registrations: [String: ClientRegistration] = [:]
    var accessTokens: [String: AccessTokenGrant] = [:]
    var sessions: [String: AuthenticationSession] = [:]
    var profiles: [ProfileOwner: [String: StoredProfile]] = [:]
    var pendingSAMLRequests: [String: PendingSAMLRequest] = [:]
    var tempPassStarts: [TempPassKey: Date] = [:]
    /// X-Device-Info values already checked, so the hot path decodes each value once.
    var acceptedDeviceInfo: [String: SandboxJSON] = [:]

    init(world: SandboxWorld, clock: SandboxClock, baseURL: URL) {
        self.world = world
        self.clock = clock
        self.baseURL = baseURL
        var generator = SystemRandomNumberGenerator()
        secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    // MARK: Routing

    /// Answers one request whose path matched `route`.
    func handle(_ route: SandboxRoute, _ request: SandboxRequest) -> SandboxResponse {
        guard route.allowedMethods.contains(request.method.uppercased()) else {
            return .text("Method Not Allowed", status: 405, headers: [("Allow", route.allowedMethods.joined(separator: ", "))])
        }
        let now = clock.now
        do {
            switch route {
            case .dcrRegister: return registerClient(request, now: now)
            case .dcrToken: return issueAccessToken(request, now: now)
            case .configuration(let sp): return try configuration(request, serviceProvider: sp)
            case .createSession(let sp): return try createSession(request, serviceProvider: sp, now: now)
            case .resumeSession(let sp, let code): return try resumeSession(request, serviceProvider: sp, code: code, now: now)
            case .sessionInformation(let sp, let code): return try sessionInformation(request, serviceProvider: sp, code: code, now: now)
            case .authenticate(let sp, let code): return startAuthentication(serviceProvider: sp, code: code, now: now)
            case .login(let mvpd): return loginPage(request, mvpd: mvpd, now: now)
            case .profiles(let sp): return try allProfiles(request, serviceProvider: sp, now: now)
            case .profileForMVPD(let sp, let mvpd): return try profileForMVPD(request, serviceProvider: sp, mvpd: mvpd, now: now)
            case .profileForCode(let sp, let code): return try profileForCode(request, serviceProvider: sp, code: code, now: now)
            case .partnerSession(let sp, let partner): return try partnerSession(request, serviceProvider: sp, partner: partner, now: now)
            case .partnerProfile(let sp, let partner): return try partnerProfile(request, serviceProvider: sp, partner: partner, now: now)
            case .authorize(let sp, let mvpd): return try decisions(request, serviceProvider: sp, mvpd: mvpd, authorize: true, now: now)
            case .preauthorize(let sp, let mvpd): return try decisions(request, serviceProvider: sp, mvpd: mvpd, authorize: false, now: now)
            case .logout(let sp, let mvpd): return try logout(request, serviceProvider: sp, mvpd: mvpd, now: now)
            case .mvpdLogout: return mvpdLogoutPage(request)
            case .activate: return activation(request, now: now)
            }
        } catch {
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
    /// statement covers `serviceProvider`.
    func authorizeCaller(_ request: SandboxRequest, serviceProvider: String, now: Date) throws(SandboxEnhancedError) -> Caller {
        guard let header = request.header("Authorization") else {
            throw SandboxEnhancedError.invalidAccessTokenClientApplication.with(details: "The Authorization header is missing.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw SandboxEnhancedError.invalidAccessTokenClientApplication.with(details: "The Authorization header is not a Bearer token.")
        }
        guard let grant = accessTokens[String(parts[1]).trimmingCharacters(in: .whitespaces)] else {
            throw SandboxEnhancedError.invalidAccessTokenClientApplication.with(details: "The access token is unknown.")
        }
        guard now < grant.expiresAt else {
            throw SandboxEnhancedError.invalidAccessTokenClientApplication.with(details: "The access token has expired.")
        }
        guard let provider = world.serviceProvider(serviceProvider) else {
            throw SandboxEnhancedError.invalidServiceProvider
        }
        guard world.softwareStatements[grant.statement]?.contains(serviceProvider) == true else {
            throw SandboxEnhancedError.invalidAccessTokenServiceProvider
        }
        return Caller(grant: grant, provider: provider)
    }

    /// The device identifier from `AP-Device-Identifier: fingerprint <base64>`.
    func deviceIdentifier(_ request: SandboxRequest) throws(SandboxEnhancedError) -> String {
        guard let header = request.header("AP-Device-Identifier") else {
            throw SandboxEnhancedError.invalidDeviceIdentifier.with(details: "The AP-Device-Identifier header is missing.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0] == "fingerprint",
              let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)), !decoded.isEmpty
        else {
            throw SandboxEnhancedError.invalidDeviceIdentifier.with(details: "Expected \"fingerprint <Base64-encoded identifier>\".")
        }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    /// The device information from `X-Device-Info` (Base64-encoded JSON object). `nil`
    /// when absent and not `required`.
    @discardableResult
    func deviceInfo(_ request: SandboxRequest, required: Bool) throws(SandboxEnhancedError) -> SandboxJSON? {
        guard let header = request.header("X-Device-Info") else {
            if required { throw SandboxEnhancedError.invalidDeviceInfo.with(details: "The X-Device-Info header is missing.") }
            return nil
        }
        if let known = acceptedDeviceInfo[header] { return known }
        guard let data = Data(base64Encoded: header.trimmingCharacters(in: .whitespaces)),
              let object = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any]
        else {
            throw SandboxEnhancedError.invalidDeviceInfo.with(details: "Expected a Base64-encoded JSON object.")
        }
        let info = SandboxJSON(foundation: object)
        if acceptedDeviceInfo.count > 1_000 { acceptedDeviceInfo.removeAll() }
        acceptedDeviceInfo[header] = info
        return info
    }

    /// The MVPD integration `mvpdID` of `provider`, refused with `invalid_integration`
    /// when unknown or inactive.
    func activeIntegration(_ provider: SandboxServiceProvider, _ mvpdID: String) throws(SandboxEnhancedError) -> SandboxMVPDConfig {
        guard !mvpdID.isEmpty else { throw SandboxEnhancedError.invalidMVPD }
        guard let mvpd = provider.mvpd(mvpdID), mvpd.integrationActive else {
            throw SandboxEnhancedError.invalidIntegration.with(details: "No active integration between \(provider.id) and \(mvpdID).")
        }
        return mvpd
    }

    /// Form parameters of an `application/x-www-form-urlencoded` body; the first value wins,
    /// empty values count as missing.
    func formParameters(_ request: SandboxRequest) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in SandboxRequest.decodeForm(String(decoding: request.body, as: UTF8.self)) where !value.isEmpty && parameters[name] == nil {
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

    /// A random 7-character authentication code.
    func newCode() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        while true {
            let code = String((0..<7).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            if sessions[code] == nil { return code }
        }
    }

    /// A random opaque secret of `byteCount` bytes, Base64URL-encoded.
    func newSecret(byteCount: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Forgets expired sessions, tokens and SAML requests once the tables grow, so a long
    /// benchmark does not grow memory without bound.
    func pruneIfLarge(now: Date) {
        if sessions.count > 10_000 { sessions = sessions.filter { $0.value.isOpen(at: now) } }
        if accessTokens.count > 10_000 { accessTokens = accessTokens.filter { now < $0.value.expiresAt } }
        if pendingSAMLRequests.count > 10_000 { pendingSAMLRequests = pendingSAMLRequests.filter { now < $0.value.expiresAt } }
    }
}
