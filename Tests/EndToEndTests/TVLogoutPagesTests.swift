import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// A tvOS-flavour device opens no page at logout (the legacy rule), but the MVPD logout pages
/// Adobe Pass returns still reach the app: a `LOGOUT_PAGE` status (info) per page, URL in
/// `details`, before `setAuthenticationStatus(0)`; the async sign-out carries the URLs. The
/// app shows them (a URL, a QR code) and the person opens them on a phone.
@Suite struct TVLogoutPagesTests {
    static let logoutPage = "status(LOGOUT_PAGE,info)"

    /// A tvOS rig signed in to NotBoarded (alice) and then, forcing a new sign-in, to
    /// SVCProvider (bob): two profiles, each with an MVPD logout page.
    private func twoProfiles(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try await Rig.loggedIn(wire, platform: .tvOS)
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        try await rig.run(.setSelectedProvider("SVCProvider"))
        #expect(try await rig.run(.login(username: "bob", password: "bob123")).last == authenticated)
        return rig
    }

    private func fetchedLogoutPages(_ rig: Rig) -> [SandboxLogEntry] {
        rig.sandbox.requestLog.filter { $0.path == "/adobe-services/logout" }
    }

    @Test(arguments: bothWires)
    func eachLogoutPageReachesTheAppAsAStatusAndNothingOpens(wire: ScenarioRunner.Wire) async throws {
        let rig = try await twoProfiles(wire)
        #expect(try await rig.run(.logout) == [Self.logoutPage, Self.logoutPage, notAuthenticated])
        let logouts: Set = ["GET /api/v2/REF30/logout/SVCProvider", "GET /api/v2/REF30/logout/NotBoarded"]
        #expect(Set(rig.restCalls) == logouts)
        let urls = rig.lines("status").compactMap { $0["details"]?.stringValue }
        #expect(urls.count == 2)
        #expect(urls.first?.contains("mso_id=SVCProvider") == true, "the page of the profile in force first: \(urls)")
        #expect(urls.last?.contains("mso_id=NotBoarded") == true, "\(urls)")
        #expect(urls.allSatisfy { $0.hasPrefix("http") && $0.contains("/adobe-services/logout") })
        #expect(rig.lines("status").allSatisfy { $0["message"]?.stringValue?.contains("phone or computer") == true })
        #expect(fetchedLogoutPages(rig).isEmpty, "nothing was opened on the device")

        // The person opens them on a phone: the sandbox sees each page fetched.
        #expect(try await rig.run(.openLogoutPages).isEmpty)
        #expect(fetchedLogoutPages(rig).map(\.status) == [302, 302], "each page loaded, and redirected back")
        #expect(rig.recorder.logoutPages.isEmpty, "each page is opened once")
        #expect(try await rig.run(.openLogoutPages).isEmpty)
        #expect(fetchedLogoutPages(rig).count == 2)
    }

    @Test(arguments: bothWires)
    func theAsyncSignOutCarriesThePages(wire: ScenarioRunner.Wire) async throws {
        let rig = try await twoProfiles(wire)
        let step = try await rig.accessEnabler.signOut()
        guard case .signedOut(let status, let pages) = step else {
            Issue.record("tvOS signs out at once, got \(step)")
            return
        }
        #expect(status == nil, "LOGOUT_PAGE statuses are the pages, not the explaining status")
        #expect(pages.count == 2)
        #expect(pages.first?.contains("mso_id=SVCProvider") == true)
        #expect(pages.last?.contains("mso_id=NotBoarded") == true)
    }

    @Test(arguments: bothWires)
    func aPartnerSignInHasNoPageOnlyVSA203(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(Partner.setRequestor)
        #expect(try await rig.run(.logout) == ["status(VSA203,info)", Partner.notAuthenticated])
        #expect(rig.recorder.logoutPages.isEmpty)
    }

    @Test(arguments: bothWires)
    func iOSStillOpensThePagesItself(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, platform: .iOS)
        #expect(try await rig.run(.logout) == ["navigateToUrl(logout)", notAuthenticated])
        #expect(rig.recorder.logoutPages.isEmpty, "no LOGOUT_PAGE where the SDK hands the page to a web view")
    }
}
