import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// checkAuthentication, getAuthentication (every signature), setSelectedProvider and
/// handleExternalURL with no partner framework.
@Suite struct RegularAuthenticationTests {
    // MARK: checkAuthentication

    @Test(arguments: bothWires)
    func checkAuthenticationNeverTouchesTheNetwork(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(rig.restCalls.isEmpty)
        #expect(
            rig.sandbox.requestLog.last?.path.hasPrefix("/api/v2/REF30/profiles/code/") == true,
            "the sandbox saw nothing after the login")
    }

    @Test(arguments: bothWires)
    func checkAuthenticationTrackingCarriesTheDocumentedFields(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        _ = try await rig.run(.checkAuthentication)
        let data = try #require(rig.lines("sendTrackingData").first?["data"])
        // success, MVPD, md5(userID), cached, device type, client type, OS.
        #expect(data == strings("true", "NotBoarded", md5OfAliceID, "true", "unknown", "ios", "Linux (tvOS)"))
    }

    @Test(arguments: bothWires)
    func aProfileWhoseIntegrationWasDeactivatedNoLongerAuthenticates(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.world(mvpd: "NotBoarded", set: ["integrationActive": .bool(false)])) == [])
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated],
            "the cached configuration still lists it")
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    // MARK: getAuthentication, all four signatures

    @Test(arguments: bothWires)
    func getAuthenticationShowsTheProviderDialogWhenNotAuthenticated(wire: ScenarioRunner.Wire) async throws {
        let calls: [(String, (AccessEnabler) -> Void)] = [
            ("getAuthentication()", { $0.getAuthentication() }),
            ("getAuthentication(false, withData:)", { $0.getAuthentication(false, withData: ["k": "v"]) }),
            ("getAuthentication(filter: [String])", { $0.getAuthentication(filter: ["NotBoarded", "TempPass"]) }),
            (
                "getAuthentication(filter: [String: [String]])",
                { $0.getAuthentication(filter: [TV_PROVIDERS: ["NotBoarded"], FEATURED_TV_PROVIDERS: ["NotBoarded"]]) }
            ),
            (
                "getAuthentication(false, withData:, andFilter: [String])",
                { $0.getAuthentication(false, withData: nil, andFilter: ["NotBoarded"]) }
            ),
            (
                "getAuthentication(true, withData:, andFilter: [String: [String]])",
                { $0.getAuthentication(true, withData: ["k": 1], andFilter: [TV_PROVIDERS: ["TempPass"]]) }
            ),
        ]
        let rig = try await Rig.regular(wire)
        for (index, (name, call)) in calls.enumerated() {
            // Without a partner framework the filter has nothing to filter: every MVPD is offered.
            #expect(await rig.call(call) == [regularDialog], "\(name)")
            // The first asks for the configuration; the others reuse it (within 3 minutes).
            #expect(rig.restCalls == (index == 0 ? ["GET /api/v2/REF30/configuration"] : []), "\(name)")
            #expect(
                await rig.call { $0.setSelectedProvider(nil) } == [
                    "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
                ], "\(name)")
        }
    }

    @Test(arguments: bothWires)
    func getAuthenticationWhenAuthenticatedAnswersAtOnceUnlessForced(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let unforced: [(AccessEnabler) -> Void] = [
            { $0.getAuthentication() },
            { $0.getAuthentication(false, withData: nil) },
            { $0.getAuthentication(filter: ["NotBoarded"]) },
            { $0.getAuthentication(false, withData: ["k": "v"], andFilter: ["NotBoarded"]) },
        ]
        for call in unforced {
            #expect(await rig.call(call) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
            #expect(rig.restCalls.isEmpty)
        }
        #expect(await rig.call { $0.getAuthentication(true, withData: nil) } == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider(nil)) == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        #expect(
            await rig.call { $0.getAuthentication(true, withData: nil, andFilter: [TV_PROVIDERS: ["NotBoarded"]]) } == [
                regularDialog
            ])
        // Forcing with the MVPD that already holds the profile: REST API V2 would answer the
        // new session with authorize/direct (the profile exists server-side), so the sign-in
        // in force ends first (logout, no page) and the login page comes: the person may
        // switch accounts.
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(rig.restCalls == ["GET /api/v2/REF30/logout/NotBoarded", "POST /api/v2/REF30/sessions"])
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated, "ended on the device too")
        #expect(
            try await rig.run(.login(username: "bob", password: "bob123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "userID", resource: nil)) == [
                "setMetadataStatus(3,false,\"u-bob\")"
            ], "another account")
        // Another MVPD goes through its login and replaces the profile.
        #expect(await rig.call { $0.getAuthentication(true, withData: nil) } == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("SVCProvider")) == [
                "sendTrackingData(2,SVCProvider)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.login(username: "bob", password: "bob123")) == [
                "sendTrackingData(0,true,SVCProvider)", authenticated,
            ])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(SVCProvider)"])
        #expect(
            try await rig.run(.checkAuthorization("sports")).last
                == "tokenRequestFailed(sports,\(USER_NOT_AUTHORIZED_ERROR))")
    }

    @Test(arguments: bothWires)
    func aSecondGetAuthenticationShowsTheDialogAgainButNeverAbandonsAnOpenLogin(wire: ScenarioRunner.Wire) async throws
    {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        // The app closed its picker without telling the SDK: the dialog simply comes again.
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(rig.restCalls.isEmpty)
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [
                "status(N500,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.restCalls.isEmpty)
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    // MARK: setSelectedProvider

    @Test(arguments: bothWires)
    func selectingAProviderCreatesASessionAndNavigatesToItsLogin(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions"])
        let url = try #require(rig.lines("navigateToUrl").first?["url"]?.stringValue)
        #expect(url.hasPrefix("http"), "the authenticate URL is absolute")
        #expect(url.contains("/api/v2/authenticate/REF30/"))
        let tracking = try #require(rig.lines("sendTrackingData").first?["data"])
        #expect(tracking == strings("NotBoarded", "unknown", "ios", "Linux (tvOS)"))
    }

    @Test(arguments: bothWires)
    func tempPassAuthenticatesAtOnceWithN011(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("TempPass")) == [
                "sendTrackingData(2,TempPass)", "status(N011,info)", "sendTrackingData(0,true,TempPass)", authenticated,
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions", "GET /api/v2/REF30/profiles/TempPass"])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,TempPass)", authenticated])
    }

    @Test(arguments: bothWires)
    func aDegradedMVPDAuthenticatesAtOnceWithN010(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("Degraded")) == [
                "sendTrackingData(2,Degraded)", "status(N010,warning)", "sendTrackingData(0,true,Degraded)",
                authenticated,
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions", "GET /api/v2/REF30/profiles/Degraded"])
    }

    @Test(arguments: bothWires)
    func backingOutResetsTheFlowWithN005(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider(nil)) == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        #expect(rig.restCalls.isEmpty)
        // Backing out of the login page too: the redirect that follows completes nothing.
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.setSelectedProvider(nil)) == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        #expect(
            try await rig.run(.handleExternalURL("adobepass://ios.app")) == ["status(N130,error)", notAuthenticated])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func anUnknownOrInactiveProviderIsNotAvailable(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        for id in ["NoSuchMVPD", "Inactive"] {
            #expect(
                try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
            #expect(
                try await rig.run(.setSelectedProvider(id)) == [
                    "status(N500,error)", "setAuthenticationStatus(0,\(PROVIDER_NOT_AVAILABLE_ERROR))",
                ])
            #expect(rig.restCalls.isEmpty)
            #expect(
                try await rig.run(.setSelectedProvider(nil)).last
                    == "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")
        }
    }

    // MARK: handleExternalURL

    @Test(arguments: bothWires)
    func aForeignURLIsRefusedAndChangesNothing(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        for foreign in [
            "https://evil.example/adobepass", "adobepass://other.app?code=1", "otherscheme://ios.app", "not a url",
        ] {
            #expect(
                try await rig.run(.handleExternalURL(foreign)) == ["status(N500,error)", notAuthenticated], "\(foreign)"
            )
            #expect(rig.restCalls.isEmpty)
        }
        // The pending login is untouched: it still completes.
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        // And a foreign URL after login leaves the user authenticated.
        #expect(
            try await rig.run(.handleExternalURL("https://evil.example/")) == ["status(N500,error)", authenticated])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    @Test(arguments: bothWires)
    func aLoginSurvivesSetRequestorCalledAgainOnReturningToTheForeground(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "navigateToUrl(authenticate)")
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    @Test(arguments: bothWires)
    func theRedirectCompletesAuthenticationWithOneProfileCall(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        try await rig.logIn(mvpd: "NotBoarded")
        #expect(rig.restCalls.count == 1)
        #expect(rig.restCalls.first?.hasPrefix("GET /api/v2/REF30/profiles/code/") == true)
    }

    @Test(arguments: bothWires)
    func aRedirectWithNothingPendingGetsN130AndTheCurrentState(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(
            try await rig.run(.handleExternalURL("adobepass://ios.app")) == ["status(N130,error)", notAuthenticated])
        #expect(rig.restCalls.isEmpty)
        try await rig.logIn()
        #expect(try await rig.run(.handleExternalURL("adobepass://ios.app")) == ["status(N130,error)", authenticated])
        #expect(rig.restCalls.isEmpty)
    }

    /// REST API V2 polls for the profile from the moment the redirect is reached (FAQ
    /// authentication 14): a redirect that arrives before the login finished keeps the
    /// session and polls, instead of failing with N130 and dropping it.
    @Test(arguments: bothWires)
    func aRedirectBeforeTheUserLoggedInKeepsTheSessionAndPolls(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        let code = try #require(rig.recorder.lastNavigationURL.flatMap { URL(string: $0)?.lastPathComponent })
        #expect(try await rig.run(.handleExternalURL("adobepass://ios.app")) == [])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles/code/\(code)"])
        #expect(try await rig.run(.advanceClock(5)) == [])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles/code/\(code)"])
        // The login lands: its redirect makes the SDK look at once.
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles/code/\(code)"])
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func anExpiredAuthenticationSessionFailsWithN130(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        // The user lingers past the 30-minute session window before the login completes.
        #expect(try await rig.run(.advanceClock(1_801)) == [])
        #expect(
            try await rig.run(.handleExternalURL("adobepass://ios.app")) == [
                "status(N130,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        // Past the code's end by Adobe's time: the profile is not asked for (Adobe's checklist
        // stops polling a code whose session expired).
        #expect(rig.restCalls.isEmpty)
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("before the code expired") == true)
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }

    @Test(arguments: bothWires)
    func aLoginThatLandsAfterTheSessionExpiredFailsWithN130(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(try await rig.run(.advanceClock(1_801)) == [])
        // The login page itself refuses the expired session: no redirect reaches the app.
        #expect(try await rig.run(.login(username: "alice", password: "alice123")) == [])
        #expect(try await rig.run(.handleExternalURL("adobepass://ios.app")).first == "status(N130,error)")
    }

    @Test(arguments: bothWires)
    func serverFailuresDuringLoginEndInN500(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        // The sandbox's 5xx errors carry the `retry` action: the SDK sends the request once
        // more before giving up, so the fault stays until the failure is in.
        rig.sandbox.inject(SandboxFault(status: 503), into: .createSession)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(N500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        rig.sandbox.clearFaults()
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        rig.sandbox.inject(SandboxFault(status: 500), into: .profileForCode)
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "status(N500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        rig.sandbox.clearFaults()
    }
}

/// MD5 of the sandbox users' ids (computed independently of the SDK), as the tracking
/// events carry them.
let md5OfAliceID = "23807fcb5d33af23fe55de8a1eb249d1"
