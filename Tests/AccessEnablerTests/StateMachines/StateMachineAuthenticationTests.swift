import Foundation
import Testing

@testable import AccessEnabler

/// The authentication state machine, event by event, with no I/O: what each event means in
/// each state, which call each callback belongs to, and that every abandoned flow delivers
/// what it owes, once.
@Suite("Authentication state machine")
struct StateMachineAuthenticationTests {
    typealias Machine = AuthenticationStateMachine
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    /// The calls of the app, as the facade numbers them.
    let getAuthorizationCall = CallID(value: 1)
    let selectCall = CallID(value: 2)
    let redirectCall = CallID(value: 3)
    let otherCall = CallID(value: 4)
    var news: PendingAuthorization { PendingAuthorization(resource: "news", data: nil, owner: getAuthorizationCall) }
    let secondScreen = Machine.LoginScreen.secondScreen(pollInterval: 5)

    func session(_ code: String = "ABC1234", lifetime: TimeInterval = 1_800) -> AuthenticationSession {
        AuthenticationSession(mvpd: "NotBoarded", code: code, notAfter: start.addingTimeInterval(lifetime), now: start)
    }

    func profile(_ mvpd: String = "NotBoarded") -> StoredProfile {
        StoredProfile(
            requestor: "REF30", mvpd: mvpd, type: .regular, notBefore: start, notAfter: start.addingTimeInterval(86_400),
            attributes: [:], tokenSource: nil, partnerProviderID: nil, serviceProviderURL: nil)
    }

    func regCodeStatus(of actions: [Machine.Action]) -> AdvancedStatus? {
        for case .status(let status, _) in actions where status.errorId == "REGCODE" { return status }
        return nil
    }

    func statusIDs(_ actions: [Machine.Action]) -> [StatusID] {
        actions.compactMap { if case .status(let status, _) = $0 { status.errorId } else { nil } }
    }

    /// The statuses of the failures in `actions`.
    func failureIDs(_ actions: [Machine.Action]) -> [StatusID] {
        actions.compactMap { if case .fail(let status, _, _, _) = $0 { status?.errorId } else { nil } }
    }

    /// A machine whose getAuthorization("news") opened the provider dialog.
    func dialogForNews() -> Machine {
        var machine = Machine()
        #expect(
            machine.authenticationRequested(by: .getAuthorization(news), authenticated: false, forced: false, viaPartner: false, filter: nil) == [
                .showProviderDialog(to: getAuthorizationCall)
            ])
        #expect(machine.state == .choosingProvider)
        #expect(machine.pendingAuthorization == news)
        return machine
    }

    /// A machine opening a session for NotBoarded, chosen by `selectCall`.
    func openingSession(from machine: Machine = Machine()) -> (Machine, FlowID) {
        var machine = machine
        let created = machine.providerSelected("NotBoarded", by: selectCall)
        guard case .createSession(let flow, "NotBoarded", nil) = created.last else {
            Issue.record("expected createSession, got \(created)")
            return (machine, FlowID(value: 0))
        }
        #expect(created.first == .trackProviderSelection(mvpd: "NotBoarded", to: selectCall))
        #expect(machine.awaitsServer)
        return (machine, flow)
    }

    /// A machine polling for the profile of a second-screen code, started by getAuthorization("news").
    func pollingForNews() -> (Machine, FlowID) {
        var (machine, flow) = openingSession(from: dialogForNews())
        let actions = machine.loginNeeded(flow, session: session(), url: "http://x/authenticate", displayName: "Not Boarded", screen: secondScreen, now: start)
        #expect(actions.count == 2)
        #expect(regCodeStatus(of: actions)?.details == "ABC1234")
        #expect(actions.last == .waitForPoll(flow, until: start.addingTimeInterval(5)))
        #expect(!machine.awaitsServer)
        return (machine, flow)
    }

    // MARK: Starting

    @Test func anAuthenticatedUserIsAnsweredAtOnceUnlessForced() {
        var machine = Machine()
        #expect(
            machine.authenticationRequested(by: .getAuthentication(otherCall), authenticated: true, forced: false, viaPartner: true, filter: nil) == [
                .succeed(pending: nil, cached: true, to: otherCall)
            ])
        #expect(machine.state == .idle)
        #expect(
            machine.authenticationRequested(by: .getAuthentication(otherCall), authenticated: true, forced: true, viaPartner: false, filter: nil) == [
                .showProviderDialog(to: otherCall)
            ])
    }

    @Test func thePartnerSignInRunsAsAFlowWhoseLateAnswersAreDroppedAndWhoseCallbacksAreItsCallers() {
        var machine = Machine()
        let started = machine.authenticationRequested(by: .getAuthentication(otherCall), authenticated: false, forced: false, viaPartner: true, filter: nil)
        guard case .startPartnerSignIn(let flow, nil) = started.first else { Issue.record("\(started)"); return }
        let dialog = TVProviderDialog(providers: ["AppleBoarded"], featured: [])
        #expect(machine.pickerPresented(flow, dialog) == [.presentPicker(dialog, to: otherCall)])
        #expect(machine.pickerPresented(FlowID(value: 99), dialog) == [])
        #expect(machine.pickerDismissed(flow, dialog) == [.dismissPicker(dialog, to: otherCall)])
        #expect(
            machine.partnerSignInFinished(flow, .signedIn(profile("AppleBoarded"), status: nil)) == [
                .store(profile("AppleBoarded"), to: otherCall), .succeed(pending: nil, cached: false, to: otherCall),
            ])
        #expect(machine.state == .idle)
        // The same flow cannot end twice.
        #expect(machine.partnerSignInFinished(flow, .failed(StatusCatalog.status(.n500, message: "x"))) == [])
    }

    @Test func aSecondRequestWhileTheLoginPageIsOpenIsRefusedWithItsOwnTerminal() {
        var (machine, flow) = openingSession()
        #expect(
            machine.loginNeeded(flow, session: session(), url: "u", displayName: "Not Boarded", screen: .thisDevice, now: start) == [
                .openPage(url: "u", mvpd: "NotBoarded", to: selectCall)
            ])
        let refusedAuthentication = machine.rejection(of: .getAuthentication(otherCall)) ?? []
        #expect(statusIDs(refusedAuthentication) == ["N500"])
        #expect(refusedAuthentication.last == .setAuthenticationStatus(0, errorCode: GENERIC_AUTHENTICATION_ERROR, to: otherCall))
        let refusedAuthorization = machine.rejection(of: .getAuthorization(news)) ?? []
        #expect(refusedAuthorization.last == .tokenRequestFailed(news, description: "An authentication flow is already in progress."))
        #expect(machine.pendingAuthorization == nil, "a refused getAuthorization does not ride on the open login")
    }

    // MARK: The session

    @Test func anAuthorizeAnswerFetchesTheProfileAndSignsInWithItsNote() {
        var (machine, flow) = openingSession()
        let note = StatusCatalog.status(.n011, message: "TempPass")
        #expect(machine.sessionNeedsProfile(flow, note: note) == [.fetchSessionProfile(flow, mvpd: "NotBoarded")])
        #expect(machine.awaitsServer, "the profile request is part of opening the session")
        #expect(machine.sessionNeedsProfile(flow, note: note) == [], "asked once")
        #expect(
            machine.signedInDirectly(flow, profile: profile()) == [
                .store(profile(), to: selectCall), .status(note, to: selectCall), .succeed(pending: nil, cached: false, to: selectCall),
            ])
        #expect(!machine.awaitsServer)
        #expect(machine.signedInDirectly(flow, profile: profile()) == [], "a late answer changes nothing")
    }

    @Test func aSessionBeingOpenedThatIsAbandonedEndsItsOwnCallerOnce() {
        let reasons: [(Machine.Abandonment, StatusID, String)] = [
            (.backedOut, .n005, PROVIDER_NOT_SELECTED_ERROR), (.replaced, .n500, GENERIC_AUTHENTICATION_ERROR),
            (.loggedOut, .n500, USER_NOT_AUTHENTICATED_ERROR), (.requestorChanged, .n500, GENERIC_AUTHENTICATION_ERROR),
        ]
        for (reason, id, code) in reasons {
            var (machine, flow) = openingSession(from: dialogForNews())
            let owed = machine.abandonOpeningSession(reason)
            #expect(owed.first == .cancelSession(flow), "\(reason)")
            #expect(statusIDs(owed) == [id], "\(reason)")
            #expect(owed.last == .setAuthenticationStatus(0, errorCode: code, to: selectCall), "\(reason): the caller that chose the provider ends")
            #expect(machine.state == .idle)
            #expect(machine.pendingAuthorization == news, "the waiting authorization is the abandoning call's to decide")
            #expect(machine.abandonOpeningSession(reason) == [], "nothing is owed twice")
            #expect(machine.loginNeeded(flow, session: session(), url: "u", displayName: "x", screen: .thisDevice, now: start) == [], "a late answer is dropped")
        }
    }

    // MARK: Abandoning a flow: what it owes

    @Test func getAuthorizationThenDialogThenLogoutEndsTheAuthorizationOnce() {
        var machine = dialogForNews()
        let actions = machine.logoutRequested(by: otherCall, request: nil)
        #expect(actions == [.tokenRequestFailed(news, description: "The user logged out before news could be authorized.")])
        #expect(machine.pendingAuthorization == nil)
        #expect(machine.logoutRequested(by: otherCall, request: nil) == [], "nothing is owed twice")
    }

    @Test func getAuthorizationThenDialogThenAnotherRequestorEndsTheAuthorizationOnce() {
        var machine = dialogForNews()
        let actions = machine.requestorChanged(sameRequestor: false)
        #expect(actions == [.tokenRequestFailed(news, description: "setRequestor ended the authentication news was waiting for.")])
        #expect(machine.state == .idle)
        #expect(machine.requestorChanged(sameRequestor: false) == [])
    }

    @Test func theSameRequestorAgainKeepsADialogOrALoginPage() {
        var machine = dialogForNews()
        #expect(machine.requestorChanged(sameRequestor: true) == [])
        #expect(machine.state == .choosingProvider)
        #expect(machine.pendingAuthorization == news)
    }

    @Test func anOpenPickerEndedByLogoutIsDismissedAndItsAuthorizationFails() {
        var machine = Machine()
        let started = machine.authenticationRequested(by: .getAuthorization(news), authenticated: false, forced: false, viaPartner: true, filter: nil)
        guard case .startPartnerSignIn(let flow, _) = started.first else { Issue.record("\(started)"); return }
        let dialog = TVProviderDialog(providers: ["AppleBoarded"], featured: [])
        _ = machine.pickerPresented(flow, dialog)
        #expect(
            machine.logoutRequested(by: otherCall, request: nil) == [
                .cancelPartnerSignIn(flow), .dismissPicker(dialog, to: getAuthorizationCall),
                .tokenRequestFailed(news, description: "The user logged out before news could be authorized."),
            ])
        // The picker's late answer changes nothing.
        #expect(machine.partnerSignInFinished(flow, .showProviderDialog(nil)) == [])
    }

    @Test func anOpenPickerEndedBySetRequestorEndsTheAuthenticationOfItsCallerOnce() {
        var machine = Machine()
        let started = machine.authenticationRequested(by: .getAuthentication(otherCall), authenticated: false, forced: false, viaPartner: true, filter: nil)
        guard case .startPartnerSignIn(let flow, _) = started.first else { Issue.record("\(started)"); return }
        let actions = machine.requestorChanged(sameRequestor: true)
        #expect(actions.first == .cancelPartnerSignIn(flow))
        #expect(statusIDs(actions) == ["N500"])
        #expect(
            actions.filter { if case .setAuthenticationStatus = $0 { true } else { false } } == [
                .setAuthenticationStatus(0, errorCode: GENERIC_AUTHENTICATION_ERROR, to: otherCall)
            ])
    }

    @Test func backingOutEndsEverythingWithN005() {
        var (machine, flow) = pollingForNews()
        #expect(
            machine.providerSelected(nil, by: otherCall) == [
                .stopPolling(flow), .status(StatusCatalog.status(.n005, message: "The user cancelled provider selection."), to: otherCall),
                .setAuthenticationStatus(0, errorCode: PROVIDER_NOT_SELECTED_ERROR, to: otherCall), .tokenRequestFailed(news, description: "Authentication was cancelled."),
            ])
        #expect(machine.pollTimerFired(flow, now: start.addingTimeInterval(5)) == [], "the old code is never polled again")
    }

    @Test func aLogoutPageWaitingForItsRedirectEndsWhenANewFlowStarts() {
        var machine = Machine()
        let ticket = RequestTicket(value: 7)
        _ = machine.logoutRequested(by: otherCall, request: (ticket, profile()))
        #expect(machine.awaitsServer)
        #expect(machine.logoutInFlight?.ticket == ticket)
        let page = Machine.LogoutPage(url: "https://sp.example/logout", mvpd: "Plain1")
        let stale = machine.logoutAnswered(RequestTicket(value: 8), pages: [page], now: start, pageTimeout: 30)
        #expect(stale == nil, "another ticket's answer is not this logout's")
        let answered = machine.logoutAnswered(ticket, pages: [page], now: start, pageTimeout: 30)
        #expect(answered == [.openPage(url: page.url, mvpd: "Plain1", to: otherCall), .startLogoutPageTimer(ticket, until: start.addingTimeInterval(30))])
        #expect(machine.state == .awaitingLogoutRedirect(ticket, page: page, remaining: []))
        #expect(
            machine.authenticationRequested(by: .getAuthentication(selectCall), authenticated: false, forced: false, viaPartner: false, filter: nil) == [
                .stopLogoutPageTimer(ticket), .setAuthenticationStatus(0, errorCode: USER_NOT_AUTHENTICATED_ERROR, to: otherCall),
                .showProviderDialog(to: selectCall),
            ])
    }

    // MARK: Second screen

    @Test func aSecondScreenCodeIsPolledUntilItsProfileArrives() {
        var (machine, flow) = pollingForNews()
        #expect(machine.pollTimerFired(flow, now: start.addingTimeInterval(5)) == [.fetchProfile(flow, session())])
        #expect(
            machine.profileAnswered(flow, answer: .notYet, profile: nil, failure: nil, now: start.addingTimeInterval(5.2)) == [
                .waitForPoll(flow, until: start.addingTimeInterval(10.2))
            ])
        #expect(machine.pollTimerFired(flow, now: start.addingTimeInterval(10.2)) == [.fetchProfile(flow, session())])
        #expect(
            machine.profileAnswered(flow, answer: .profile, profile: profile(), failure: nil, now: start.addingTimeInterval(10.3)) == [
                .store(profile(), to: selectCall), .succeed(pending: news, cached: false, to: selectCall),
            ])
        #expect(machine.state == .idle)
        #expect(machine.polling == nil)
    }

    @Test func aCodeWhoseSessionEndsFailsWithN130() {
        var (machine, flow) = pollingForNews()
        let actions = machine.pollTimerFired(flow, now: start.addingTimeInterval(1_800))
        guard case .fail(let status?, let code, let pending, let call) = actions.first else { Issue.record("\(actions)"); return }
        #expect(status.errorId == "N130")
        #expect(code == GENERIC_AUTHENTICATION_ERROR)
        #expect(pending == news)
        #expect(call == selectCall)
    }

    @Test func aNewFlowAbandonsTheOldCodeAndCarriesTheAuthorizationOn() {
        var (machine, flow) = pollingForNews()
        let again = machine.authenticationRequested(by: .getAuthentication(otherCall), authenticated: false, forced: false, viaPartner: false, filter: nil)
        #expect(again == [.stopPolling(flow), .showProviderDialog(to: otherCall)])
        #expect(machine.pendingAuthorization == news)
        #expect(machine.profileAnswered(flow, answer: .profile, profile: profile(), failure: nil, now: start) == [], "a late answer for the old code is dropped")

        var (other, oldFlow) = pollingForNews()
        let chosen = other.providerSelected("TempPass", by: otherCall)
        #expect(chosen.first == .stopPolling(oldFlow))
        guard case .createSession(let newFlow, "TempPass", nil) = chosen.last else { Issue.record("\(chosen)"); return }
        #expect(newFlow != oldFlow)
        #expect(other.owner == otherCall, "the flow now belongs to the call that carried it on")
    }

    @Test func aThrottledPollWaitsAtLeastASecondLongerAndNeverEndsTheFlow() {
        var (machine, flow) = pollingForNews()
        _ = machine.pollTimerFired(flow, now: start.addingTimeInterval(5))
        #expect(
            machine.profileAnswered(flow, answer: .throttled(retryAfter: nil), profile: nil, failure: nil, now: start.addingTimeInterval(5)) == [
                .waitForPoll(flow, until: start.addingTimeInterval(11))
            ])
        _ = machine.pollTimerFired(flow, now: start.addingTimeInterval(11))
        #expect(
            machine.profileAnswered(flow, answer: .throttled(retryAfter: 4), profile: nil, failure: nil, now: start.addingTimeInterval(11)) == [
                .waitForPoll(flow, until: start.addingTimeInterval(20))
            ])
        _ = machine.pollTimerFired(flow, now: start.addingTimeInterval(20))
        #expect(
            machine.profileAnswered(flow, answer: .transientFailure, profile: nil, failure: nil, now: start.addingTimeInterval(20)) == [
                .waitForPoll(flow, until: start.addingTimeInterval(25))
            ], "a network error on one poll is retried at the next interval")
    }

    @Test func theSessionGoneEndsTheFlowWithTheServersReason() {
        var (machine, flow) = pollingForNews()
        _ = machine.pollTimerFired(flow, now: start.addingTimeInterval(5))
        let reason = StatusCatalog.status(.n130, message: "gone")
        #expect(
            machine.profileAnswered(flow, answer: .sessionGone, profile: nil, failure: reason, now: start.addingTimeInterval(5)) == [
                .fail(reason, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: news, to: selectCall)
            ])
    }

    @Test func theSecondScreenPollIntervalHasAFloorOfThreeSeconds() {
        var (machine, flow) = openingSession()
        let actions = machine.loginNeeded(flow, session: session(), url: "u", displayName: "Not Boarded", screen: .secondScreen(pollInterval: 0.5), now: start)
        #expect(actions.last == .waitForPoll(flow, until: start.addingTimeInterval(3)))
        #expect(machine.polling?.interval == 3)
    }

    @Test func theRegistrationCodeStatusCarriesTheCodeExactly() throws {
        var (machine, flow) = openingSession()
        let actions = machine.loginNeeded(flow, session: session("x9-Yz"), url: "u", displayName: "Not Boarded", screen: secondScreen, now: start)
        let status = try #require(regCodeStatus(of: actions))
        #expect(status.details == "x9-Yz")
        #expect(status.level == .info)
        #expect(status.message?.contains("second screen") == true)
    }

    // MARK: After a redirect

    @Test func theRedirectPollsAtOnceOnBehalfOfTheRedirectsCallAndAFailedAnswerEndsTheLogin() {
        var (machine, flow) = openingSession()
        _ = machine.loginNeeded(flow, session: session(), url: "u", displayName: "Not Boarded", screen: .thisDevice, now: start)
        #expect(machine.redirectReceived(now: start, pollInterval: 5, by: redirectCall) == [.fetchProfile(flow, session())])
        #expect(machine.owner == redirectCall)
        #expect(machine.profileAnswered(flow, answer: .notYet, profile: nil, failure: nil, now: start) == [.waitForPoll(flow, until: start.addingTimeInterval(5))])
        // The redirect again: look now.
        #expect(machine.redirectReceived(now: start.addingTimeInterval(1), pollInterval: 5, by: redirectCall) == [.stopPolling(flow), .fetchProfile(flow, session())])
        let failure = StatusCatalog.status(.n500, message: "server error")
        #expect(
            machine.profileAnswered(flow, answer: .transientFailure, profile: nil, failure: failure, now: start.addingTimeInterval(1)) == [
                .fail(failure, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: nil, to: redirectCall)
            ])
    }

    /// A redirect after the code's end by Adobe's time (known from the answers' `Date`) asks
    /// nothing and ends the login with N130; without Adobe's time the profile is asked.
    @Test func aRedirectAfterTheCodeSurelyEndedAsksNothing() {
        var (machine, flow) = openingSession()
        _ = machine.loginNeeded(flow, session: session(), url: "u", displayName: "Not Boarded", screen: .thisDevice, now: start)
        let late = session().notAfter.addingTimeInterval(1)
        var unknown = machine
        #expect(unknown.redirectReceived(now: late, pollInterval: 5, exactNow: nil, by: redirectCall) == [.fetchProfile(flow, session())])
        let actions = machine.redirectReceived(now: late, pollInterval: 5, exactNow: late, by: redirectCall)
        #expect(failureIDs(actions) == ["N130"])
        #expect(!actions.contains { if case .fetchProfile = $0 { true } else { false } })
        #expect(machine.state == .idle)
        // A small difference the device clock does not carry counts: 2 s behind Adobe's.
        var (behind, behindFlow) = openingSession()
        _ = behind.loginNeeded(behindFlow, session: session(), url: "u", displayName: "Not Boarded", screen: .thisDevice, now: start)
        let justBefore = session().notAfter.addingTimeInterval(-1)
        #expect(failureIDs(behind.redirectReceived(now: justBefore, pollInterval: 5, exactNow: justBefore.addingTimeInterval(2), by: redirectCall)) == ["N130"])
    }

    @Test func aRedirectWithNothingPendingChangesNothing() {
        var machine = Machine()
        let actions = machine.redirectReceived(now: start, pollInterval: 5, by: redirectCall)
        #expect(statusIDs(actions) == ["N130"])
        #expect(actions.last == .reportCurrentAuthentication(to: redirectCall))
        let ticket = RequestTicket(value: 1)
        _ = machine.logoutRequested(by: otherCall, request: (ticket, profile()))
        _ = machine.logoutAnswered(ticket, pages: [Machine.LogoutPage(url: "https://sp.example/logout", mvpd: "Plain1")], now: start, pageTimeout: 30)
        #expect(
            machine.redirectReceived(now: start, pollInterval: 5, by: redirectCall) == [
                .stopLogoutPageTimer(ticket), .setAuthenticationStatus(0, errorCode: USER_NOT_AUTHENTICATED_ERROR, to: redirectCall),
            ])
        #expect(machine.state == .idle)
    }
    // MARK: The provider chosen on the second screen

    @Test func withTheProviderChosenOnTheSecondScreenTheCodeIsAskedForAtOnce() throws {
        var machine = Machine()
        let actions = machine.authenticationRequested(
            by: .getAuthentication(otherCall), authenticated: false, forced: false, viaPartner: true, filter: nil, providerOnSecondScreen: true)
        guard case .createSession(let flow, nil, nil) = actions.last, actions.count == 1 else {
            Issue.record("expected only a session without an MVPD, got \(actions)")
            return
        }
        #expect(machine.state == .openingSession(flow, mvpd: nil, step: .creating))
        // The session answers with its code: REGCODE (with its expiry), then the wait.
        let open = AuthenticationSession(mvpd: nil, code: "ABC1234", notAfter: start.addingTimeInterval(1_800), now: start)
        let login = machine.loginNeeded(flow, session: open, url: "", displayName: "your TV provider", screen: secondScreen, now: start)
        let regcode = try #require(regCodeStatus(of: login))
        #expect(regcode.details == "ABC1234")
        #expect(regcode.expiresAt == start.addingTimeInterval(1_800))
        #expect(regcode.message?.contains("choose your TV provider") == true)
        #expect(login.last == .waitForPoll(flow, until: start.addingTimeInterval(5)))
        // Whatever MVPD the profile names is the sign-in.
        _ = machine.pollTimerFired(flow, now: start.addingTimeInterval(5))
        let done = machine.profileAnswered(flow, answer: .profile, profile: profile("Plain1"), failure: nil, now: start.addingTimeInterval(6))
        #expect(done == [.store(profile("Plain1"), to: otherCall), .succeed(pending: nil, cached: false, to: otherCall)])
    }

    @Test func aSessionWithoutAnMVPDCannotOpenALoginPageOnThisDevice() {
        var machine = Machine()
        let actions = machine.authenticationRequested(
            by: .getAuthentication(otherCall), authenticated: false, forced: false, viaPartner: false, filter: nil, providerOnSecondScreen: true)
        guard case .createSession(let flow, nil, nil) = actions.last else { Issue.record("expected a session"); return }
        let open = AuthenticationSession(mvpd: nil, code: "ABC1234", notAfter: nil, now: start)
        let login = machine.loginNeeded(flow, session: open, url: "", displayName: "", screen: .thisDevice, now: start)
        #expect(statusIDs(login) == [])
        guard case .fail(let status?, GENERIC_AUTHENTICATION_ERROR, nil, otherCall) = login.last else { Issue.record("expected a failure, got \(login)"); return }
        #expect(status.errorId == .n500)
        #expect(machine.state == .idle)
    }

    @Test func pollsThatKeepFailingAreReportedOnceThenCleared() {
        var machine = Machine()
        let (opened, flow) = openingSession(from: machine)
        machine = opened
        _ = machine.loginNeeded(flow, session: session(), url: "", displayName: "Not Boarded", screen: secondScreen, now: start)
        var reported: [StatusID] = []
        for second in stride(from: 5, through: 40, by: 5) {
            let now = start.addingTimeInterval(TimeInterval(second))
            _ = machine.pollTimerFired(flow, now: now)
            let answer: ProfilePolling.Answer = second < 40 ? .transientFailure : .notYet
            reported += statusIDs(machine.profileAnswered(flow, answer: answer, profile: nil, failure: nil, now: now))
        }
        #expect(reported == [.reg404, .reg200])
        #expect(StatusID.reg404.level == .warning && StatusID.reg200.level == .info)
    }
}
