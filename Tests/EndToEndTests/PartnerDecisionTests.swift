import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// `AP-Partner-Framework-Status` as the sandbox received it: built only from a validated
/// partner status, sent on the partner SSO calls and on the decisions of an `appleSSO`
/// profile, and never on the others.
@Suite struct PartnerDecisionTests {
    static let sessions = "POST /api/v2/REF30/sessions/sso/Apple"
    static let profiles = "POST /api/v2/REF30/profiles/sso/Apple"

    /// Checks a header against the device's sign-in: granted, the provider, its expiry in ms.
    private func expectValidated(
        _ request: ProbedRequest?, rig: PartnerHeaderRig, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let request else {
            Issue.record("the request was not made exactly once", sourceLocation: sourceLocation)
            return
        }
        guard let status = request.partnerStatus else {
            Issue.record(
                "\(request.line) carried no decodable AP-Partner-Framework-Status", sourceLocation: sourceLocation)
            return
        }
        let expiry = rig.device.signedIn?.expiresAt
        #expect(status.accessStatus == "granted", sourceLocation: sourceLocation)
        #expect(status.providerID == "AppleBoarded", sourceLocation: sourceLocation)
        #expect(status.hasError == false, sourceLocation: sourceLocation)
        #expect(
            status.expirationDate == expiry.map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded())) },
            sourceLocation: sourceLocation)
        #expect(
            status.expiration.map { $0 > rig.sandbox.clock.now } == true, "the expiration is in the future",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: bothWires)
    func theSilentExchangeCarriesTheValidatedStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "AppleBoarded")
        #expect(await rig.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(rig.probe.requests.map(\.line) == Partner.launchCalls + Partner.exchangeCalls)
        expectValidated(rig.request(Self.sessions), rig: rig)
        expectValidated(rig.request(Self.profiles), rig: rig)
        let others = rig.probe.requests.filter { ![Self.sessions, Self.profiles].contains($0.line) }
        #expect(others.allSatisfy { $0.partnerStatusHeader == nil }, "DCR and configuration carry no partner status")
        #expect(
            rig.sandbox.requestLog.map { "\($0.method) \($0.path) \($0.status)" }.suffix(2) == [
                "\(Self.sessions) 200", "\(Self.profiles) 201",
            ], "the sandbox accepted both")
    }

    @Test(arguments: bothWires)
    func anExpiredProviderSignInReachesNoPartnerEndpoint(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "AppleBoarded", expiresIn: 60)
        rig.sandbox.clock.advance(by: 120)
        #expect(await rig.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(rig.probe.requests.map(\.line) == Partner.launchCalls)
        #expect(rig.probe.requests.allSatisfy { $0.partnerStatusHeader == nil })
        #expect(!rig.sandbox.requestLog.contains { $0.path.contains("/sso/") })
    }

    @Test(arguments: bothWires)
    func anUnknownProviderReachesNoPartnerEndpoint(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "UnknownTV")
        #expect(await rig.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(rig.probe.requests.map(\.line) == Partner.launchCalls)
        #expect(rig.probe.requests.allSatisfy { $0.partnerStatusHeader == nil })
        #expect(!rig.sandbox.requestLog.contains { $0.path.contains("/sso/") })
    }

    @Test(arguments: bothWires)
    func authorizationOfAnAppleSSOProfileCarriesThePartnerStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "AppleBoarded")
        await rig.call { $0.setRequestor("REF30") }
        let before = rig.device.calls.count
        let callbacks = await rig.call { $0.checkAuthorization("news") }
        #expect(callbacks == ["sendTrackingData(1,true,AppleBoarded)", "setToken(news)"])
        #expect(rig.probe.requests.map(\.line) == ["POST /api/v2/REF30/decisions/authorize/AppleBoarded"])
        expectValidated(rig.probe.requests.first, rig: rig)
        expectNoInterruption(Array(rig.device.calls.dropFirst(before)))
        #expect(rig.sandbox.verifyMediaToken(rig.lastLines.last?["token"]?.stringValue ?? ""))
    }

    @Test(arguments: bothWires)
    func getAuthorizationOfAnAppleSSOProfileCarriesThePartnerStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "AppleBoarded")
        await rig.call { $0.setRequestor("REF30") }
        #expect(
            await rig.call { $0.getAuthorization("sports") } == [
                "sendTrackingData(1,true,AppleBoarded)", "setToken(sports)",
            ])
        #expect(rig.probe.requests.map(\.line) == ["POST /api/v2/REF30/decisions/authorize/AppleBoarded"])
        expectValidated(rig.probe.requests.first, rig: rig)
    }

    @Test(arguments: bothWires)
    func preauthorizationOfAnAppleSSOProfileCarriesThePartnerStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "AppleBoarded")
        await rig.call { $0.setRequestor("REF30") }
        let before = rig.device.calls.count
        #expect(
            await rig.call { $0.checkPreauthorizedResources(["news", "sports", "movies"]) } == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.probe.requests.map(\.line) == ["POST /api/v2/REF30/decisions/preauthorize/AppleBoarded"])
        expectValidated(rig.probe.requests.first, rig: rig)
        expectNoInterruption(Array(rig.device.calls.dropFirst(before)))
        // Cached decisions answer again with no call at all.
        #expect(
            await rig.call { $0.checkPreauthorizedResources(["news", "sports", "movies"]) } == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.probe.requests.isEmpty)
    }

    @Test(arguments: bothWires)
    func aWithdrawnPermissionSendsNoDecisionAtAll(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "AppleBoarded")
        await rig.call { $0.setRequestor("REF30") }
        rig.device.accessStatus = .denied
        #expect(
            await rig.call { $0.checkAuthorization("news") } == [
                "status(N000,info)", "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.probe.requests.isEmpty, "an unvalidated status is never encoded, and the profile no longer counts")
    }

    @Test(arguments: bothWires)
    func decisionsOfARegularProfileCarryNoPartnerStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: nil)
        await rig.call { $0.setRequestor("REF30") }
        let dialog = await rig.call { $0.getAuthentication() }
        #expect(dialog.last == Partner.allMVPDs, "the empty picker script cancels: regular flow")
        #expect(await rig.call { $0.setSelectedProvider("NotBoarded") }.last == "navigateToUrl(authenticate)")
        let url = try #require(rig.recorder.lastNavigationURL)
        let agent =
            wire == .inProcess
            ? SimulatedUserAgent(sandbox: rig.sandbox) : SimulatedUserAgent(httpBase: rig.sandbox.baseURLForLinks)
        let landing = try await agent.login(
            startingAt: url, username: "alice", password: "alice123",
            redirectPrefix: rig.accessEnabler.configuration.redirectURL)
        #expect(await rig.call { $0.handleExternalURL(landing) }.last == Partner.authenticated)
        #expect(await rig.call { $0.checkAuthorization("news") }.last == "setToken(news)")
        #expect(rig.probe.requests.map(\.line) == ["POST /api/v2/REF30/decisions/authorize/NotBoarded"])
        #expect(rig.probe.requests.allSatisfy { $0.partnerStatusHeader == nil })
    }
}
