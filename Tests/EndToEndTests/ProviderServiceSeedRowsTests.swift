import AccessEnabler
import Foundation
import PassSandbox
import Testing

/// The seeds' partner rows on a Linux device: `accessenabler provider-service` in a process
/// of its own plays the device's TV provider account, each app is a process of its own
/// (`accessenabler provider-app`, the SDK with ``DeviceProviderService``), and Adobe Pass is
/// PassSandbox over loopback HTTP. Each test asserts the app's exact callbacks.
@Suite("Provider service: the seeds' partner rows across processes", .timeLimit(.minutes(20)))
struct ProviderServiceSeedRowsTests {
    static let authenticated = "setAuthenticationStatus(1,)"
    static let notAuthenticated = "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"
    static let failedCheck = ["sendTrackingData(0,false,)", notAuthenticated]
    static let picker = "AppleBoarded,PickerOnly,SSODisabled,Degraded|featured:"
    static let present = "presentTVProviderDialog(\(picker))"
    static let dismiss = "dismissTVProviderDialog(\(picker))"
    static let allMVPDs =
        "displayProviderDialog(AppleBoarded,PickerOnly,NotBoarded,SSODisabled,Degraded,TempPass,SVCProvider)"

    /// Runs `body` on a device whose service runs, holding the gate of tests with children.
    private func onDevice(prompt: Bool = true, _ body: @Sendable (ProviderDevice) async throws -> Void) async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try await device.startService(prompt: prompt)
            try await body(device)
        }
    }

    // MARK: setRequestor's silent exchange

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func oneHouseholdSignInSignsInEveryPermittedAppSilentlyAtItsSetRequestor() async throws {
        try await onDevice { device in
            try await device.signInHousehold()
            try await device.admin("grant", app: ("REF30", "News"))
            try await device.admin("grant", app: ("REF31", "Sports"))
            let news = try await device.app("News")
            let sports = try await device.app("Sports", requestor: "REF31", statement: "STATEMENT2")
            for (app, name) in [(news, "News"), (sports, "Sports")] {
                #expect(
                    try await app.call("setRequestor") == ["setRequestorComplete(1)"],
                    "\(name): nothing but setRequestorComplete")
                #expect(
                    try await app.call("checkAuthentication") == [
                        "sendTrackingData(0,true,AppleBoarded)", Self.authenticated,
                    ], "\(name)")
                #expect(
                    try await app.call("getMetadata tokenSource") == [#"setMetadataStatus(3,false,"Apple")"#], "\(name)"
                )
            }
            #expect(
                try await news.call("checkAuthorization news") == [
                    "sendTrackingData(1,true,AppleBoarded)", "setToken(news)",
                ])
            // The SAML response the service vended is the one Adobe Pass verified: a profile
            // of partner single sign-on for each requestor.
            #expect(
                device.sandbox.requestLog.filter { $0.path.hasSuffix("/profiles/sso/Apple") }.map(\.status) == [
                    201, 201,
                ])
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func setRequestorReportsThePermissionAndTheServicesFailureAndNeverPrompts() async throws {
        try await onDevice { device in
            try device.answerPrompt("granted")
            let news = try await device.app("News")
            #expect(try await news.call("setRequestor") == ["status(VSA404,info)", "setRequestorComplete(1)"])
            #expect(
                (try await device.admin("status")["permissions"] as? [Any])?.isEmpty == true,
                "setRequestor never prompts")
            try await device.admin("deny", app: ("REF30", "News"))
            #expect(try await news.call("setRequestor") == ["status(VSA403,info)", "setRequestorComplete(1)"])
            try await device.admin("restrict", app: ("REF30", "News"))
            #expect(try await news.call("setRequestor") == ["status(VSA403,info)", "setRequestorComplete(1)"])
            try await device.killService()
            #expect(try await news.call("setRequestor") == ["status(APPL,error)", "setRequestorComplete(1)"])
        }
    }

    // MARK: checkAuthentication's outcomes

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func checkAuthenticationAnswersFromThePermissionAndTheHouseholdsSignIn() async throws {
        try await onDevice { device in
            try device.answerPrompt("granted")
            let news = try await device.app("News")
            try await news.call("setRequestor")
            #expect(
                try await news.call("checkAuthentication") == ["status(VSA404,info)"] + Self.failedCheck,
                "not determined, and not prompted")
            try await device.admin("grant", app: ("REF30", "News"))
            #expect(
                try await news.call("checkAuthentication") == ["status(N000,info)"] + Self.failedCheck,
                "granted, nobody signed in")
            try await device.signInHousehold()
            #expect(try await news.call("setRequestor") == ["setRequestorComplete(1)"])
            #expect(
                try await news.call("checkAuthentication") == [
                    "sendTrackingData(0,true,AppleBoarded)", Self.authenticated,
                ])
            for (verb, status) in [("deny", "VSA403"), ("restrict", "VSA403"), ("reset", "VSA404")] {
                try await device.admin(verb, app: ("REF30", "News"))
                #expect(
                    try await news.call("checkAuthentication") == ["status(\(status),info)"] + Self.failedCheck,
                    "\(verb)")
            }
            try await device.admin("grant", app: ("REF30", "News"))
            #expect(
                try await news.call("checkAuthentication") == [
                    "sendTrackingData(0,true,AppleBoarded)", Self.authenticated,
                ])
            try await device.killService()
            #expect(
                try await news.call("checkAuthentication") == ["status(APPL_ERROR,error)"] + Self.failedCheck,
                "the service is not running")
        }
    }

    // MARK: getAuthentication's picker and fallbacks

    /// An app whose getAuthentication opened the household sign-in: the code the service shows.
    private func openThePicker(_ app: DeviceApp) async throws -> String {
        try await app.start("getAuthentication")
        let started = try await app.waitForLine(containing: #""event":"signInStarted""#)
        let object = try #require((try? JSONSerialization.jsonObject(with: Data(started.utf8))) as? [String: Any])
        return try #require(object["code"] as? String)
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func thePromptThenTheHouseholdSignInOnAPhoneThenTheExchange() async throws {
        try await onDevice { device in
            try device.answerPrompt("granted")
            let news = try await device.app("News")
            try await news.call("setRequestor")
            let code = try await openThePicker(news)
            #expect(try await device.signIn(code: code) == .signedIn(provider: "AppleBoarded"))
            #expect(
                try await news.finish("getAuthentication") == [
                    Self.present, Self.dismiss, "sendTrackingData(0,true,AppleBoarded)", Self.authenticated,
                ])
            let status = try await device.admin("status")
            #expect(
                (status["household"] as? [String: Any])?["provider"] as? String == "AppleBoarded",
                "the sign-in is the household's now")
            #expect(
                (status["permissions"] as? [[String: Any]])?.first?["accessStatus"] as? String == "granted",
                "the person's answer is kept")
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aRefusedOrDismissedPromptFallsBackToTheAppsOwnPicker() async throws {
        try await onDevice { device in
            let news = try await device.app("News")
            try await news.call("setRequestor")
            try device.answerPrompt(nil)
            #expect(
                try await news.call("getAuthentication") == ["status(VSA404,info)", Self.allMVPDs],
                "dismissed: still not determined")
            try device.answerPrompt("denied")
            #expect(try await news.call("getAuthentication") == ["status(VSA403,info)", Self.allMVPDs])
            #expect(
                try await news.call("getAuthentication") == ["status(VSA403,info)", Self.allMVPDs],
                "kept: not asked again")
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func thePersonsChoicesOnThePhoneAreThePickersRows() async throws {
        try await onDevice { device in
            try await device.admin("grant", app: ("REF30", "News"))
            let news = try await device.app("News")
            try await news.call("setRequestor")
            let rows: [(HouseholdPageChoice, [String])] = [
                (.cancel, [Self.present, Self.dismiss, "status(N005,info)", Self.allMVPDs]),
                (.other, [Self.present, Self.dismiss, "status(N003,info)", Self.allMVPDs]),
                (
                    .provider("PickerOnly", username: "", password: ""),
                    [Self.present, Self.dismiss, "sendTrackingData(2,PickerOnly)", "status(REGCODE,info)"]
                ),
            ]
            for (choice, expected) in rows {
                let code = try await openThePicker(news)
                try await device.signIn(code: code, choice)
                #expect(try await news.finish("getAuthentication") == expected, "\(choice)")
            }
            #expect(
                try await device.admin("status")["household"] is NSNull,
                "a provider only chosen leaves no household sign-in")
            // A provider whose single sign-on this app's integration disables: N004.
            let code = try await openThePicker(news)
            try await device.signIn(code: code, .provider("SSODisabled", username: "alice", password: "alice123"))
            #expect(
                try await news.finish("getAuthentication") == [
                    Self.present, Self.dismiss, "status(N004,info)", Self.allMVPDs,
                ])
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func nobodySigningInInTimeIsTheCancelledRowAndTheSignInStaysOpen() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try await device.startService(signInWait: 2)
            try await device.admin("grant", app: ("REF30", "News"))
            let news = try await device.app("News")
            try await news.call("setRequestor")
            let code = try await openThePicker(news)
            #expect(
                try await news.finish("getAuthentication") == [
                    Self.present, Self.dismiss, "status(N005,info)", Self.allMVPDs,
                ])
            // The person signs in later with the code the TV still shows: every app's next
            // launch finds it.
            try await device.signIn(code: code)
            try await device.waitForTheHousehold()
            #expect(try await news.call("setRequestor") == ["setRequestorComplete(1)"])
            #expect(
                try await news.call("checkAuthentication") == [
                    "sendTrackingData(0,true,AppleBoarded)", Self.authenticated,
                ])
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aDegradedProviderSignedInAtTheDeviceIsAuthenticatedWithN010() async throws {
        try await onDevice { device in
            try await device.signInHousehold(.provider("Degraded", username: "alice", password: "alice123"))
            try await device.admin("grant", app: ("REF30", "News"))
            let news = try await device.app("News")
            try await news.call("setRequestor")
            #expect(
                try await news.call("getAuthentication") == [
                    "status(N010,warning)", "sendTrackingData(0,true,Degraded)", Self.authenticated,
                ])
        }
    }

    // MARK: logout's VSA203 and the sign-out at the service

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func logoutIsVSA203AndOnlyTheServicesSignOutEndsTheHouseholdsSignInForEveryApp() async throws {
        try await onDevice { device in
            try await device.signInHousehold()
            try await device.admin("grant", app: ("REF30", "News"))
            try await device.admin("grant", app: ("REF31", "Sports"))
            let news = try await device.app("News")
            let sports = try await device.app("Sports", requestor: "REF31", statement: "STATEMENT2")
            try await news.call("setRequestor")
            try await sports.call("setRequestor")
            #expect(try await news.call("logout") == ["status(VSA203,info)", Self.notAuthenticated])
            #expect(
                try await news.call("setRequestor") == ["setRequestorComplete(1)"],
                "still signed in at the device: signed in again")
            #expect(
                try await news.call("checkAuthentication") == [
                    "sendTrackingData(0,true,AppleBoarded)", Self.authenticated,
                ])

            #expect(try await device.admin("signOut")["wasSignedIn"] as? Bool == true)
            // Subscribers hear it at once.
            _ = try await news.waitForLine(containing: #"{"event":"signedOut"}"#)
            _ = try await sports.waitForLine(containing: #"{"event":"signedOut"}"#)
            for (app, name) in [(news, "News"), (sports, "Sports")] {
                #expect(
                    try await app.call("checkAuthentication") == ["status(N000,info)"] + Self.failedCheck,
                    "\(name): its next check sees it")
                #expect(try await app.call("setRequestor") == ["setRequestorComplete(1)"], "\(name)")
                #expect(
                    try await app.call("checkAuthentication") == ["status(N000,info)"] + Self.failedCheck,
                    "\(name): not signed in again")
            }
        }
    }
}
