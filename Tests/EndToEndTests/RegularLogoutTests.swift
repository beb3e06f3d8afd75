import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// logout of a regular profile on iOS (navigate, then the redirect ends it) and tvOS (no
/// navigation), and the local profile going whatever the network says.
@Suite struct RegularLogoutTests {
    static let logoutCall = "GET /api/v2/REF30/logout/NotBoarded"

    @Test(arguments: bothWires)
    func iOSNavigatesToTheMVPDLogoutAndTheRedirectEndsIt(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, platform: .iOS)
        let navigation = await rig.call { $0.logout() }
        #expect(navigation == ["navigateToUrl(logout)"], "on iOS logout hands the MVPD logout page to the app first")
        #expect(rig.restCalls == [Self.logoutCall])
        let url = try #require(rig.lines("navigateToUrl").first?["url"]?.stringValue)
        #expect(url.hasPrefix("http"))
        // The profile is already gone locally while the page loads.
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        let landing = try await
            (wire == .inProcess
            ? SimulatedUserAgent(sandbox: rig.sandbox) : SimulatedUserAgent(httpBase: rig.runner.baseURL))
            .follow(url, redirectPrefix: "adobepass://ios.app")
        #expect(landing.hasPrefix("adobepass://ios.app"))
        #expect(await rig.call { $0.handleExternalURL(landing) } == [notAuthenticated])
        #expect(rig.restCalls.isEmpty)
        // Nothing is pending any more.
        #expect(
            try await rig.run(.handleExternalURL("adobepass://ios.app")) == ["status(N130,error)", notAuthenticated])
    }

    @Test(arguments: bothWires)
    func theLogoutStepFollowsThePageOnIOS(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, platform: .iOS)
        #expect(try await rig.run(.logout) == ["navigateToUrl(logout)", notAuthenticated])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(null)"])
    }

    @Test(arguments: bothWires)
    func iOSWithHandleSVCUsesTheSVCNavigationForTheSVCProvider(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire, platform: .iOS)
        #expect(try await rig.run(.setOptions(["handleSVC": .bool(true)])) == [])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("SVCProvider")) == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate,svc)",
            ])
        #expect(try await rig.run(.login(username: "alice", password: "alice123")).last == authenticated)
        #expect(try await rig.run(.logout) == ["navigateToUrl(logout,svc)", notAuthenticated])
    }

    @Test(arguments: bothWires)
    func tvOSEndsAtOnceWithoutNavigation(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, platform: .tvOS)
        // No navigation: the MVPD logout page reaches the app as a status, to show.
        #expect(await rig.call { $0.logout() } == ["status(LOGOUT_PAGE,info)", notAuthenticated])
        #expect(rig.restCalls == [Self.logoutCall])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        // Adobe Pass forgot the profile too: a new session asks for a login again.
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
    }

    @Test(arguments: bothWires)
    func logoutWhenNotAuthenticatedEndsAtOnce(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire, platform: .iOS)
        #expect(try await rig.run(.logout) == [notAuthenticated])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func theLocalProfileGoesWhateverTheNetworkSays(wire: ScenarioRunner.Wire) async throws {
        for platform in [AccessEnablerConfiguration.Platform.iOS, .tvOS] {
            for fault in [
                SandboxFault(status: 503), SandboxFault(status: 500), SandboxFault(dropConnection: true),
                SandboxFault(malformedBody: true),
            ] {
                let rig = try await Rig.loggedIn(wire, platform: platform)
                rig.sandbox.inject(fault, into: .logout)
                #expect(try await rig.run(.logout) == ["status(N500,error)", notAuthenticated], "\(platform) \(fault)")
                // internal_server_error advises no retry (action none): one request.
                #expect(rig.restCalls == [Self.logoutCall])
                #expect(
                    try await rig.run(.checkAuthentication) == [
                        "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                    ])
                #expect(try await rig.run(.restart) == [])
                #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
                #expect(
                    try await rig.run(.checkAuthentication) == [
                        "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                    ], "still gone after a relaunch")
            }
        }
    }
}
