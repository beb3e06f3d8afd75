import Foundation

/// Where interactive authentication (and the logout round trip) stands, and what each event
/// means for it. Pure: events in, actions out, no I/O.
///
/// The engine feeds it what happened — a facade call, the partner picker's result, a
/// session Adobe Pass opened, a redirect, a poll timer, a poll's answer — and carries out
/// the actions it returns, in order: deliver a callback, start or cancel the partner
/// picker, create a session, open the login page, set or cancel a poll timer, fetch the
/// profile for a code, store a profile, end the authentication.
///
/// Its one invariant: **an authentication that has begun ends exactly once, and a
/// `getAuthorization` waiting for it always gets its own terminal callback.** Every
/// transition that abandons a flow returns the callbacks that flow still owes:
/// - a picker that is open is cancelled and its `dismissTVProviderDialog` delivered;
/// - an authentication in the SDK's hands (picker open, a code being polled) ends with
///   the abandoning call's own `setAuthenticationStatus` when that call ends in one
///   (`setSelectedProvider(nil)`, `logout`, a new `getAuthentication` or
///   `setSelectedProvider`, which carry the authentication on), otherwise
///   (`setRequestor`) with `setAuthenticationStatus(0, GENERIC_AUTHENTICATION_ERROR)`;
/// - a waiting `getAuthorization` gets `tokenRequestFailed`, unless a new flow carries the
///   authentication on;
/// - a logout page still waiting for its redirect ends with the logout's
///   `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
struct AuthenticationStateMachine: Sendable {
    /// The states between facade calls.
    enum State: Sendable, Equatable {
        /// Nothing is waiting.
        case idle
        /// `displayProviderDialog` was delivered; the app answers with `setSelectedProvider`.
        case choosingProvider
        /// The partner sign-in (permission prompt, system picker, exchange) runs as a child
        /// task; `dialog` is the picker while it is on screen.
        case signingInThroughPartner(FlowID, dialog: TVProviderDialog?)
        /// `POST sessions` for this MVPD is under way.
        case openingSession(FlowID, mvpd: String)
        /// `navigateToUrl` opened the MVPD login page; the app answers with `handleExternalURL`.
        case awaitingRedirect(FlowID, AuthenticationSession)
        /// Waiting for the session's profile: a second-screen code, or after the redirect.
        case polling(FlowID, ProfilePolling)
        /// `navigateToUrl` opened the MVPD logout page; `handleExternalURL` completes the logout.
        case awaitingLogoutRedirect
    }

    /// Who asked for authentication.
    enum Caller: Sendable, Equatable {
        /// `getAuthentication`: ends in `setAuthenticationStatus`.
        case getAuthentication
        /// `getAuthorization` of a user who is not authenticated: ends in `setToken` or
        /// `tokenRequestFailed`, after the authentication.
        case getAuthorization(PendingAuthorization)
    }

    /// Where the MVPD login happens.
    enum LoginScreen: Sendable, Equatable {
        /// On this device: `navigateToUrl`.
        case thisDevice
        /// On another device, with a registration code: status `REGCODE`, then polling.
        case secondScreen(pollInterval: TimeInterval)
    }

    /// How the partner sign-in child task ended.
    enum PartnerSignInOutcome: Sendable, Equatable {
        /// Continue with the regular flow: the status that explains why (if any), then
        /// `displayProviderDialog`.
        case showProviderDialog(AdvancedStatus?)
        /// Continue with this MVPD's regular login, in the session Adobe Pass already
        /// opened when it opened one.
        case regularLogin(mvpd: String, opened: SessionAction?)
        /// The partner sign-in was exchanged for this profile (`degraded`: N010 applies).
        case signedIn(StoredProfile, status: AdvancedStatus?)
        /// Authentication failed.
        case failed(AdvancedStatus)
    }

    /// One thing for the engine to do.
    enum Action: Sendable, Equatable {
        /// Deliver `status(_:)`.
        case status(AdvancedStatus)
        /// Deliver `setAuthenticationStatus`.
        case setAuthenticationStatus(Int32, errorCode: String)
        /// Deliver `tokenRequestFailed(resource, USER_NOT_AUTHENTICATED_ERROR, description)`.
        case tokenRequestFailed(PendingAuthorization, description: String)
        /// Deliver `presentTVProviderDialog`.
        case presentPicker(TVProviderDialog)
        /// Deliver `dismissTVProviderDialog`.
        case dismissPicker(TVProviderDialog)
        /// Deliver `displayProviderDialog` with the requestor's MVPDs.
        case showProviderDialog
        /// Start the partner sign-in child task.
        case startPartnerSignIn(FlowID, PickerFilter?)
        /// Cancel the partner sign-in child task.
        case cancelPartnerSignIn(FlowID)
        /// `POST sessions` for the MVPD (or use the session a partner fallback opened), then
        /// report with ``AuthenticationStateMachine/loginNeeded(_:session:url:displayName:screen:now:)``,
        /// ``AuthenticationStateMachine/signedInDirectly(_:profile:status:)`` or
        /// ``AuthenticationStateMachine/sessionFailed(_:status:)``.
        case createSession(FlowID, mvpd: String, opened: SessionAction?)
        /// Deliver `navigateToUrl` for the MVPD login page.
        case openLoginPage(url: String, mvpd: String)
        /// Set the poll timer for this instant.
        case waitForPoll(FlowID, until: Date)
        /// Cancel the poll timer and any poll in flight.
        case stopPolling(FlowID)
        /// `GET profiles/code/{code}`, then report with ``AuthenticationStateMachine/profileAnswered(_:answer:profile:failure:now:)``.
        case fetchProfile(FlowID, AuthenticationSession)
        /// Store this profile.
        case store(StoredProfile)
        /// Authentication succeeded: tracking, `setAuthenticationStatus(1, "")` (`cached`:
        /// an existing profile answered), then the waiting authorization, if any.
        case succeed(pending: PendingAuthorization?, cached: Bool)
        /// Authentication failed: the status, tracking, `setAuthenticationStatus(0, code)`,
        /// then `tokenRequestFailed` for the waiting authorization, if any.
        case fail(AdvancedStatus?, errorCode: String, pending: PendingAuthorization?)
        /// Report the current authentication without changing it (`setAuthenticationStatus`).
        case reportCurrentAuthentication

        /// The flow the action carries on, if any.
        var flow: FlowID? {
            switch self {
            case .startPartnerSignIn(let flow, _), .cancelPartnerSignIn(let flow), .createSession(let flow, _, _),
                 .waitForPoll(let flow, _), .stopPolling(let flow), .fetchProfile(let flow, _):
                flow
            default:
                nil
            }
        }
    }

    private(set) var state: State = .idle
    /// The authorization waiting for this authentication.
    private(set) var pendingAuthorization: PendingAuthorization?
    private var flowCounter: UInt64 = 0

    /// The flow the SDK is driving, if any: answers for any other are stale.
    var currentFlow: FlowID? {
        switch state {
        case .signingInThroughPartner(let id, _), .openingSession(let id, _), .awaitingRedirect(let id, _), .polling(let id, _): id
        case .idle, .choosingProvider, .awaitingLogoutRedirect: nil
        }
    }

    /// The code being polled, if any.
    var polling: ProfilePolling? {
        if case .polling(_, let polling) = state { return polling }
        return nil
    }

    private mutating func newFlow() -> FlowID {
        flowCounter += 1
        return FlowID(value: flowCounter)
    }

    // MARK: Starting

    /// `getAuthentication` (or `getAuthorization`'s authentication) once the requestor is
    /// ready. `authenticated`: a valid profile exists; `viaPartner`: the partner framework
    /// signs in (else the app's provider dialog).
    ///
    /// Ask ``rejection(of:)`` first: a request refused because another flow is open needs
    /// no further look at the user's profile.
    mutating func authenticationRequested(by caller: Caller, authenticated: Bool, forced: Bool, viaPartner: Bool, filter: PickerFilter?) -> [Action] {
        if let refused = rejection(of: caller) { return refused }
        var actions = endOpenFlow()
        if case .getAuthorization(let pending) = caller { pendingAuthorization = pending }
        if authenticated && !forced {
            state = .idle
            actions.append(.succeed(pending: takePending(), cached: true))
            return actions
        }
        if viaPartner {
            let flow = newFlow()
            state = .signingInThroughPartner(flow, dialog: nil)
            actions.append(.startPartnerSignIn(flow, filter))
        } else {
            state = .choosingProvider
            actions.append(.showProviderDialog)
        }
        return actions
    }

    /// The callbacks that refuse `caller` because another flow is open (a picker, a login
    /// page, a provider dialog or a code an authorization cannot join), or `nil`.
    func rejection(of caller: Caller) -> [Action]? {
        switch (state, caller) {
        case (.signingInThroughPartner, _), (.openingSession, _), (.awaitingRedirect, _),
             (.choosingProvider, .getAuthorization), (.polling, .getAuthorization):
            return rejectBusy(caller)
        default:
            return nil
        }
    }

    private func rejectBusy(_ caller: Caller) -> [Action] {
        let message: String
        switch state {
        case .signingInThroughPartner:
            message = "The TV provider sign-in is still open for this authentication; wait for it to end."
        case .awaitingRedirect, .openingSession:
            message = "An MVPD login page is already open for this authentication: finish it with handleExternalURL(_:), or cancel it with setSelectedProvider(nil)."
        case .polling:
            message = "A sign-in on a second screen is under way for this authentication: wait for it to end, or cancel it with setSelectedProvider(nil)."
        default:
            message = "An authentication flow is already waiting for the application: finish it with setSelectedProvider(_:), or cancel it with setSelectedProvider(nil)."
        }
        switch caller {
        case .getAuthentication:
            return [.status(StatusCatalog.status(.n500, message: message)),
                    .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR)]
        case .getAuthorization(let pending):
            return [.status(StatusCatalog.status(.n500, message: message + " getAuthorization(\(pending.resource)) was refused.")),
                    .tokenRequestFailed(pending, description: "An authentication flow is already in progress.")]
        }
    }

    /// Ends whatever flow is open: a partner sign-in is cancelled and its picker closed, a
    /// code is never polled again, a logout page's redirect is no longer awaited (that
    /// logout ends now, with its status). A waiting authorization is the caller's to decide:
    /// a new flow carries it on, a call that ends everything fails it.
    private mutating func endOpenFlow() -> [Action] {
        var actions: [Action] = []
        switch state {
        case .signingInThroughPartner(let flow, let dialog):
            actions.append(.cancelPartnerSignIn(flow))
            if let dialog { actions.append(.dismissPicker(dialog)) }
        case .polling(let flow, _):
            actions.append(.stopPolling(flow))
        case .awaitingLogoutRedirect:
            actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
        case .idle, .choosingProvider, .openingSession, .awaitingRedirect:
            break
        }
        state = .idle
        return actions
    }

    private mutating func takePending() -> PendingAuthorization? {
        defer { pendingAuthorization = nil }
        return pendingAuthorization
    }

    // MARK: The partner sign-in

    /// The partner sign-in child task shows the system picker.
    mutating func pickerPresented(_ flow: FlowID, _ dialog: TVProviderDialog) -> [Action] {
        guard case .signingInThroughPartner(flow, _) = state else { return [] }
        state = .signingInThroughPartner(flow, dialog: dialog)
        return [.presentPicker(dialog)]
    }

    /// The system picker closed.
    mutating func pickerDismissed(_ flow: FlowID, _ dialog: TVProviderDialog) -> [Action] {
        guard case .signingInThroughPartner(flow, _) = state else { return [] }
        state = .signingInThroughPartner(flow, dialog: nil)
        return [.dismissPicker(dialog)]
    }

    /// The partner sign-in child task ended.
    mutating func partnerSignInFinished(_ flow: FlowID, _ outcome: PartnerSignInOutcome) -> [Action] {
        guard case .signingInThroughPartner(flow, let dialog) = state else { return [] }
        var actions: [Action] = dialog.map { [.dismissPicker($0)] } ?? []
        switch outcome {
        case .showProviderDialog(let status):
            state = .choosingProvider
            if let status { actions.append(.status(status)) }
            actions.append(.showProviderDialog)
        case .regularLogin(let mvpd, let opened):
            state = .openingSession(flow, mvpd: mvpd)
            actions.append(.createSession(flow, mvpd: mvpd, opened: opened))
        case .signedIn(let profile, let status):
            state = .idle
            actions.append(.store(profile))
            if let status { actions.append(.status(status)) }
            actions.append(.succeed(pending: takePending(), cached: false))
        case .failed(let status):
            state = .idle
            actions.append(.fail(status, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending()))
        }
        return actions
    }

    // MARK: The provider choice and the session

    /// `setSelectedProvider` with a known MVPD (`nil`: the user backed out). An unknown MVPD
    /// is refused by the engine before it gets here: it changes nothing.
    mutating func providerSelected(_ mvpd: String?) -> [Action] {
        guard let mvpd else {
            var actions = endOpenFlow()
            let pending = takePending()
            actions.append(.status(StatusCatalog.status(.n005, message: "The user cancelled provider selection.")))
            actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: PROVIDER_NOT_SELECTED_ERROR))
            if let pending { actions.append(.tokenRequestFailed(pending, description: "Authentication was cancelled.")) }
            return actions
        }
        var actions = endOpenFlow()
        let flow = newFlow()
        state = .openingSession(flow, mvpd: mvpd)
        actions.append(.createSession(flow, mvpd: mvpd, opened: nil))
        return actions
    }

    /// The session needs a login: on this device (the login page) or on a second screen
    /// (status `REGCODE` with the code, then polling).
    mutating func loginNeeded(_ flow: FlowID, session: AuthenticationSession, url: String, displayName: String, screen: LoginScreen, now: Date) -> [Action] {
        guard case .openingSession(flow, _) = state else { return [] }
        switch screen {
        case .thisDevice:
            state = .awaitingRedirect(flow, session)
            return [.openLoginPage(url: url, mvpd: session.mvpd)]
        case .secondScreen(let interval):
            let polling = ProfilePolling(session: session, origin: .secondScreen, interval: interval, now: now)
            state = .polling(flow, polling)
            let message = "Sign in with \(displayName) on a second screen: on a phone or computer, open the sign-in page and enter the code \(session.code). This device checks for the sign-in every \(Int(polling.interval)) s until the code expires."
            return [.status(StatusCatalog.status(.regcode, message: message, details: session.code)), action(for: polling.firstStep, flow: flow, polling: polling)]
        }
    }

    /// The session answered `authorize`/`direct` (TempPass, degradation, an existing
    /// profile) and the engine fetched this profile.
    mutating func signedInDirectly(_ flow: FlowID, profile: StoredProfile, status: AdvancedStatus?) -> [Action] {
        guard case .openingSession(flow, _) = state else { return [] }
        state = .idle
        var actions: [Action] = [.store(profile)]
        if let status { actions.append(.status(status)) }
        actions.append(.succeed(pending: takePending(), cached: false))
        return actions
    }

    /// The session could not be opened or continued.
    mutating func sessionFailed(_ flow: FlowID, status: AdvancedStatus) -> [Action] {
        guard case .openingSession(flow, _) = state else { return [] }
        state = .idle
        return [.fail(status, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending())]
    }

    // MARK: Redirect and polling

    /// `handleExternalURL` with a URL under the redirect URL.
    mutating func redirectReceived(now: Date, pollInterval: TimeInterval) -> [Action] {
        switch state {
        case .awaitingRedirect(let flow, let session):
            // REST API V2 (FAQ authentication 14): poll from the moment the redirect is reached.
            let polling = ProfilePolling(session: session, origin: .redirect, interval: pollInterval, now: now)
            state = .polling(flow, polling)
            return [action(for: polling.firstStep, flow: flow, polling: polling)]
        case .polling(let flow, var polling):
            // Already waiting for this session's profile: a redirect means "look now".
            guard let step = polling.pollNow() else { return [] }
            state = .polling(flow, polling)
            return [.stopPolling(flow), action(for: step, flow: flow, polling: polling)]
        case .awaitingLogoutRedirect:
            state = .idle
            return [.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR)]
        case .idle, .choosingProvider, .signingInThroughPartner, .openingSession:
            return [.status(StatusCatalog.status(.n130, message: "handleExternalURL was called but no login or logout is waiting for a redirect; nothing changed.")),
                    .reportCurrentAuthentication]
        }
    }

    /// The poll timer of `flow` fired.
    mutating func pollTimerFired(_ flow: FlowID, now: Date) -> [Action] {
        guard case .polling(flow, var polling) = state, let step = polling.timerFired(now: now) else { return [] }
        state = .polling(flow, polling)
        return [action(for: step, flow: flow, polling: polling)]
    }

    /// A poll of `flow` answered. `profile` is the stored form of the profile when one came
    /// back; `failure` explains a failed answer (a session the server no longer knows, an
    /// error after a redirect).
    mutating func profileAnswered(_ flow: FlowID, answer: ProfilePolling.Answer, profile: StoredProfile?, failure: AdvancedStatus?, now: Date) -> [Action] {
        guard case .polling(flow, var polling) = state else { return [] }
        let step = polling.answered(profile == nil && answer == .profile ? .notYet : answer, now: now)
        state = .polling(flow, polling)
        if step == .signedIn, let profile {
            state = .idle
            return [.store(profile), .succeed(pending: takePending(), cached: false)]
        }
        if step == .sessionGone || step == .failed, let failure {
            state = .idle
            return [.fail(failure, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending())]
        }
        return [action(for: step, flow: flow, polling: polling)]
    }

    private mutating func action(for step: ProfilePolling.Step, flow: FlowID, polling: ProfilePolling) -> Action {
        switch step {
        case .ask: return .fetchProfile(flow, polling.session)
        case .wait(let until): return .waitForPoll(flow, until: until)
        case .signedIn, .sessionGone, .expired, .failed:
            state = .idle
            let session = polling.session
            let message = step == .expired
                ? "The sign-in for code \(session.code) (\(session.mvpd)) was not completed before the code expired. Start again with getAuthentication()."
                : "Adobe Pass no longer knows the authentication session of code \(session.code) (\(session.mvpd)). Start again with getAuthentication()."
            return .fail(StatusCatalog.status(.n130, message: message, details: session.code), errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending())
        }
    }

    // MARK: Logout and requestor changes

    /// `logout` starts: whatever is open ends (the logout's own `setAuthenticationStatus`
    /// ends an authentication in progress); a waiting authorization fails.
    mutating func logoutRequested() -> [Action] {
        var actions = endOpenFlow()
        if let pending = takePending() {
            actions.append(.tokenRequestFailed(pending, description: "The user logged out before \(pending.resource) could be authorized."))
        }
        return actions
    }

    /// The logout opened the MVPD logout page; `handleExternalURL` completes it.
    mutating func logoutPageOpened() {
        state = .awaitingLogoutRedirect
    }

    /// `setRequestor` starts. A login page or provider dialog of the same requestor
    /// survives (apps call setRequestor again when they return to the foreground, while the
    /// user finishes in the web view); a partner sign-in or a code being polled ends, as does
    /// everything of another requestor.
    mutating func requestorChanged(sameRequestor: Bool) -> [Action] {
        switch state {
        case .choosingProvider, .awaitingRedirect, .openingSession:
            if sameRequestor { return [] }
        case .idle:
            return []
        default:
            break
        }
        let ownsAuthentication: Bool = switch state {
        case .signingInThroughPartner, .polling, .openingSession: true
        default: false
        }
        var actions = endOpenFlow()
        if ownsAuthentication {
            actions.append(.status(StatusCatalog.status(.n500, message: "setRequestor ended the authentication that was under way; call getAuthentication() again.")))
            actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR))
        }
        if let pending = takePending() {
            actions.append(.tokenRequestFailed(pending, description: "setRequestor ended the authentication \(pending.resource) was waiting for."))
        }
        return actions
    }
}
