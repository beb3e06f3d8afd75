import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Logout ends every profile the device holds for the requestor (one `GET logout/{mvpd}` per
/// MVPD), a logout that failed is sent again at the next setRequestor, and every
/// setRequestor reconciles the stored profiles with what `GET profiles` answers.
@Suite struct SessionLogoutAndReconcileTests {
    /// A warm launch: the profiles, nothing else.
    static let warmSetRequestor = ["GET /api/v2/REF30/profiles"]

    /// Shared TV, first story: Alice signs in with NotBoarded, then picks TempPass; her
    /// logout ends both, so choosing NotBoarded again asks for a login.
    @Test(arguments: bothWires)
    func aLogoutBehindATempPassEndsTheMVPDSignInToo(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, mvpd: "NotBoarded", username: "alice")
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("TempPass")) == [
                "sendTrackingData(2,TempPass)", "status(N011,info)", "sendTrackingData(0,true,TempPass)", authenticated,
            ])
        // One page: the MVPD's (a TempPass has none).
        #expect(try await rig.run(.logout) == [logoutPage, notAuthenticated])
        #expect(rig.restCalls.sorted() == ["GET /api/v2/REF30/logout/NotBoarded", "GET /api/v2/REF30/logout/TempPass"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        // The next person choosing NotBoarded meets the login page, not Alice's sign-in.
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
    }

    /// Shared TV, second story: Bob signs in with another MVPD over Alice's sign-in and logs
    /// out; after a restart, choosing Alice's MVPD asks for a login.
    @Test(arguments: bothWires)
    func aLogoutEndsTheSignInsOfOtherMVPDsMadeEarlierOnThisDevice(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, mvpd: "NotBoarded", username: "alice")
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("SVCProvider")) == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.login(username: "bob", password: "bob123")) == [
                "sendTrackingData(0,true,SVCProvider)", authenticated,
            ])
        #expect(try await rig.run(.logout) == [logoutPage, logoutPage, notAuthenticated])
        #expect(
            rig.restCalls.sorted() == ["GET /api/v2/REF30/logout/NotBoarded", "GET /api/v2/REF30/logout/SVCProvider"])
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls.sorted() == Self.warmSetRequestor)
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
    }

    /// On iOS every MVPD logout page the logout's answers carry is handed over, one after
    /// another: the profile in force's first, the next in answer to the app's
    /// handleExternalURL, and the logout's setAuthenticationStatus after the last.
    @Test(arguments: bothWires)
    func onIOSEveryLogoutPageIsHandedOverOneAfterAnother(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, mvpd: "NotBoarded", username: "alice", platform: .iOS)
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("SVCProvider")) == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.login(username: "bob", password: "bob123")) == [
                "sendTrackingData(0,true,SVCProvider)", authenticated,
            ])
        #expect(await rig.call { $0.logout() } == ["navigateToUrl(logout)"])
        #expect(
            rig.restCalls.sorted() == ["GET /api/v2/REF30/logout/NotBoarded", "GET /api/v2/REF30/logout/SVCProvider"])
        let first = try #require(rig.lines("navigateToUrl").first?["url"]?.stringValue)
        #expect(first.contains("SVCProvider"), "the page of the MVPD in force comes first: \(first)")
        let back = try await SimulatedUserAgent.for(rig, wire).follow(first, redirectPrefix: "adobepass://ios.app")
        #expect(await rig.call { $0.handleExternalURL(back) } == ["navigateToUrl(logout)"])
        let second = try #require(rig.lines("navigateToUrl").first?["url"]?.stringValue)
        #expect(second.contains("NotBoarded"), "then the other MVPD's: \(second)")
        let end = try await SimulatedUserAgent.for(rig, wire).follow(second, redirectPrefix: "adobepass://ios.app")
        #expect(await rig.call { $0.handleExternalURL(end) } == [notAuthenticated])
        #expect(rig.restCalls.isEmpty)
    }

    /// A logout page the app never comes back from (a hidden web view that failed): the logout
    /// ends by itself once the request timeout has passed, with N408 naming the page; the
    /// app's next call gets only its own callbacks.
    @Test(arguments: bothWires)
    func aLogoutPageTheAppNeverComesBackFromEndsTheLogoutByItself(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, mvpd: "NotBoarded", username: "alice", platform: .iOS)
        #expect(await rig.call { $0.logout() } == ["navigateToUrl(logout)"])
        let page = try #require(rig.lines("navigateToUrl").first?["url"]?.stringValue)
        let timeout = rig.accessEnabler.configuration.requestTimeout
        #expect(try await rig.run(.advanceClock(timeout - 1)) == [], "the app still has time")
        #expect(try await rig.run(.advanceClock(1)) == ["status(N408,warning)", notAuthenticated])
        let status = try #require(rig.lines("status").first)
        #expect(status["details"]?.stringValue == page)
        #expect(status["message"]?.stringValue?.contains("NotBoarded") == true)
        // Signed out at Adobe Pass and on the device; the next call is the app's own.
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        // The redirect coming back late changes nothing.
        #expect(await rig.call { $0.handleExternalURL("adobepass://ios.app/logout") }.first == "status(N130,error)")
    }

    /// tvOS keeps the legacy rule: a logout opens no page, whatever the answers carry.
    @Test(arguments: bothWires)
    func onTVOSALogoutOpensNoPage(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, mvpd: "NotBoarded", username: "alice", platform: .tvOS)
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("SVCProvider")) == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.login(username: "bob", password: "bob123")) == [
                "sendTrackingData(0,true,SVCProvider)", authenticated,
            ])
        // No page opens: each reaches the app as a status to show.
        #expect(await rig.call { $0.logout() } == [logoutPage, logoutPage, notAuthenticated])
    }

    /// A logout Adobe Pass could not be told of is sent again at the next setRequestor, before
    /// the profiles are asked, so the profile is not adopted again.
    @Test(arguments: bothWires)
    func aFailedLogoutIsSentAgainAtTheNextSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, mvpd: "NotBoarded", username: "alice")
        rig.sandbox.inject(SandboxFault(status: 503), into: .logout)
        #expect(try await rig.run(.logout) == ["status(N500,error)", notAuthenticated])
        rig.sandbox.clearFaults()
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            rig.restCalls.first == "GET /api/v2/REF30/logout/NotBoarded",
            "the pending logout goes first: \(rig.restCalls)")
        #expect(rig.restCalls.dropFirst().sorted() == Self.warmSetRequestor)
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        // Sent once: the next setRequestor has nothing pending.
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls.sorted() == Self.warmSetRequestor)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
    }

    /// Choosing the MVPD of a logout Adobe Pass could not be told of, before any setRequestor:
    /// the logout goes first, so the session asks for a login instead of finding the old sign-in.
    @Test(arguments: bothWires)
    func choosingTheMVPDOfAPendingLogoutSendsTheLogoutFirst(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire, mvpd: "NotBoarded", username: "alice")
        rig.sandbox.inject(SandboxFault(status: 503), into: .logout)
        #expect(try await rig.run(.logout) == ["status(N500,error)", notAuthenticated])
        rig.sandbox.clearFaults()
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(rig.restCalls == ["GET /api/v2/REF30/logout/NotBoarded", "POST /api/v2/REF30/sessions"])
        // Bob signs in; nothing is pending any more, so the next setRequestor keeps his sign-in.
        #expect(
            try await rig.run(.login(username: "bob", password: "bob123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Self.warmSetRequestor)
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    /// A profile Adobe Pass no longer holds (signed out elsewhere) is dropped at setRequestor;
    /// checkAuthentication then answers 0 without a network call.
    @Test(arguments: bothWires)
    func aProfileSignedOutElsewhereIsDroppedAtSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(rig.sandbox.serverLogout(mvpd: "NotBoarded") == 1)
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated],
            "checkAuthentication stays local")
        #expect(rig.restCalls.isEmpty)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls.sorted() == Self.warmSetRequestor)
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    /// When the profiles request fails, the stored profiles stay; a 429 on it is CFG429.
    @Test(arguments: bothWires)
    func aFailedProfilesRequestKeepsWhatIsStoredAndA429IsCFG429(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(SandboxFault(status: 503), into: .profiles)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        rig.sandbox.clearFaults()
        rig.sandbox.inject(SandboxFault(status: 429), into: .profiles)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(CFG429,error)", "setRequestorComplete(0)",
            ])
    }

    /// Two AccessEnablers of one app over one storage directory: a sign-in by one is adopted
    /// by the other at its setRequestor, and so is a logout.
    @Test(arguments: bothWires)
    func anotherAccessEnablerOverTheSameStorageSeesASignInAndALogoutAtSetRequestor(wire: ScenarioRunner.Wire)
        async throws
    {
        let first = try RegularHarness(wire)
        defer { first.stop() }
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        let second = try RegularHarness(wire, sharing: first, storage: first.storage)
        #expect(await second.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            await second.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        try await first.logIn(mvpd: "NotBoarded", expectDialog: [regularDialog])
        #expect(await second.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(second.restCalls == Self.warmSetRequestor)
        #expect(
            await second.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(await second.call { $0.logout() } == [logoutPage, notAuthenticated])
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            await first.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }
}
