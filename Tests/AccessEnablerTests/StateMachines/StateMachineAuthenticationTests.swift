import Foundation
import Testing

@testable import AccessEnabler

/// The authentication state machine, event by event, with no I/O: what each event — a
/// facade call, or a raw answer of Adobe Pass — means in each state, which call each callback
/// belongs to, and that every abandoned flow delivers what it owes, once. The machine writes
/// the engine's own actions; these tests read them as short signatures.
@Suite("Authentication state machine")
struct StateMachineAuthenticationTests {
    typealias Machine = AuthenticationStateMachine
    typealias Step = EngineStateMachine.Step
    static let start = MachineHarness.start
    var start: Date { Self.start }
    /// The calls of the app, as the facade numbers them.
    let getAuthorizationCall = CallID(value: 1)
    let selectCall = CallID(value: 2)
    let redirectCall = CallID(value: 3)
    let otherCall = CallID(value: 4)
    var news: PendingAuthorization { PendingAuthorization(resource: "news", data: nil, owner: getAuthorizationCall) }
    let secondScreen = Machine.LoginScreen.secondScreen(pollInterval: 5)

    /// The engine around the authentication machine: the facts it reads before each event
    /// (REF30's fresh configuration: Plain1, TempPass, AppleBoarded), the context it hands in,
    /// and what the last event asked of it.
    struct Engine {
        var machine = Machine()
        var facts: EngineFacts
        var context: AuthenticationContext
        /// The actions the last event wrote.
        var actions: [EngineAction] = []
        /// What the last event asked of the engine's machine.
        var followUps: [Step.FollowUp] = []

        init(
            loginScreen: Machine.LoginScreen = .thisDevice, partner: Bool = false, providerOnSecondScreen: Bool = false
        ) {
            var settings = MachineHarness.settings(partner: partner, loginScreen: loginScreen)
            settings.providerOnSecondScreen = providerOnSecondScreen
            facts = EngineFacts(
                now: StateMachineAuthenticationTests.start, adobeNow: StateMachineAuthenticationTests.start)
            facts.configuration = CachedConfiguration(
                catalog: MachineHarness.catalog, fetchedAt: StateMachineAuthenticationTests.start)
            let targets = RequestTargets(
                requestor: "REF30", serviceProviders: [], knownServiceProviders: [],
                primaryServiceProvider: settings.primaryServiceProvider)
            context = AuthenticationContext(targets: targets, settings: settings, handlesSVC: false)
        }

        /// Hands the machine one event, `seconds` after the start (the facts it wrote carry
        /// over to the next event, as storage would); returns the actions' signatures.
        @discardableResult
        mutating func send(
            at seconds: TimeInterval? = nil, _ event: (inout Machine, AuthenticationContext, inout Step) -> Void
        ) -> [String] {
            if let seconds {
                facts.now = StateMachineAuthenticationTests.start.addingTimeInterval(seconds)
                facts.adobeNow = facts.now
            }
            var step = Step(facts: facts)
            event(&machine, context, &step)
            facts = step.facts
            followUps = step.takeFollowUps()
            actions = step.actions
            return actions.map(StateMachineAuthenticationTests.signature)
        }

        /// The statuses the last event delivered.
        var statuses: [AdvancedStatus] {
            actions.compactMap { if case .deliver(.status(let status), _, _) = $0 { status } else { nil } }
        }

        /// The flow the machine is in, if any.
        var flow: FlowID? {
            switch machine.state {
            case .awaitingConfiguration(let flow, _), .signingInThroughPartner(let flow, _),
                .openingSession(let flow, _, _),
                .awaitingRedirect(let flow, _), .polling(let flow, _):
                flow
            case .idle, .choosingProvider, .loggingOut, .awaitingLogoutRedirect:
                nil
            }
        }
    }

    /// An action as a short signature: a callback with the calls it belongs to
    /// (`setAuthenticationStatus(0,…)@4,2`), a child task with its flow or ticket and what it names.
    static func signature(_ action: EngineAction) -> String {
        func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince(start).rounded()) }
        switch action {
        case .deliver(let callback, let call, let others):
            let owners = ([call].compactMap { $0 } + others).map { "\($0.value)" }.joined(separator: ",")
            return "\(callbackSignature(callback))@\(owners)"
        case .createSession(let flow, let target): return "createSession(\(flow.value),\(target.mvpd ?? "nil"))"
        case .fetchSessionProfile(let flow, let target):
            return "fetchSessionProfile(\(flow.value),\(target.mvpd ?? "nil"))"
        case .cancelSession(let flow): return "cancelSession(\(flow.value))"
        case .setPollTimer(let flow, let until): return "setPollTimer(\(flow.value),+\(seconds(until)))"
        case .fetchProfileForCode(let flow, let code, _): return "fetchProfileForCode(\(flow.value),\(code))"
        case .stopPolling(let flow): return "stopPolling(\(flow.value))"
        case .startPartnerSignIn(let flow, _, _): return "startPartnerSignIn(\(flow.value))"
        case .cancelPartnerSignIn(let flow): return "cancelPartnerSignIn(\(flow.value))"
        case .fetchConfigurationForFlow(let flow, _, _): return "fetchConfigurationForFlow(\(flow.value))"
        case .cancelConfigurationFetch(let flow): return "cancelConfigurationFetch(\(flow.value))"
        case .setLogoutPageTimer(let ticket, let until): return "setLogoutPageTimer(\(ticket.value),+\(seconds(until)))"
        case .cancelLogoutPageTimer(let ticket): return "cancelLogoutPageTimer(\(ticket.value))"
        case .storeProfiles(let change, _): return "storeProfiles(\(change.profiles.chosen?.mvpd ?? "nil"))"
        default: return "\(action)"
        }
    }

    /// A callback as a short signature; a `tokenRequestFailed` with its description.
    static func callbackSignature(_ callback: DelegateCall) -> String {
        switch callback {
        case .tokenRequestFailed(let resource, let code, let description):
            "tokenRequestFailed(\(resource),\(code),\(description))"
        case .navigateToUrl(let url), .navigateToUrlUsingSVC(let url, _): "navigateToUrl(\(url))"
        case .sendTrackingData(_, let event):
            event == TRACKING_AUTHENTICATION ? "trackAuthentication" : "trackProviderSelection"
        default: MachineHarness.signature(callback)
        }
    }

    let succeeded = "setAuthenticationStatus(1,\(USER_AUTHENTICATED))"
    let failed = "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))"
    let loggedOut = "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"

    func profile(_ mvpd: String = "Plain1") -> StoredProfile {
        StoredProfile(
            requestor: "REF30", mvpd: mvpd, type: .regular, notBefore: start,
            notAfter: start.addingTimeInterval(86_400),
            attributes: [:], tokenSource: nil, partnerProviderID: nil, serviceProviderURL: nil)
    }

    /// A profile of `mvpd` as Adobe Pass answers it.
    func answer(_ mvpd: String = "Plain1") -> ProfileAnswer {
        ProfileAnswer(
            mvpd: mvpd, type: "regular", notBefore: start.addingTimeInterval(-60),
            notAfter: start.addingTimeInterval(86_400))
    }

    /// `POST sessions` answered with a login: its code, ending `lifetime` after the start.
    func login(code: String = "ABC1234", lifetime: TimeInterval = 1_800, mvpd: String? = "Plain1") -> Result<
        SessionAction, RESTClientError
    > {
        .success(
            SessionAction(
                actionName: .authenticate, actionType: .interactive, code: code, url: "/authenticate", mvpd: mvpd,
                notAfter: start.addingTimeInterval(lifetime)))
    }

    /// An engine whose getAuthorization("news") opened the provider dialog.
    func dialogForNews(_ engine: Engine = Engine()) -> Engine {
        var engine = engine
        let pending = news
        let actions = engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthorization(pending), authenticated: false, forced: false, filter: nil, context, &step)
        }
        #expect(actions == ["displayProviderDialog@1"])
        #expect(engine.machine.state == .choosingProvider)
        #expect(engine.machine.pendingAuthorization == news)
        return engine
    }

    /// An engine opening a session for Plain1, chosen by `selectCall`.
    func openingSession(from engine: Engine = Engine()) -> (Engine, FlowID) {
        var engine = engine
        let call = selectCall
        let actions = engine.send { machine, context, step in
            machine.providerSelected("Plain1", by: call, context, &step)
        }
        guard case .openingSession(let flow, "Plain1", .creating) = engine.machine.state else {
            Issue.record("expected a session being opened, got \(engine.machine.state)")
            return (engine, FlowID(value: 0))
        }
        #expect(actions == ["trackProviderSelection@2", "createSession(\(flow.value),Plain1)"])
        #expect(engine.machine.awaitsServer)
        return (engine, flow)
    }

    /// An engine polling for the profile of a second-screen code, started by getAuthorization("news").
    func pollingForNews() -> (Engine, FlowID) {
        var (engine, flow) = openingSession(from: dialogForNews(Engine(loginScreen: secondScreen)))
        let session = login()
        let actions = engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) }
        #expect(actions == ["status(REGCODE)@2", "setPollTimer(\(flow.value),+5)"])
        #expect(engine.statuses.first?.details == "ABC1234")
        #expect(!engine.machine.awaitsServer)
        return (engine, flow)
    }

    // MARK: Starting

    @Test func anAuthenticatedUserIsAnsweredAtOnceUnlessForced() {
        var engine = Engine(partner: true)
        let call = otherCall
        let cached = engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthentication(call), authenticated: true, forced: false, filter: nil, context, &step)
        }
        #expect(cached == ["trackAuthentication@4", "\(succeeded)@4"])
        #expect(engine.machine.state == .idle)
        engine.context.settings.partnerConfigured = false
        let forced = engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthentication(call), authenticated: true, forced: true, filter: nil, context, &step)
        }
        #expect(forced == ["displayProviderDialog@4"])
    }

    @Test func thePartnerSignInRunsAsAFlowWhoseLateAnswersAreDroppedAndWhoseCallbacksAreItsCallers() throws {
        var engine = Engine(partner: true)
        let call = otherCall
        let started = engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthentication(call), authenticated: false, forced: false, filter: nil, context, &step)
        }
        let flow = try #require(engine.flow)
        #expect(started == ["startPartnerSignIn(\(flow.value))"])
        let dialog = TVProviderDialog(providers: ["AppleBoarded"], featured: [])
        #expect(
            engine.send { machine, _, step in machine.pickerPresented(flow, dialog, &step) } == [
                "presentTVProviderDialog@4"
            ])
        #expect(engine.send { machine, _, step in machine.pickerPresented(FlowID(value: 99), dialog, &step) } == [])
        #expect(
            engine.send { machine, _, step in machine.pickerDismissed(flow, dialog, &step) } == [
                "dismissTVProviderDialog@4"
            ])
        let signedIn = profile("AppleBoarded")
        let finished = engine.send { machine, context, step in
            machine.partnerSignInFinished(flow, .signedIn(signedIn, status: nil), context, &step)
        }
        #expect(finished == ["storeProfiles(AppleBoarded)", "trackAuthentication@4", "\(succeeded)@4"])
        #expect(engine.machine.state == .idle)
        // The same flow cannot end twice.
        let late = engine.send { machine, context, step in
            machine.partnerSignInFinished(flow, .failed(StatusCatalog.status(.n500, message: "x")), context, &step)
        }
        #expect(late == [])
    }

    @Test func aSecondRequestWhileTheLoginPageIsOpenIsRefusedWithItsOwnTerminal() {
        var (engine, flow) = openingSession()
        let session = login()
        #expect(
            engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) } == [
                "navigateToUrl(https://api.auth.adobe.com/authenticate)@2"
            ], "the login page, made absolute against the MVPD's service provider")
        let (call, pending) = (otherCall, news)
        var refused = false
        #expect(
            engine.send { machine, _, step in refused = machine.refuses(.getAuthentication(call), &step) } == [
                "status(N500)@4", "\(failed)@4",
            ])
        #expect(refused)
        let refusedAuthorization = engine.send { machine, _, step in
            refused = machine.refuses(.getAuthorization(pending), &step)
        }
        #expect(
            refusedAuthorization == [
                "status(N500)@1",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),An authentication flow is already in progress.)@1",
            ])
        #expect(
            engine.machine.pendingAuthorization == nil, "a refused getAuthorization does not ride on the open login")
    }

    // MARK: The session

    @Test func anAuthorizeAnswerFetchesTheProfileAndSignsInWithItsNote() {
        var (engine, flow) = openingSession()
        let authorize = Result<SessionAction, RESTClientError>.success(
            SessionAction(actionName: .authorize, actionType: .direct, reasonType: .temporary, mvpd: "Plain1"))
        #expect(
            engine.send { machine, context, step in machine.sessionAnswered(flow, authorize, context, &step) } == [
                "fetchSessionProfile(\(flow.value),Plain1)"
            ])
        #expect(engine.machine.awaitsServer, "the profile request is part of opening the session")
        #expect(
            engine.send { machine, context, step in machine.sessionAnswered(flow, authorize, context, &step) } == [],
            "asked once")
        let profiles = Result<[ProfileAnswer], RESTClientError>.success([answer()])
        #expect(
            engine.send { machine, context, step in machine.sessionProfileAnswered(flow, profiles, context, &step) }
                == [
                    "storeProfiles(Plain1)", "status(N011)@2", "trackAuthentication@2", "\(succeeded)@2",
                ])
        #expect(!engine.machine.awaitsServer)
        #expect(
            engine.send { machine, context, step in machine.sessionProfileAnswered(flow, profiles, context, &step) }
                == [], "a late answer changes nothing")
    }

    @Test func aSessionBeingOpenedThatIsAbandonedEndsItsOwnCallerOnce() {
        let reasons: [(Machine.Abandonment, StatusID, String)] = [
            (.backedOut, .n005, PROVIDER_NOT_SELECTED_ERROR), (.replaced, .n500, GENERIC_AUTHENTICATION_ERROR),
            (.loggedOut, .n500, USER_NOT_AUTHENTICATED_ERROR), (.requestorChanged, .n500, GENERIC_AUTHENTICATION_ERROR),
        ]
        for (reason, id, code) in reasons {
            var (engine, flow) = openingSession(from: dialogForNews())
            let owed = engine.send { machine, _, step in machine.abandonOpeningSession(reason, &step) }
            #expect(
                owed == ["cancelSession(\(flow.value))", "status(\(id))@2", "setAuthenticationStatus(0,\(code))@2"],
                "\(reason): the caller that chose the provider ends")
            #expect(engine.machine.state == .idle)
            #expect(
                engine.machine.pendingAuthorization == news,
                "the waiting authorization is the abandoning call's to decide")
            #expect(
                engine.send { machine, _, step in machine.abandonOpeningSession(reason, &step) } == [],
                "nothing is owed twice")
            let session = login()
            #expect(
                engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) } == [],
                "a late answer is dropped")
        }
    }

    @Test func aSessionRefusedBecauseTheIntegrationEndedForgetsTheConfiguration() {
        var (engine, flow) = openingSession()
        let error = EnhancedError(
            status: 403, code: "invalid_integration", message: "The integration is disabled.", action: "none")
        let refused = Result<SessionAction, RESTClientError>.failure(
            .server(operation: .createSession, httpStatus: 403, error: error))
        let actions = engine.send { machine, context, step in machine.sessionAnswered(flow, refused, context, &step) }
        #expect(
            actions.filter { $0.hasPrefix("setAuthenticationStatus") } == [
                "setAuthenticationStatus(0,\(PROVIDER_NOT_AVAILABLE_ERROR))@2"
            ])
        #expect(engine.facts.configuration == nil, "the configuration no longer describes the dashboard")
        #expect(engine.followUps == [.publishConfiguration], "the engine's machine publishes the standing without it")
    }

    // MARK: Abandoning a flow: what it owes

    @Test func getAuthorizationThenDialogThenLogoutEndsTheAuthorizationOnce() {
        var engine = dialogForNews()
        let call = otherCall
        #expect(
            engine.send { machine, _, step in machine.logoutRequested(by: call, request: nil, &step) } == [
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),The user logged out before news could be authorized.)@1",
                "\(loggedOut)@4",
            ])
        #expect(engine.machine.pendingAuthorization == nil)
        #expect(
            engine.send { machine, _, step in machine.logoutRequested(by: call, request: nil, &step) } == [
                "\(loggedOut)@4"
            ], "nothing is owed twice")
    }

    @Test func getAuthorizationThenDialogThenAnotherRequestorEndsTheAuthorizationOnce() {
        var engine = dialogForNews()
        #expect(
            engine.send { machine, _, step in machine.requestorChanged(sameRequestor: false, &step) } == [
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),setRequestor ended the authentication news was waiting for.)@1"
            ])
        #expect(engine.machine.state == .idle)
        #expect(engine.send { machine, _, step in machine.requestorChanged(sameRequestor: false, &step) } == [])
    }

    @Test func theSameRequestorAgainKeepsADialogOrALoginPage() {
        var engine = dialogForNews()
        #expect(engine.send { machine, _, step in machine.requestorChanged(sameRequestor: true, &step) } == [])
        #expect(engine.machine.state == .choosingProvider)
        #expect(engine.machine.pendingAuthorization == news)
    }

    @Test func anOpenPickerEndedByLogoutIsDismissedAndItsAuthorizationFails() throws {
        var engine = Engine(partner: true)
        let (call, pending) = (otherCall, news)
        engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthorization(pending), authenticated: false, forced: false, filter: nil, context, &step)
        }
        let flow = try #require(engine.flow)
        let dialog = TVProviderDialog(providers: ["AppleBoarded"], featured: [])
        engine.send { machine, _, step in machine.pickerPresented(flow, dialog, &step) }
        #expect(
            engine.send { machine, _, step in machine.logoutRequested(by: call, request: nil, &step) } == [
                "cancelPartnerSignIn(\(flow.value))", "dismissTVProviderDialog@1",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),The user logged out before news could be authorized.)@1",
                "\(loggedOut)@4",
            ])
        // The picker's late answer changes nothing.
        #expect(
            engine.send { machine, context, step in
                machine.partnerSignInFinished(flow, .showProviderDialog(nil), context, &step)
            } == [])
    }

    @Test func anOpenPickerEndedBySetRequestorEndsTheAuthenticationOfItsCallerOnce() throws {
        var engine = Engine(partner: true)
        let call = otherCall
        engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthentication(call), authenticated: false, forced: false, filter: nil, context, &step)
        }
        let flow = try #require(engine.flow)
        #expect(
            engine.send { machine, _, step in machine.requestorChanged(sameRequestor: true, &step) } == [
                "cancelPartnerSignIn(\(flow.value))", "status(N500)@4", "\(failed)@4",
            ])
    }

    @Test func backingOutEndsEverythingWithN005() {
        var (engine, flow) = pollingForNews()
        let call = otherCall
        #expect(
            engine.send { machine, context, step in machine.providerSelected(nil, by: call, context, &step) } == [
                "stopPolling(\(flow.value))", "status(N005)@4",
                "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))@4,2",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),Authentication was cancelled.)@1",
            ], "the call that was shown the code ends with the call that backed out")
        #expect(engine.statuses.first?.message == "The user cancelled provider selection.")
        #expect(
            engine.send(at: 5) { machine, context, step in machine.pollTimerFired(flow, context, &step) } == [],
            "the old code is never polled again")
    }

    @Test func aLogoutPageWaitingForItsRedirectEndsWhenANewFlowStarts() {
        var engine = Engine()
        let (ticket, call, select) = (RequestTicket(value: 7), otherCall, selectCall)
        let request = Machine.LogoutRequest(ticket: ticket, lead: profile(), opensPagesFor: ["Plain1"])
        #expect(engine.send { machine, _, step in machine.logoutRequested(by: call, request: request, &step) } == [])
        #expect(engine.machine.awaitsServer)
        let answers = LogoutAnswers.success([
            LogoutAction(
                mvpd: "Plain1", actionName: .logout, actionType: .interactive, url: "https://sp.example/logout")
        ])
        let stale = engine.send { machine, context, step in
            machine.logoutAnswered(RequestTicket(value: 8), answers, context, &step)
        }
        #expect(stale == [], "another ticket's answer is not this logout's")
        #expect(
            engine.send { machine, context, step in machine.logoutAnswered(ticket, answers, context, &step) } == [
                "navigateToUrl(https://sp.example/logout)@4", "setLogoutPageTimer(7,+30)",
            ])
        let page = Machine.LogoutPage(url: "https://sp.example/logout", mvpd: "Plain1")
        #expect(engine.machine.state == .awaitingLogoutRedirect(ticket, page: page, remaining: []))
        #expect(
            engine.send { machine, context, step in
                machine.authenticationRequested(
                    by: .getAuthentication(select), authenticated: false, forced: false, filter: nil, context, &step)
            } == ["cancelLogoutPageTimer(7)", "\(loggedOut)@4", "displayProviderDialog@2"])
    }

    // MARK: Second screen

    @Test func aSecondScreenCodeIsPolledUntilItsProfileArrives() {
        var (engine, flow) = pollingForNews()
        let (nothing, found) = (
            Result<[ProfileAnswer], RESTClientError>.success([]),
            Result<[ProfileAnswer], RESTClientError>.success([answer()])
        )
        #expect(
            engine.send(at: 5) { machine, context, step in machine.pollTimerFired(flow, context, &step) } == [
                "fetchProfileForCode(\(flow.value),ABC1234)"
            ])
        #expect(
            engine.send(at: 6) { machine, context, step in machine.pollAnswered(flow, nothing, context, &step) } == [
                "setPollTimer(\(flow.value),+11)"
            ])
        #expect(
            engine.send(at: 11) { machine, context, step in machine.pollTimerFired(flow, context, &step) } == [
                "fetchProfileForCode(\(flow.value),ABC1234)"
            ])
        #expect(
            engine.send(at: 12) { machine, context, step in machine.pollAnswered(flow, found, context, &step) } == [
                "storeProfiles(Plain1)", "trackAuthentication@2", "\(succeeded)@2",
            ])
        #expect(engine.followUps == [.authorize(news)], "the authorization that waited runs next")
        #expect(engine.machine.state == .idle)
    }

    @Test func aCodeWhoseSessionEndsFailsWithN130() {
        var (engine, flow) = pollingForNews()
        #expect(
            engine.send(at: 1_800) { machine, context, step in machine.pollTimerFired(flow, context, &step) } == [
                "status(N130)@2", "trackAuthentication@2", "\(failed)@2",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),\(StatusSentences.notAuthenticatedSoNotAuthorized("news")))@1",
            ])
        #expect(engine.machine.state == .idle)
    }

    @Test func aNewFlowAbandonsTheOldCodeAndCarriesTheAuthorizationOn() {
        var (engine, flow) = pollingForNews()
        let call = otherCall
        let again = engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthentication(call), authenticated: false, forced: false, filter: nil, context, &step)
        }
        #expect(again == ["stopPolling(\(flow.value))", "displayProviderDialog@4,2"])
        #expect(engine.machine.pendingAuthorization == news)
        let found = Result<[ProfileAnswer], RESTClientError>.success([answer()])
        #expect(
            engine.send { machine, context, step in machine.pollAnswered(flow, found, context, &step) } == [],
            "a late answer for the old code is dropped")

        var (other, oldFlow) = pollingForNews()
        let chosen = other.send { machine, context, step in
            machine.providerSelected("TempPass", by: call, context, &step)
        }
        guard case .openingSession(let newFlow, "TempPass", .creating) = other.machine.state else {
            Issue.record("expected a session for TempPass, got \(other.machine.state)")
            return
        }
        #expect(
            chosen == [
                "stopPolling(\(oldFlow.value))", "trackProviderSelection@4", "createSession(\(newFlow.value),TempPass)",
            ])
        #expect(newFlow != oldFlow)
        #expect(other.machine.owner == otherCall, "the flow now belongs to the call that carried it on")
    }

    @Test func aThrottledPollWaitsAtLeastASecondLongerAndNeverEndsTheFlow() {
        var (engine, flow) = pollingForNews()
        let throttled = Result<[ProfileAnswer], RESTClientError>.failure(
            .throttled(operation: .profileForCode, retryAfter: nil))
        let throttledFor4 = Result<[ProfileAnswer], RESTClientError>.failure(
            .throttled(operation: .profileForCode, retryAfter: 4))
        let unreachable = Result<[ProfileAnswer], RESTClientError>.failure(
            .transport(operation: .profileForCode, .timedOut))
        engine.send(at: 5) { machine, context, step in machine.pollTimerFired(flow, context, &step) }
        #expect(
            engine.send(at: 5) { machine, context, step in machine.pollAnswered(flow, throttled, context, &step) } == [
                "setPollTimer(\(flow.value),+11)"
            ])
        engine.send(at: 11) { machine, context, step in machine.pollTimerFired(flow, context, &step) }
        #expect(
            engine.send(at: 11) { machine, context, step in machine.pollAnswered(flow, throttledFor4, context, &step) }
                == ["setPollTimer(\(flow.value),+20)"])
        engine.send(at: 20) { machine, context, step in machine.pollTimerFired(flow, context, &step) }
        #expect(
            engine.send(at: 20) { machine, context, step in machine.pollAnswered(flow, unreachable, context, &step) }
                == ["setPollTimer(\(flow.value),+25)"],
            "a network error on one poll is retried at the next interval")
    }

    @Test func theSessionGoneEndsTheFlowWithTheServersReason() {
        var (engine, flow) = pollingForNews()
        let gone = Result<[ProfileAnswer], RESTClientError>.failure(
            .server(operation: .profileForCode, httpStatus: 404, error: nil))
        engine.send(at: 5) { machine, context, step in machine.pollTimerFired(flow, context, &step) }
        let actions = engine.send(at: 5) { machine, context, step in machine.pollAnswered(flow, gone, context, &step) }
        let reason = ErrorClassification.authenticationStatus(
            .server(operation: .profileForCode, httpStatus: 404, error: nil))
        #expect(
            actions == [
                "status(\(reason.errorId))@2", "trackAuthentication@2", "\(failed)@2",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),\(StatusSentences.notAuthenticatedSoNotAuthorized("news")))@1",
            ])
        #expect(engine.statuses == [reason])
    }

    @Test func theSecondScreenPollIntervalHasAFloorOfThreeSeconds() {
        var (engine, flow) = openingSession(from: Engine(loginScreen: .secondScreen(pollInterval: 0.5)))
        let session = login()
        let actions = engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) }
        #expect(actions.last == "setPollTimer(\(flow.value),+3)")
        guard case .polling(_, let polling) = engine.machine.state else { Issue.record("expected polling"); return }
        #expect(polling.interval == 3)
    }

    @Test func theRegistrationCodeStatusCarriesTheCodeExactly() throws {
        var (engine, flow) = openingSession(from: Engine(loginScreen: secondScreen))
        let session = login(code: "x9-Yz")
        engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) }
        let status = try #require(engine.statuses.first { $0.errorId == .regcode })
        #expect(status.details == "x9-Yz")
        #expect(status.level == .info)
        #expect(status.message?.contains("second screen") == true)
        #expect(status.expiresAt == start.addingTimeInterval(1_800), "the code's end, from the session's answer")
    }

    // MARK: After a redirect

    @Test func theRedirectPollsAtOnceOnBehalfOfTheRedirectsCallAndAFailedAnswerEndsTheLogin() {
        var (engine, flow) = openingSession()
        let (session, call) = (login(), redirectCall)
        engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) }
        #expect(
            engine.send { machine, context, step in machine.redirectReceived(by: call, context, &step) } == [
                "fetchProfileForCode(\(flow.value),ABC1234)"
            ])
        #expect(engine.machine.owner == redirectCall)
        let nothing = Result<[ProfileAnswer], RESTClientError>.success([])
        #expect(
            engine.send { machine, context, step in machine.pollAnswered(flow, nothing, context, &step) } == [
                "setPollTimer(\(flow.value),+5)"
            ])
        // The redirect again: look now.
        #expect(
            engine.send(at: 1) { machine, context, step in machine.redirectReceived(by: call, context, &step) } == [
                "stopPolling(\(flow.value))", "fetchProfileForCode(\(flow.value),ABC1234)",
            ])
        let serverError = Result<[ProfileAnswer], RESTClientError>.failure(
            .server(operation: .profileForCode, httpStatus: 500, error: nil))
        let reason = ErrorClassification.authenticationStatus(
            .server(operation: .profileForCode, httpStatus: 500, error: nil))
        #expect(
            engine.send(at: 1) { machine, context, step in machine.pollAnswered(flow, serverError, context, &step) }
                == [
                    "status(\(reason.errorId))@3", "trackAuthentication@3", "\(failed)@3",
                ])
    }

    /// A redirect after the code's end by Adobe's time (known from the answers' `Date`) asks
    /// nothing and ends the login with N130; without Adobe's time the profile is asked.
    @Test func aRedirectAfterTheCodeSurelyEndedAsksNothing() {
        var (engine, flow) = openingSession()
        let (session, call) = (login(), redirectCall)
        engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) }
        var unknown = engine
        #expect(
            unknown.send(at: 1_801) { machine, context, step in machine.redirectReceived(by: call, context, &step) }
                == ["fetchProfileForCode(\(flow.value),ABC1234)"])
        engine.facts.uncorrectedClockOffset = 0
        let actions = engine.send(at: 1_801) { machine, context, step in
            machine.redirectReceived(by: call, context, &step)
        }
        #expect(actions == ["status(N130)@3", "trackAuthentication@3", "\(failed)@3"])
        #expect(engine.machine.state == .idle)
        // A small difference the device clock does not carry counts: 2 s behind Adobe's.
        var (behind, behindFlow) = openingSession()
        behind.send { machine, context, step in machine.sessionAnswered(behindFlow, session, context, &step) }
        behind.facts.uncorrectedClockOffset = 2
        #expect(
            behind.send(at: 1_799) { machine, context, step in machine.redirectReceived(by: call, context, &step) }
                .first == "status(N130)@3")
    }

    @Test func aRedirectWithNothingPendingChangesNothing() {
        var engine = Engine()
        let (call, logoutCall) = (redirectCall, otherCall)
        #expect(
            engine.send { machine, context, step in machine.redirectReceived(by: call, context, &step) } == [
                "status(N130)@3"
            ])
        #expect(
            engine.followUps == [.reportAuthentication(call: redirectCall)],
            "the engine answers with the authentication as it stands")
        let ticket = RequestTicket(value: 1)
        let request = Machine.LogoutRequest(ticket: ticket, lead: profile(), opensPagesFor: ["Plain1"])
        engine.send { machine, _, step in machine.logoutRequested(by: logoutCall, request: request, &step) }
        let answers = LogoutAnswers.success([
            LogoutAction(
                mvpd: "Plain1", actionName: .logout, actionType: .interactive, url: "https://sp.example/logout")
        ])
        engine.send { machine, context, step in machine.logoutAnswered(ticket, answers, context, &step) }
        #expect(
            engine.send { machine, context, step in machine.redirectReceived(by: call, context, &step) } == [
                "cancelLogoutPageTimer(1)", "\(loggedOut)@3",
            ])
        #expect(engine.machine.state == .idle)
    }

    // MARK: The provider chosen on the second screen

    @Test func withTheProviderChosenOnTheSecondScreenTheCodeIsAskedForAtOnce() throws {
        var engine = Engine(loginScreen: secondScreen, partner: true, providerOnSecondScreen: true)
        let call = otherCall
        let actions = engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthentication(call), authenticated: false, forced: false, filter: nil, context, &step)
        }
        let flow = try #require(engine.flow)
        #expect(
            actions == ["createSession(\(flow.value),nil)"],
            "neither the partner framework nor the provider dialog is asked")
        #expect(engine.machine.state == .openingSession(flow, mvpd: nil, step: .creating))
        // The session answers with its code: REGCODE (with its expiry), then the wait.
        let session = login(mvpd: nil)
        #expect(
            engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) } == [
                "status(REGCODE)@4", "setPollTimer(\(flow.value),+5)",
            ])
        let regcode = try #require(engine.statuses.first)
        #expect(regcode.details == "ABC1234")
        #expect(regcode.expiresAt == start.addingTimeInterval(1_800))
        #expect(regcode.message?.contains("choose your TV provider") == true)
        // Whatever MVPD the profile names is the sign-in.
        engine.send(at: 5) { machine, context, step in machine.pollTimerFired(flow, context, &step) }
        let found = Result<[ProfileAnswer], RESTClientError>.success([answer("TempPass")])
        #expect(
            engine.send(at: 6) { machine, context, step in machine.pollAnswered(flow, found, context, &step) } == [
                "storeProfiles(TempPass)", "trackAuthentication@4", "\(succeeded)@4",
            ])
    }

    @Test func aSessionWithoutAnMVPDCannotOpenALoginPageOnThisDevice() throws {
        var engine = Engine(providerOnSecondScreen: true)
        let call = otherCall
        engine.send { machine, context, step in
            machine.authenticationRequested(
                by: .getAuthentication(call), authenticated: false, forced: false, filter: nil, context, &step)
        }
        let flow = try #require(engine.flow)
        let session = login(mvpd: nil)
        #expect(
            engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) } == [
                "status(N500)@4", "trackAuthentication@4", "\(failed)@4",
            ])
        #expect(engine.machine.state == .idle)
    }

    @Test func pollsThatKeepFailingAreReportedOnceThenCleared() {
        var (engine, flow) = openingSession(from: Engine(loginScreen: secondScreen))
        let session = login()
        engine.send { machine, context, step in machine.sessionAnswered(flow, session, context, &step) }
        let unreachable = Result<[ProfileAnswer], RESTClientError>.failure(
            .transport(operation: .profileForCode, .timedOut))
        let nothing = Result<[ProfileAnswer], RESTClientError>.success([])
        var reported: [StatusID] = []
        for second in stride(from: 5, through: 40, by: 5) {
            engine.send(at: TimeInterval(second)) { machine, context, step in
                machine.pollTimerFired(flow, context, &step)
            }
            let result = second < 40 ? unreachable : nothing
            engine.send(at: TimeInterval(second)) { machine, context, step in
                machine.pollAnswered(flow, result, context, &step)
            }
            reported += engine.statuses.map(\.errorId)
        }
        #expect(reported == [.reg404, .reg200])
        #expect(StatusID.reg404.level == .warning && StatusID.reg200.level == .info)
    }
}
