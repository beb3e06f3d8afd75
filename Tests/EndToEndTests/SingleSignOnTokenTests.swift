import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Single sign-on with a service token (`AD-Service-Token`) or a platform identity
/// (`Adobe-Subject-Token`): the headers on the requests whose pages list them, a second app
/// signed in at its setRequestor, the shared profile through the legacy callbacks, single
/// logout, and a refused token.
@Suite struct SingleSignOnTokenTests {
    static var tokenSource: [String: Any] {
        [METADATA_OPCODE_KEY: Int(METADATA_USER_META), METADATA_USER_META_KEY: "tokenSource"]
    }

    /// The token an app's identity service currently gives; tests change it.
    final class TokenBox: Sendable {
        private let value = NSLockedBox<String>()
        var token: String? {
            get { value.value }
            set { value.value = newValue }
        }
    }

    /// App A (REF30, its own device) and app B (REF31, another device), both presenting
    /// `token`'s value in `header`.
    static func twoApps(_ wire: ScenarioRunner.Wire, platformIdentity: Bool = false, secondOnATV: Bool = false) throws
        -> (RegularHarness, RegularHarness, TokenBox)
    {
        let box = TokenBox()
        let configure: @Sendable (inout AccessEnablerConfiguration) -> Void = { configuration in
            if platformIdentity {
                configuration.platformIdentity = { box.token }
            } else {
                configuration.serviceToken = { box.token }
            }
        }
        let first = try RegularHarness(wire, configure: configure)
        let second = try RegularHarness(wire, softwareStatement: "STATEMENT2", sharing: first) { configuration in
            configure(&configuration)
            // A TV signs in on a second screen: with the token it never needs a code.
            if secondOnATV { configuration.loginScreen = .secondScreen }
        }
        box.token = try first.sandboxes[0].issueIdentityToken(
            subject: "jane", issuer: platformIdentity ? "sandbox-platform" : "sandbox-identity")
        return (first, second, box)
    }

    @Test(arguments: bothWires, [(false, false), (true, false), (false, true)])
    func aSecondAppIsSignedInAtItsSetRequestorAndASingleLogoutEndsBoth(
        wire: ScenarioRunner.Wire, kind: (platformIdentity: Bool, secondOnATV: Bool)
    ) async throws {
        let platformIdentity = kind.platformIdentity
        let (first, second, _) = try Self.twoApps(
            wire, platformIdentity: platformIdentity, secondOnATV: kind.secondOnATV)
        defer { second.stop(); first.stop() }
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await first.logIn(mvpd: "NotBoarded", expectDialog: [regularDialog])

        // App B, on another device, presents a token of the same user: signed in with no login.
        #expect(await second.call { $0.setRequestor("REF31") } == ["setRequestorComplete(1)"])
        #expect(
            await second.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(second.restCalls.isEmpty, "checkAuthentication stays local")
        #expect(await second.call { $0.getAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        let issuer = platformIdentity ? "sandbox-platform" : "sandbox-identity"
        #expect(await second.call { $0.getMetadata(Self.tokenSource) } == [#"setMetadataStatus(3,false,"\#(issuer)")"#])
        #expect(
            await second.call { $0.checkAuthorization("news") } == [
                "sendTrackingData(1,true,NotBoarded)", "setToken(news)",
            ])
        #expect(await second.call { $0.getSelectedProvider() } == ["selectedProvider(NotBoarded)"])

        // A logout presenting the token is a single logout: app A is signed out too.
        #expect(await second.call { $0.logout() } == [logoutPage, notAuthenticated])
        #expect(second.restCalls == ["GET /api/v2/REF31/logout/NotBoarded"])
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            await first.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(await first.call { $0.getAuthentication() } == [regularDialog])
        #expect(
            await first.call { $0.setSelectedProvider("NotBoarded") } == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
    }

    @Test(arguments: bothWires)
    func theTokenGoesOnlyOnRequestsWhosePagesListIt(wire: ScenarioRunner.Wire) async throws {
        let (first, second, box) = try Self.twoApps(wire)
        defer { second.stop(); first.stop() }
        let token = try #require(box.token)
        // Every request app A sends, call after call.
        var requests: [SentRequest] = []
        func call(_ body: (AccessEnabler) -> Void) async -> [String] {
            let signatures = await first.call(body)
            requests += first.capture.requests
            return signatures
        }
        #expect(await call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await call { $0.getAuthentication() } == [regularDialog])
        #expect(
            await call { $0.setSelectedProvider("NotBoarded") } == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        let page = try #require(first.recorder.lastNavigationURL)
        let landing = try await first.userAgent(for: page).login(
            startingAt: page, username: "alice", password: "alice123", redirectPrefix: "adobepass://ios.app")
        #expect(await call { $0.handleExternalURL(landing) } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(
            await call { $0.checkAuthorization("news") } == ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"])
        #expect(await call { $0.checkPreauthorizedResources(["news"]) } == ["preauthorizedResources(news)"])
        #expect(await call { $0.logout() } == [logoutPage, notAuthenticated])
        #expect(await call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        // Everything app A sent carried the token exactly when its Adobe page lists the header.
        for request in requests {
            #expect(
                (request.header("AD-Service-Token") == token) == Self.pageListsTheHeader(request.line),
                "\(request.line)")
            #expect(request.header("Adobe-Subject-Token") == nil, "no platform identity configured: \(request.line)")
        }
        let lines = Set(requests.map(\.line))
        #expect(
            lines.isSuperset(of: [
                "GET /api/v2/REF30/configuration", "GET /api/v2/REF30/profiles", "POST /api/v2/REF30/sessions",
                "POST /api/v2/REF30/decisions/authorize/NotBoarded",
                "POST /api/v2/REF30/decisions/preauthorize/NotBoarded",
                "GET /api/v2/REF30/logout/NotBoarded",
            ]), "\(lines.sorted())")
    }

    /// Whether the REST API V2 page of the request `METHOD /path` lists `AD-Service-Token`:
    /// create session, the profiles (all, or of one MVPD), both decisions, logout.
    static func pageListsTheHeader(_ line: String) -> Bool {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return false }
        let segments = parts[1].split(separator: "/").map(String.init)
        guard segments.count >= 4, segments[0] == "api", segments[1] == "v2" else { return false }
        switch (parts[0], segments[3]) {
        case ("POST", "sessions"): return segments.count == 4
        case ("GET", "profiles"): return segments.count <= 5 && !(segments.count == 5 && segments[4] == "code")
        case ("POST", "decisions"), ("GET", "logout"): return true
        default: return false
        }
    }

    @Test(arguments: bothWires)
    func aRenewedTokenIsUsedAtOnceAndNoTokenSendsNoHeader(wire: ScenarioRunner.Wire) async throws {
        let (first, second, box) = try Self.twoApps(wire)
        defer { second.stop(); first.stop() }
        box.token = nil
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(first.capture.requests.allSatisfy { $0.header("AD-Service-Token") == nil })
        let renewed = try first.sandboxes[0].issueIdentityToken(subject: "john")
        box.token = renewed
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        let profiles = try #require(first.capture.requests.first { $0.line == "GET /api/v2/REF30/profiles" })
        #expect(profiles.header("AD-Service-Token") == renewed)
    }

    @Test(arguments: bothWires)
    func aTamperedOrExpiredTokenIsRefusedWithAClearStatus(wire: ScenarioRunner.Wire) async throws {
        let (first, second, box) = try Self.twoApps(wire)
        defer { second.stop(); first.stop() }
        let good = try #require(box.token)
        let expired = try first.sandboxes[0].issueIdentityToken(subject: "jane", validFor: -60)
        var parts = good.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        for refused in [parts.joined(separator: "."), expired] {
            let statuses = StatusCollector(queue: DispatchQueue(label: "sso.refused"), name: "sso.refused")
            box.token = refused
            #expect(await first.call { $0.setRequestor("REF30") } == ["status(N500,error)", "setRequestorComplete(1)"])
            #expect(await first.call { $0.getAuthentication() } == [regularDialog])
            let chosen = await first.call { $0.setSelectedProvider("NotBoarded") }
            #expect(
                chosen == [
                    "sendTrackingData(2,NotBoarded)", "status(N500,error)", "sendTrackingData(0,false,)",
                    "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                ], "\(chosen)")
            first.accessEnabler.statusDelegate = statuses
            _ = await first.call { $0.setRequestor("REF30") }
            let status = try #require(statuses.statuses.first)
            #expect(status.enhancedError?.code == "invalid_header_service_token")
            #expect(status.message?.contains("AD-Service-Token") == true)
            #expect(status.message?.contains(refused) == false, "the token is never repeated")
            first.accessEnabler.statusDelegate = first.recorder
        }
        // Signed in with a good token, then presenting a bad one: authorization and logout say so.
        box.token = good
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await first.logIn(mvpd: "NotBoarded", expectDialog: [regularDialog])
        box.token = parts.joined(separator: ".")
        let authorization = await first.call { $0.checkAuthorization("news") }
        #expect(
            authorization == [
                "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ], "\(authorization)")
        #expect(await first.call { $0.logout() } == ["status(N500,error)", notAuthenticated])
    }

    @Test(arguments: bothWires)
    func diagnosticsNeverCarryTheToken(wire: ScenarioRunner.Wire) async throws {
        let reports = NSLockedBox<[String]>()
        let box = TokenBox()
        let harness = try RegularHarness(wire) { configuration in
            configuration.serviceToken = { box.token }
            configuration.diagnostics = { diagnostic in reports.update { $0 = ($0 ?? []) + ["\(diagnostic)"] } }
        }
        defer { harness.stop() }
        box.token = try harness.sandboxes[0].issueIdentityToken(subject: "jane")
        let token = try #require(box.token)
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await harness.logIn(mvpd: "NotBoarded", expectDialog: [regularDialog])
        let all = reports.value ?? []
        #expect(!all.isEmpty)
        #expect(all.allSatisfy { !$0.contains(token) && !$0.contains(token.split(separator: ".")[2]) })
    }
}
