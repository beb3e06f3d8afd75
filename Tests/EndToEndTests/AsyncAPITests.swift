import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The async API over the same engine: each call returns its own terminal outcome, whatever
/// else is delivered meanwhile; cancellation ends the wait at once (and backs out of an
/// authentication waiting for a person); delegates keep receiving every callback.
@Suite struct AsyncAPITests {
    static func rig(
        _ wire: ScenarioRunner.Wire, platform: AccessEnablerConfiguration.Platform = .iOS, device: Bool = false,
        loginScreen: AccessEnablerConfiguration.LoginScreen? = .thisDevice
    ) throws -> Rig {
        try Rig(wire) { scenario in
            scenario.platform = platform
            scenario.loginScreen = loginScreen
            scenario.device.present = device
        }
    }

    /// Logs in at the MVPD page the async login step opened; returns where it landed.
    static func logIn(_ rig: Rig, at url: String, wire: ScenarioRunner.Wire) async throws -> String {
        let agent =
            wire == .inProcess
            ? SimulatedUserAgent(sandbox: rig.sandbox) : SimulatedUserAgent(httpBase: rig.runner.baseURL)
        return try await agent.login(
            startingAt: url, username: "alice", password: "alice123",
            redirectPrefix: rig.accessEnabler.configuration.redirectURL)
    }

    @Test(arguments: bothWires)
    func everyCallReturnsItsTerminalOutcome(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire)
        let ae = rig.accessEnabler
        try await ae.configure(requestor: "REF30")

        let before = try await ae.authenticationStatus()
        #expect(!before.isAuthenticated)
        #expect(before.errorCode == USER_NOT_AUTHENTICATED_ERROR)
        #expect(before.status?.errorId == "N000")
        #expect(try await ae.selectedProvider() == nil)
        await #expect(throws: AccessEnablerError.self) { try await ae.mediaToken(for: "news") }

        guard case .chooseProvider(let mvpds) = try await ae.authenticate() else {
            Issue.record("expected the provider dialog"); return
        }
        #expect(mvpds.first?.id == "AppleBoarded")
        guard case .openLoginPage(let url, false) = try await ae.selectProvider("NotBoarded") else {
            Issue.record("expected the login page"); return
        }
        let landing = try await Self.logIn(rig, at: url, wire: wire)
        let after = try await ae.handleRedirect(landing)
        #expect(after.isAuthenticated)
        #expect(after.errorCode == USER_AUTHENTICATED)
        #expect(try await ae.authenticationStatus().isAuthenticated)
        #expect(try await ae.authenticate() == .authenticated)
        #expect(try await ae.selectedProvider()?.id == "NotBoarded")

        let token = try await ae.mediaToken(for: "news")
        #expect(token.resource == "news")
        #expect(rig.sandbox.verifyMediaToken(token.serializedToken))
        #expect(!token.description.contains(token.serializedToken), "a media token's description never shows the token")
        do {
            _ = try await ae.authorize("premium")
            Issue.record("premium is not in alice's package")
        } catch let error as AccessEnablerError {
            #expect(error.errorCode == USER_NOT_AUTHORIZED_ERROR)
            #expect(error.status?.errorId == "Z100")
        }
        #expect(try await ae.preauthorizedResources(["news", "premium", "sports"]) == ["news", "sports"])

        let zip = try await ae.metadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "zip"])
        #expect(zip.encrypted)
        #expect(zip.key == METADATA_USER_META)
        #expect(zip.value != nil)

        guard case .openLogoutPage(let logoutURL) = try await ae.signOut() else {
            Issue.record("iOS opens the MVPD logout page"); return
        }
        let agent =
            wire == .inProcess
            ? SimulatedUserAgent(sandbox: rig.sandbox) : SimulatedUserAgent(httpBase: rig.runner.baseURL)
        let back = try await agent.follow(logoutURL, redirectPrefix: ae.configuration.redirectURL)
        #expect(
            try await ae.handleRedirect(back)
                == AuthenticationStatus(isAuthenticated: false, errorCode: USER_NOT_AUTHENTICATED_ERROR))
    }

    @Test(arguments: bothWires)
    func aFailedRequestorThrowsWithItsStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire)
        do {
            try await rig.accessEnabler.configure(requestor: "NOPE")
            Issue.record("an unknown requestor must throw")
        } catch let error as AccessEnablerError {
            #expect(error.status?.errorId == "CFG400")
            #expect(error.errorCode == "REQUESTOR_ERROR")
        }
    }

    @Test(arguments: bothWires)
    func authorizeAuthenticatesFirstWithTheHandOverOnTheEventStream(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, platform: .tvOS)
        let ae = rig.accessEnabler
        try await ae.configure(requestor: "REF30")
        let events = ae.events
        async let token = ae.authorize("news")
        // The app sees the provider dialog on the event stream and answers it.
        for await event in events {
            if event.kind == .providerDialog { break }
        }
        #expect(try await ae.selectProvider("TempPass") == .authenticated)
        #expect(try await token.resource == "news")
        #expect(rig.recorder.callbacks.contains { $0.callback == "setToken" }, "the delegate received the token too")
    }

    @Test(arguments: bothWires)
    func callbacksAndAsyncCallsMixAndEachAsyncCallGetsItsOwnAnswer(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, platform: .tvOS)
        let ae = rig.accessEnabler
        ae.setRequestor("REF30")
        ae.getAuthentication()
        // Queued behind the callback calls, answered with its own callback only.
        let status = try await ae.authenticationStatus()
        #expect(!status.isAuthenticated)
        #expect(try await ae.selectProvider("TempPass") == .authenticated)
        ae.checkAuthorization("news")
        let token = try await ae.mediaToken(for: "sports")
        #expect(token.resource == "sports")
        await rig.runner.settle()
        let names = rig.recorder.callbacks.compactMap(\.callback).filter {
            ["setRequestorComplete", "displayProviderDialog", "setToken"].contains($0)
        }
        #expect(names == ["setRequestorComplete", "displayProviderDialog", "setToken", "setToken"])
        #expect(
            rig.recorder.callbacks.filter { $0.callback == "setToken" }.map { $0["resource"]?.stringValue } == [
                "news", "sports",
            ])
    }

    @Test(arguments: bothWires)
    func aSecondScreenSignInIsAwaitedAndCanBeCancelled(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, platform: .tvOS, loginScreen: nil)
        let ae = rig.accessEnabler
        try await ae.configure(requestor: "REF30")
        guard case .chooseProvider = try await ae.authenticate() else { Issue.record("expected the dialog"); return }
        guard case .enterCodeOnSecondScreen(let code) = try await ae.selectProvider("NotBoarded") else {
            Issue.record("expected a code"); return
        }
        #expect(!code.isEmpty)

        // Cancelled while waiting: the wait ends at once and the authentication backs out (N005).
        let waiting = Task { try await ae.secondScreenSignIn() }
        try await Task.sleep(nanoseconds: 50_000_000)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await rig.runner.settle()
        #expect(rig.recorder.callbacks.contains { $0.callback == "status" && $0["errorId"]?.stringValue == "N005" })
        rig.recorder.reset()
        rig.runner.meter.reset()
        rig.sandbox.clock.advance(by: 30)
        await rig.runner.settle()
        #expect(rig.runner.meter.requests.isEmpty, "the cancelled code is never polled again")

        // A new code, signed in on the second screen while the app awaits it.
        guard case .chooseProvider = try await ae.authenticate() else { Issue.record("expected the dialog"); return }
        guard case .enterCodeOnSecondScreen(let second) = try await ae.selectProvider("NotBoarded") else {
            Issue.record("expected a code"); return
        }
        let agent =
            wire == .inProcess
            ? SimulatedUserAgent(sandbox: rig.sandbox) : SimulatedUserAgent(httpBase: rig.runner.baseURL)
        try await agent.activate(code: second, username: "alice", password: "alice123", mvpd: nil)
        async let outcome = ae.secondScreenSignIn()
        rig.sandbox.clock.advance(by: 5)
        #expect(try await outcome == .authenticated)
    }

    /// The same redirect handed over twice at once (a web view that reports it twice): the
    /// second joins the profile fetch the first started, and both calls return.
    @Test(arguments: bothWires)
    func aRedirectHandedOverTwiceAtOnceEndsBothCalls(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire)
        let ae = rig.accessEnabler
        try await ae.configure(requestor: "REF30")
        guard case .chooseProvider = try await ae.authenticate() else {
            Issue.record("expected the provider dialog"); return
        }
        guard case .openLoginPage(let url, false) = try await ae.selectProvider("NotBoarded") else {
            Issue.record("expected the login page"); return
        }
        let landing = try await Self.logIn(rig, at: url, wire: wire)
        let outcomes = NSLockedBox<[AuthenticationStatus]>()
        let ended = await whileProgressing(ae, quiescenceIsProgress: false) {
            async let first = try? ae.handleRedirect(landing)
            async let second = try? ae.handleRedirect(landing)
            outcomes.value = [await first, await second].compactMap { $0 }
        }
        #expect(ended, "both calls returned")
        #expect(outcomes.value?.map(\.isAuthenticated) == [true, true])
    }

    /// A call that ends the second-screen wait (setRequestor, logout) delivers the
    /// `setAuthenticationStatus` that ends it under its own name; the awaited sign-in still
    /// returns, with that outcome, instead of waiting for ever.
    @Test(arguments: bothWires, ["setRequestor", "logout"])
    func anAwaitedSecondScreenSignInEndedByAnotherCallReturns(wire: ScenarioRunner.Wire, ender: String) async throws {
        let rig = try Self.rig(wire, platform: .tvOS, loginScreen: nil)
        let ae = rig.accessEnabler
        try await ae.configure(requestor: "REF30")
        guard case .chooseProvider = try await ae.authenticate() else { Issue.record("expected the dialog"); return }
        guard case .enterCodeOnSecondScreen = try await ae.selectProvider("NotBoarded") else {
            Issue.record("expected a code"); return
        }
        let waiting = Task { () -> Bool in
            do {
                _ = try await ae.secondScreenSignIn()
                return false
            } catch is CancellationError {
                return false
            } catch {
                // Not authenticated: the wait ended with the other call's status.
                return true
            }
        }
        ender == "logout" ? ae.logout() : ae.setRequestor("REF30")
        let ended = await whileProgressing(ae, quiescenceIsProgress: false) { _ = await waiting.value }
        #expect(ended, "the awaited sign-in returned after \(ender) ended the wait")
        if ended { #expect(await waiting.value, "it failed with the wait's end") } else { waiting.cancel() }
    }

    /// The cancellation lands while the SDK holds the call (it waits behind a setRequestor,
    /// and the engine takes neither until the test lets it): the wait ends at once with
    /// CancellationError, and the call, already made, still reaches the delegate in its
    /// turn. Were the cancellation ignored, the wait would go on until the engine answered.
    @Test(arguments: bothWires)
    func aCancelledCallEndsAtOnceAndTheNextCallIsAnsweredNormally(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire)
        let ae = rig.accessEnabler
        try await ae.configure(requestor: "REF30")
        rig.recorder.reset()
        let together = await ae.callTogether { ae in
            ae.setRequestor("REF30")
            let task = Task { try await ae.authenticationStatus() }
            // Cancel only once the SDK has the call (not before it was made).
            while ae.callsAwaitingReply == 0 { await Task.yield() }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ae.callsAwaitingReply == 0)
            #expect(rig.recorder.callbacks.isEmpty, "cancelled before the engine took a call")
        }
        #expect(together, "the engine was idle")
        await rig.runner.settle()
        // The call was made: the delegate hears it after setRequestor, in call order.
        let names: [String] = rig.recorder.callbacks.compactMap(\.callback)
        #expect(
            names.filter { ["setRequestorComplete", "setAuthenticationStatus"].contains($0) } == [
                "setRequestorComplete", "setAuthenticationStatus",
            ])
        #expect(try await ae.authenticationStatus().isAuthenticated == false)
    }

    @Test(arguments: bothWires)
    func theEventStreamSeesEveryCallbackInOrder(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire)
        let ae = rig.accessEnabler
        let events = ae.events
        try await ae.configure(requestor: "REF30")
        _ = try await ae.authenticationStatus()
        var seen: [AccessEnablerEvent] = []
        for await event in events {
            seen.append(event)
            if event.kind == .authenticationStatus { break }
        }
        #expect(seen.first == .requestorComplete(status: 1))
        #expect(seen.contains { $0.status?.errorId == "N000" })
        #expect(seen.last == .authenticationStatus(status: 0, errorCode: USER_NOT_AUTHENTICATED_ERROR))
    }

    /// On iOS a device holding two MVPDs' sign-ins has two logout pages: `signOut()` answers
    /// the first, `handleLogoutRedirect(_:)` the next, then the end of the sign-out.
    @Test(arguments: bothWires)
    func aSignOutWithTwoLogoutPagesAnswersEachPageInTurn(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire)
        let ae = rig.accessEnabler
        let agent =
            wire == .inProcess
            ? SimulatedUserAgent(sandbox: rig.sandbox) : SimulatedUserAgent(httpBase: rig.runner.baseURL)
        try await ae.configure(requestor: "REF30")
        for (forced, mvpd, username, password) in [
            (false, "NotBoarded", "alice", "alice123"), (true, "SVCProvider", "bob", "bob123"),
        ] {
            guard case .chooseProvider = try await ae.authenticate(forceAuthn: forced) else {
                Issue.record("expected the provider dialog"); return
            }
            guard case .openLoginPage(let url, _) = try await ae.selectProvider(mvpd) else {
                Issue.record("expected \(mvpd)'s login page"); return
            }
            let landing = try await agent.login(
                startingAt: url, username: username, password: password, redirectPrefix: ae.configuration.redirectURL)
            #expect(try await ae.handleRedirect(landing).isAuthenticated)
        }

        guard case .openLogoutPage(let first) = try await ae.signOut() else {
            Issue.record("iOS opens the first logout page"); return
        }
        #expect(first.contains("SVCProvider"), "the page of the MVPD in force comes first: \(first)")
        let firstBack = try await agent.follow(first, redirectPrefix: ae.configuration.redirectURL)
        guard case .openLogoutPage(let second) = try await ae.handleLogoutRedirect(firstBack) else {
            Issue.record("then the other MVPD's page"); return
        }
        #expect(second.contains("NotBoarded"), "\(second)")
        let secondBack = try await agent.follow(second, redirectPrefix: ae.configuration.redirectURL)
        #expect(try await ae.handleLogoutRedirect(secondBack) == .signedOut(status: nil))
        #expect(try await !ae.authenticationStatus().isAuthenticated)
    }
}
