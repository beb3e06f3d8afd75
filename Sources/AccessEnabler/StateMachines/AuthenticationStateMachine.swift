import Foundation

/// Where interactive authentication (and the logout round trip) stands, and what each event
/// means for it. Pure: events in, actions out, no I/O. Part of ``EngineStateMachine``,
/// which feeds it the facade's calls and the child tasks' answers and turns its actions
/// into callbacks, child tasks and storage writes.
///
/// It knows which call each flow belongs to (``owner``: the last call that carried the
/// flow on), so every callback it asks for names the call it ends.
///
/// Its one invariant: **an authentication that has begun ends exactly once, and a
/// `getAuthorization` waiting for it always gets its own terminal callback.** Every
/// transition that abandons a flow returns the callbacks that flow still owes:
/// - a picker that is open is cancelled and its `dismissTVProviderDialog` delivered;
/// - a session being opened (`POST sessions` under way) ends with its own caller's
///   `setAuthenticationStatus(0, …)`, since that caller has had no answer yet;
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
    /// The states between events.
    enum State: Sendable, Equatable {
        /// Nothing is waiting.
        case idle
        /// The requestor's configuration is being fetched for this flow (a provider list to
        /// show, the partner framework's supported providers, an MVPD the device does not
        /// know): like `POST sessions`, a wait for Adobe Pass that later calls may abandon.
        case awaitingConfiguration(FlowID, for: ConfigurationNeed)
        /// `displayProviderDialog` was delivered; the app answers with `setSelectedProvider`.
        case choosingProvider
        /// The partner sign-in (permission prompt, system picker, exchange) runs as a child
        /// task; `dialog` is the picker while it is on screen.
        case signingInThroughPartner(FlowID, dialog: TVProviderDialog?)
        /// `POST sessions` for this MVPD is under way, or the profile of its `authorize` answer;
        /// `mvpd` `nil`: a session without one, the person chooses on the second screen.
        case openingSession(FlowID, mvpd: String?, step: SessionStep)
        /// `navigateToUrl` opened the MVPD login page; the app answers with `handleExternalURL`.
        case awaitingRedirect(FlowID, AuthenticationSession)
        /// Waiting for the session's profile: a second-screen code, or after the redirect.
        case polling(FlowID, ProfilePolling)
        /// The logout request for this profile (removed from the device already) is under way.
        case loggingOut(RequestTicket, StoredProfile)
        /// `navigateToUrl` opened `page`, an MVPD logout page of `ticket`'s logout;
        /// `handleExternalURL` opens the next of `remaining`, or completes the logout after the last.
        case awaitingLogoutRedirect(RequestTicket, page: LogoutPage, remaining: [LogoutPage])
    }

    /// What a flow waiting for the configuration does with it.
    enum ConfigurationNeed: Sendable, Equatable {
        /// Let the person choose: the partner framework's picker, or the app's provider
        /// dialog (`getAuthentication`, or `getAuthorization`'s authentication).
        case providerChoice(PickerFilter?)
        /// `setSelectedProvider` with an MVPD the device knows nothing about.
        case selectedProvider(String)
    }

    /// One MVPD logout page a logout hands over.
    struct LogoutPage: Sendable, Equatable {
        /// The page's absolute URL.
        var url: String
        /// The MVPD it logs out of.
        var mvpd: String
    }

    /// How far a session being opened has come.
    enum SessionStep: Sendable, Equatable {
        /// `POST sessions` is under way.
        case creating
        /// The session answered `authorize`: its profile is being fetched; `note` is the
        /// status the sign-in carries (N011 for TempPass, N010 for a degraded MVPD).
        case fetchingProfile(note: AdvancedStatus?)
    }

    /// Who asked for authentication.
    enum Caller: Sendable, Equatable {
        /// `getAuthentication`: ends in `setAuthenticationStatus`.
        case getAuthentication(CallID?)
        /// `getAuthorization` of a user who is not authenticated: ends in `setToken` or
        /// `tokenRequestFailed`, after the authentication.
        case getAuthorization(PendingAuthorization)

        /// The call the callbacks of the request belong to.
        var call: CallID? {
            switch self {
            case .getAuthentication(let call): call
            case .getAuthorization(let pending): pending.owner
            }
        }
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

    /// Why a session being opened is abandoned: by which call, and so with which code its
    /// own caller's `setAuthenticationStatus` ends.
    enum Abandonment: Sendable, Equatable {
        /// `setSelectedProvider(nil)`: the user backed out.
        case backedOut
        /// A new `getAuthentication` or `setSelectedProvider`.
        case replaced
        /// `logout`.
        case loggedOut
        /// `setRequestor` for another requestor.
        case requestorChanged
        /// The app released the AccessEnabler.
        case released
    }

    /// One thing for the engine to do. Callbacks name the call they belong to.
    enum Action: Sendable, Equatable {
        /// Deliver `status(_:)`.
        case status(AdvancedStatus, to: CallID?)
        /// Deliver `setAuthenticationStatus`.
        case setAuthenticationStatus(Int32, errorCode: String, to: CallID?)
        /// Deliver `tokenRequestFailed(resource, USER_NOT_AUTHENTICATED_ERROR, description)`
        /// to the authorization's own call.
        case tokenRequestFailed(PendingAuthorization, description: String)
        /// Deliver `presentTVProviderDialog`.
        case presentPicker(TVProviderDialog, to: CallID?)
        /// Deliver `dismissTVProviderDialog`.
        case dismissPicker(TVProviderDialog, to: CallID?)
        /// Deliver `displayProviderDialog` with the requestor's MVPDs.
        case showProviderDialog(to: CallID?)
        /// Start the partner sign-in child task.
        case startPartnerSignIn(FlowID, PickerFilter?)
        /// Cancel the partner sign-in child task.
        case cancelPartnerSignIn(FlowID)
        /// Deliver `sendTrackingData(…, TRACKING_GET_SELECTED_PROVIDER)` for the MVPD chosen.
        case trackProviderSelection(mvpd: String, to: CallID?)
        /// `POST sessions` for the MVPD (`nil`: without one), unless the partner fallback
        /// already opened one (`opened`: then its answer is handled at once).
        case createSession(FlowID, mvpd: String?, opened: SessionAction?)
        /// Fetch the profile of an `authorize` session answer.
        case fetchSessionProfile(FlowID, mvpd: String)
        /// Stop waiting for the session requests of `flow`.
        case cancelSession(FlowID)
        /// Fetch the requestor's configuration for `flow`; ``AuthenticationStateMachine/configurationArrived(_:viaPartner:)``.
        case fetchConfiguration(FlowID)
        /// Stop waiting for the configuration of `flow`.
        case cancelConfigurationFetch(FlowID)
        /// Set the timer of the logout page of `ticket`'s logout: past `until` the logout ends
        /// by itself (``AuthenticationStateMachine/logoutPageTimedOut(_:)``).
        case startLogoutPageTimer(RequestTicket, until: Date)
        /// Cancel the timer of the logout page of `ticket`'s logout.
        case stopLogoutPageTimer(RequestTicket)
        /// Deliver `navigateToUrl` for the MVPD's login (or logout) page.
        case openPage(url: String, mvpd: String, to: CallID?)
        /// Set the poll timer for this instant.
        case waitForPoll(FlowID, until: Date)
        /// Cancel the poll timer and any poll in flight.
        case stopPolling(FlowID)
        /// `GET profiles/code/{code}`, then report with ``AuthenticationStateMachine/profileAnswered(_:answer:profile:failure:now:)``.
        case fetchProfile(FlowID, AuthenticationSession)
        /// Store this profile (a new sign-in).
        case store(StoredProfile, to: CallID?)
        /// Authentication succeeded: tracking, `setAuthenticationStatus(1, "")` (`cached`:
        /// an existing profile answered), then the waiting authorization, if any.
        case succeed(pending: PendingAuthorization?, cached: Bool, to: CallID?)
        /// Authentication failed: the status, tracking, `setAuthenticationStatus(0, code)`,
        /// then `tokenRequestFailed` for the waiting authorization, if any.
        case fail(AdvancedStatus?, errorCode: String, pending: PendingAuthorization?, to: CallID?)
        /// Report the current authentication without changing it (`setAuthenticationStatus`).
        case reportCurrentAuthentication(to: CallID?)
    }

    private(set) var state: State = .idle
    /// The authorization waiting for this authentication.
    private(set) var pendingAuthorization: PendingAuthorization?
    /// The call the flow in progress belongs to: the last call that carried it on.
    private(set) var owner: CallID?
    /// Calls whose flow a later call carried on (or ended) before they had any answer — a
    /// partner sign-in that setSelectedProvider or logout took over: the answer that ends
    /// the flow next ends them too (the delegate hears it once; each call's reply has it).
    private(set) var carriedOver: [CallID] = []
    /// Whether ``owner`` has had its answer (a hand-over or its status): a flow whose owner
    /// has not is owed to it when another call takes the flow over.
    private var ownerAnswered = true
    private var flowCounter: UInt64 = 0

    /// The flow the SDK is driving, if any: answers for any other are stale.
    var currentFlow: FlowID? {
        switch state {
        case .awaitingConfiguration(let id, _), .signingInThroughPartner(let id, _), .openingSession(let id, _, _), .awaitingRedirect(let id, _),
            .polling(let id, _):
            id
        case .idle, .choosingProvider, .loggingOut, .awaitingLogoutRedirect: nil
        }
    }

    /// The logout request under way and the profile it ends, if any.
    var logoutInFlight: (ticket: RequestTicket, profile: StoredProfile)? {
        if case .loggingOut(let ticket, let profile) = state { return (ticket, profile) }
        return nil
    }

    /// The code being polled, if any.
    var polling: ProfilePolling? {
        if case .polling(_, let polling) = state { return polling }
        return nil
    }

    /// Whether a request of the session (or the configuration it needs) or of the logout
    /// is under way: the calls made meanwhile wait for its answer (or abandon the session,
    /// see ``abandonOpeningSession(_:)``).
    var awaitsServer: Bool {
        switch state {
        case .awaitingConfiguration, .openingSession, .loggingOut: true
        case .idle, .choosingProvider, .signingInThroughPartner, .awaitingRedirect, .polling, .awaitingLogoutRedirect: false
        }
    }

    /// Whether a session is being opened, or the configuration it needs fetched.
    var isOpeningSession: Bool {
        switch state {
        case .awaitingConfiguration, .openingSession: true
        default: false
        }
    }

    /// The logout whose page the app has open, if any.
    var logoutPageOpen: RequestTicket? {
        if case .awaitingLogoutRedirect(let ticket, _, _) = state { return ticket }
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
    /// `providerOnSecondScreen`: the person chooses the provider on the second screen, so
    /// neither the partner framework nor the app's provider dialog is asked: a session
    /// without an MVPD is opened at once, and its code is shown (status `REGCODE`).
    ///
    /// `configurationKnown`: a fresh configuration is cached. Otherwise a choice (the
    /// partner's picker or the app's dialog) first waits for it (``configurationArrived(_:viaPartner:)``).
    mutating func authenticationRequested(
        by caller: Caller, authenticated: Bool, forced: Bool, viaPartner: Bool, filter: PickerFilter?, providerOnSecondScreen: Bool = false,
        configurationKnown: Bool = true
    ) -> [Action] {
        if let refused = rejection(of: caller) { return refused }
        var actions = endOpenFlow()
        if case .getAuthorization(let pending) = caller {
            // An earlier authorization still waiting (its flow was abandoned a moment ago)
            // does not ride on this one.
            if let earlier = takePending() {
                actions.append(
                    .tokenRequestFailed(earlier, description: "getAuthorization(\(pending.resource)) started a new authentication; \(earlier.resource) was not authorized."))
            }
            pendingAuthorization = pending
        }
        owner = caller.call
        ownerAnswered = true
        if authenticated && !forced {
            state = .idle
            actions.append(.succeed(pending: takePending(), cached: true, to: caller.call))
            return actions
        }
        if providerOnSecondScreen {
            let flow = newFlow()
            state = .openingSession(flow, mvpd: nil, step: .creating)
            ownerAnswered = false
            actions.append(.createSession(flow, mvpd: nil, opened: nil))
        } else if !configurationKnown {
            let flow = newFlow()
            state = .awaitingConfiguration(flow, for: .providerChoice(filter))
            ownerAnswered = false
            actions.append(.fetchConfiguration(flow))
        } else if viaPartner {
            let flow = newFlow()
            state = .signingInThroughPartner(flow, dialog: nil)
            ownerAnswered = false
            actions.append(.startPartnerSignIn(flow, filter))
        } else {
            state = .choosingProvider
            actions.append(.showProviderDialog(to: caller.call))
        }
        return actions
    }

    /// The callbacks that refuse `caller` because another flow is open (a picker, a login
    /// page, a provider dialog or a code an authorization cannot join), or `nil`.
    func rejection(of caller: Caller) -> [Action]? {
        switch (state, caller) {
        case (.signingInThroughPartner, _), (.awaitingConfiguration, _), (.openingSession, _), (.awaitingRedirect, _),
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
        case .awaitingRedirect, .openingSession, .awaitingConfiguration:
            message = "An MVPD login page is already open for this authentication: finish it with handleExternalURL(_:), or cancel it with setSelectedProvider(nil)."
        case .polling:
            message = "A sign-in on a second screen is under way for this authentication: wait for it to end, or cancel it with setSelectedProvider(nil)."
        default:
            message = "An authentication flow is already waiting for the application: finish it with setSelectedProvider(_:), or cancel it with setSelectedProvider(nil)."
        }
        switch caller {
        case .getAuthentication(let call):
            return [
                .status(StatusCatalog.status(.n500, message: message), to: call),
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR, to: call),
            ]
        case .getAuthorization(let pending):
            return [
                .status(StatusCatalog.status(.n500, message: message + " getAuthorization(\(pending.resource)) was refused."), to: pending.owner),
                .tokenRequestFailed(pending, description: "An authentication flow is already in progress."),
            ]
        }
    }

    /// Ends whatever flow is open: a partner sign-in is cancelled and its picker closed, a
    /// code is never polled again, a logout page's redirect is no longer awaited (that
    /// logout ends now, with its status). A waiting authorization is the caller's to decide:
    /// a new flow carries it on, a call that ends everything fails it. A session being opened
    /// or a logout under way is never ended here: the engine's state machine lets no call
    /// reach this machine meanwhile but those that abandon the session first.
    private mutating func endOpenFlow(carryingOver: Bool = true) -> [Action] {
        var actions: [Action] = []
        switch state {
        case .signingInThroughPartner(let flow, let dialog):
            actions.append(.cancelPartnerSignIn(flow))
            if let dialog { actions.append(.dismissPicker(dialog, to: owner)) }
        case .polling(let flow, _):
            actions.append(.stopPolling(flow))
            // The call that handed the code over still waits for the sign-in's end (the
            // async API's second stage): the status that ends this flow ends it too.
            if carryingOver, let owner, owner != pendingAuthorization?.owner, !carriedOver.contains(owner) { carriedOver.append(owner) }
        case .awaitingLogoutRedirect(let ticket, _, _):
            actions.append(.stopLogoutPageTimer(ticket))
            actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR, to: owner))
        case .openingSession, .awaitingConfiguration:
            actions += abandonOpeningSession(.replaced)
        case .loggingOut:
            // The local profile is gone already; the logout ends without Adobe's answer.
            actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR, to: owner))
        case .idle, .choosingProvider, .awaitingRedirect:
            break
        }
        // A caller that has had no answer is answered by the call that takes over (a
        // getAuthorization's own answer is its token, which it gets whatever happens).
        if carryingOver, !ownerAnswered, let owner, owner != pendingAuthorization?.owner, !carriedOver.contains(owner) { carriedOver.append(owner) }
        ownerAnswered = true
        state = .idle
        return actions
    }

    private mutating func takePending() -> PendingAuthorization? {
        defer { pendingAuthorization = nil }
        return pendingAuthorization
    }

    /// A waiting authorization left with no flow to carry it (the session it waited for was
    /// abandoned by a call that then started nothing, an unknown MVPD say) fails now.
    mutating func failOrphanedAuthorization() -> [Action] {
        guard state == .idle, let pending = takePending() else { return [] }
        return [.tokenRequestFailed(pending, description: "The authentication \(pending.resource) was waiting for ended without a sign-in.")]
    }

    /// The calls the next answer of the authentication ends besides its own (see ``carriedOver``).
    mutating func takeCarriedOver() -> [CallID] {
        defer { carriedOver = [] }
        return carriedOver
    }

    // MARK: The partner sign-in

    /// The partner sign-in child task shows the system picker.
    mutating func pickerPresented(_ flow: FlowID, _ dialog: TVProviderDialog) -> [Action] {
        guard case .signingInThroughPartner(flow, _) = state else { return [] }
        state = .signingInThroughPartner(flow, dialog: dialog)
        return [.presentPicker(dialog, to: owner)]
    }

    /// The system picker closed.
    mutating func pickerDismissed(_ flow: FlowID, _ dialog: TVProviderDialog) -> [Action] {
        guard case .signingInThroughPartner(flow, _) = state else { return [] }
        state = .signingInThroughPartner(flow, dialog: nil)
        return [.dismissPicker(dialog, to: owner)]
    }

    /// The partner sign-in child task ended.
    mutating func partnerSignInFinished(_ flow: FlowID, _ outcome: PartnerSignInOutcome) -> [Action] {
        guard case .signingInThroughPartner(flow, let dialog) = state else { return [] }
        var actions: [Action] = dialog.map { [.dismissPicker($0, to: owner)] } ?? []
        // Every outcome but a login continuing the flow answers its caller now.
        if case .regularLogin = outcome {} else { ownerAnswered = true }
        switch outcome {
        case .showProviderDialog(let status):
            state = .choosingProvider
            if let status { actions.append(.status(status, to: owner)) }
            actions.append(.showProviderDialog(to: owner))
        case .regularLogin(let mvpd, let opened):
            state = .openingSession(flow, mvpd: mvpd, step: .creating)
            actions.append(.trackProviderSelection(mvpd: mvpd, to: owner))
            actions.append(.createSession(flow, mvpd: mvpd, opened: opened))
        case .signedIn(let profile, let status):
            state = .idle
            actions.append(.store(profile, to: owner))
            if let status { actions.append(.status(status, to: owner)) }
            actions.append(.succeed(pending: takePending(), cached: false, to: owner))
        case .failed(let status):
            state = .idle
            actions.append(.fail(status, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending(), to: owner))
        }
        return actions
    }

    // MARK: The provider choice and the session

    /// `setSelectedProvider` with an MVPD (`nil`: the user backed out). `known`: the device
    /// knows the MVPD (the configuration, or what it stored of an earlier sign-in); otherwise
    /// the flow first waits for the configuration to say whether it is one of the
    /// requestor's. An MVPD a fresh configuration does not name is refused before it gets
    /// here: it changes nothing.
    mutating func providerSelected(_ mvpd: String?, by call: CallID?, known: Bool = true) -> [Action] {
        guard let mvpd else {
            var actions = endOpenFlow()
            let pending = takePending()
            owner = nil
            actions.append(.status(StatusCatalog.status(.n005, message: "The user cancelled provider selection."), to: call))
            actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: PROVIDER_NOT_SELECTED_ERROR, to: call))
            if let pending { actions.append(.tokenRequestFailed(pending, description: "Authentication was cancelled.")) }
            return actions
        }
        var actions = endOpenFlow()
        let flow = newFlow()
        owner = call
        ownerAnswered = false
        guard known else {
            state = .awaitingConfiguration(flow, for: .selectedProvider(mvpd))
            actions.append(.fetchConfiguration(flow))
            return actions
        }
        state = .openingSession(flow, mvpd: mvpd, step: .creating)
        actions.append(.trackProviderSelection(mvpd: mvpd, to: call))
        actions.append(.createSession(flow, mvpd: mvpd, opened: nil))
        return actions
    }

    // MARK: The configuration a flow waits for

    /// The configuration `flow` waited for arrived: the person chooses (the partner
    /// framework's picker when `viaPartner`, else the app's provider dialog), or the session
    /// for the MVPD selected is opened.
    mutating func configurationArrived(_ flow: FlowID, viaPartner: Bool) -> [Action] {
        guard case .awaitingConfiguration(flow, let need) = state else { return [] }
        switch need {
        case .providerChoice(let filter):
            if viaPartner {
                state = .signingInThroughPartner(flow, dialog: nil)
                return [.startPartnerSignIn(flow, filter)]
            }
            state = .choosingProvider
            ownerAnswered = true
            return [.showProviderDialog(to: owner)]
        case .selectedProvider(let mvpd):
            state = .openingSession(flow, mvpd: mvpd, step: .creating)
            return [.trackProviderSelection(mvpd: mvpd, to: owner), .createSession(flow, mvpd: mvpd, opened: nil)]
        }
    }

    /// The configuration `flow` waited for could not be had (`status`: the CFG status
    /// setRequestor reports for the same failure), or does not name the MVPD selected
    /// (`errorCode` `PROVIDER_NOT_AVAILABLE_ERROR`): the flow's call ends, with a waiting
    /// authorization's `tokenRequestFailed`.
    mutating func configurationFailed(_ flow: FlowID, status: AdvancedStatus, errorCode: String = GENERIC_AUTHENTICATION_ERROR) -> [Action] {
        guard case .awaitingConfiguration(flow, _) = state else { return [] }
        state = .idle
        ownerAnswered = true
        var actions: [Action] = [
            .status(status, to: owner), .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: errorCode, to: owner),
        ]
        if let pending = takePending() {
            actions.append(.tokenRequestFailed(pending, description: "The authentication \(pending.resource) was waiting for could not start: \(status.message ?? "")"))
        }
        return actions
    }

    /// What `flow` waits for the configuration for, if it does.
    func configurationNeed(of flow: FlowID) -> ConfigurationNeed? {
        if case .awaitingConfiguration(flow, let need) = state { return need }
        return nil
    }

    /// The session answered `authorize` (TempPass, degradation, an existing profile): its
    /// profile is fetched next; `note` is the status the sign-in will carry.
    mutating func sessionNeedsProfile(_ flow: FlowID, note: AdvancedStatus?) -> [Action] {
        guard case .openingSession(flow, let mvpd?, .creating) = state else { return [] }
        state = .openingSession(flow, mvpd: mvpd, step: .fetchingProfile(note: note))
        return [.fetchSessionProfile(flow, mvpd: mvpd)]
    }

    /// The session needs a login: on this device (the login page) or on a second screen
    /// (status `REGCODE` with the code, then polling).
    mutating func loginNeeded(_ flow: FlowID, session: AuthenticationSession, url: String, displayName: String, screen: LoginScreen, now: Date) -> [Action] {
        guard case .openingSession(flow, _, _) = state else { return [] }
        ownerAnswered = true
        switch screen {
        case .thisDevice:
            guard let mvpd = session.mvpd else { break }
            state = .awaitingRedirect(flow, session)
            return [.openPage(url: url, mvpd: mvpd, to: owner)]
        case .secondScreen(let interval):
            let polling = ProfilePolling(session: session, origin: .secondScreen, interval: interval, now: now)
            state = .polling(flow, polling)
            let steps = session.mvpd == nil ? "enter the code \(session.code) and choose your TV provider" : "enter the code \(session.code)"
            let who = session.mvpd == nil ? "Sign in" : "Sign in with \(displayName)"
            let message =
                "\(who) on a second screen: on a phone or computer, open the sign-in page and \(steps). "
                + "This device checks for the sign-in every \(WholeNumber.clamped(polling.interval) as Int) s until the code expires."
            var regcode = StatusCatalog.status(.regcode, message: message, details: session.code)
            regcode.expiresAt = session.notAfter
            return [.status(regcode, to: owner), action(for: polling.firstStep, flow: flow, polling: polling)]
        }
        // A session without an MVPD cannot open a login page on this device.
        state = .idle
        let refusal = StatusCatalog.status(.n500, message: "A session without a TV provider needs a second screen to choose one.")
        return [.fail(refusal, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending(), to: owner)]
    }

    /// The session's profile arrived: signed in, with the note of the session's answer.
    mutating func signedInDirectly(_ flow: FlowID, profile: StoredProfile) -> [Action] {
        guard case .openingSession(flow, _, .fetchingProfile(let note)) = state else { return [] }
        state = .idle
        ownerAnswered = true
        var actions: [Action] = [.store(profile, to: owner)]
        if let note { actions.append(.status(note, to: owner)) }
        actions.append(.succeed(pending: takePending(), cached: false, to: owner))
        return actions
    }

    /// The session could not be opened or continued.
    mutating func sessionFailed(
        _ flow: FlowID, status: AdvancedStatus, errorCode: String = GENERIC_AUTHENTICATION_ERROR
    ) -> [Action] {
        guard case .openingSession(flow, _, _) = state else { return [] }
        state = .idle
        ownerAnswered = true
        return [.fail(status, errorCode: errorCode, pending: takePending(), to: owner)]
    }

    /// A call abandons the session being opened before Adobe Pass answered: its requests
    /// are cancelled, and the call that asked for it — which has had no answer yet — ends
    /// now, with a status that says why. A waiting authorization stays for the abandoning
    /// call to decide (a new flow carries it on; logout, setRequestor and backing out fail it).
    mutating func abandonOpeningSession(_ reason: Abandonment) -> [Action] {
        let (subject, cancel): (String, Action)
        switch state {
        case .openingSession(let flow, let mvpd, _):
            (subject, cancel) = ("The authentication session for \(mvpd ?? "a TV provider to be chosen on a second screen")", .cancelSession(flow))
        case .awaitingConfiguration(let flow, .selectedProvider(let mvpd)):
            (subject, cancel) = ("The authentication with \(mvpd), waiting for the requestor's configuration,", .cancelConfigurationFetch(flow))
        case .awaitingConfiguration(let flow, .providerChoice):
            (subject, cancel) = ("The authentication, waiting for the requestor's configuration,", .cancelConfigurationFetch(flow))
        default:
            return []
        }
        state = .idle
        ownerAnswered = true
        let (id, code, why): (StatusID, String, String) =
            switch reason {
            case .backedOut: (.n005, PROVIDER_NOT_SELECTED_ERROR, "the user backed out (setSelectedProvider(nil))")
            case .replaced: (.n500, GENERIC_AUTHENTICATION_ERROR, "a new authentication replaced it")
            case .loggedOut: (.n500, USER_NOT_AUTHENTICATED_ERROR, "the user logged out")
            case .requestorChanged: (.n500, GENERIC_AUTHENTICATION_ERROR, "setRequestor changed the requestor; call getAuthentication() again")
            case .released: (.n500, GENERIC_AUTHENTICATION_ERROR, "the app released the AccessEnabler")
            }
        let message = "\(subject) was abandoned before Adobe Pass answered: \(why)."
        return [
            cancel,
            .status(StatusCatalog.status(id, message: message), to: owner),
            .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: code, to: owner),
        ]
    }

    // MARK: Redirect and polling

    /// `handleExternalURL` with a URL under the redirect URL. After a logout page, the next
    /// page opens (the app has `pageTimeout` to come back from it), or the logout ends. A
    /// login whose session had ended by `exactNow` (`now` with the whole measured difference
    /// from Adobe's clock; `nil` when no answer told Adobe's time) ends without asking for
    /// the profile.
    mutating func redirectReceived(now: Date, pollInterval: TimeInterval, pageTimeout: TimeInterval = 30, exactNow: Date? = nil, by call: CallID?) -> [Action] {
        switch state {
        case .awaitingRedirect(let flow, let session):
            // REST API V2 (FAQ authentication 14): poll from the moment the redirect is reached.
            let polling = ProfilePolling(session: session, origin: .redirect, interval: pollInterval, now: now)
            state = .polling(flow, polling)
            owner = call
            ownerAnswered = false
            // A code already past its end signs nobody in: no request (Adobe's checklist stops
            // polling once the session and its code expired).
            let surelyOver = exactNow.map { $0 >= session.notAfter } ?? false
            return [action(for: surelyOver ? .expired : polling.firstStep, flow: flow, polling: polling)]
        case .polling(let flow, var polling):
            // Already waiting for this session's profile: a redirect means "look now". An
            // earlier redirect's call still waiting for its answer is answered with this one's.
            if !ownerAnswered, let owner, owner != call { carriedOver.append(owner) }
            owner = call
            ownerAnswered = false
            guard let step = polling.pollNow() else { return [] }
            state = .polling(flow, polling)
            return [.stopPolling(flow), action(for: step, flow: flow, polling: polling)]
        case .awaitingLogoutRedirect(let ticket, _, let remaining):
            guard let next = remaining.first else {
                state = .idle
                owner = nil
                return [.stopLogoutPageTimer(ticket), .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR, to: call)]
            }
            // The next MVPD's logout page, handed over as an answer to this call.
            state = .awaitingLogoutRedirect(ticket, page: next, remaining: Array(remaining.dropFirst()))
            owner = call
            ownerAnswered = true
            return [
                .stopLogoutPageTimer(ticket), .openPage(url: next.url, mvpd: next.mvpd, to: call),
                .startLogoutPageTimer(ticket, until: now.addingTimeInterval(pageTimeout)),
            ]
        case .idle, .choosingProvider, .awaitingConfiguration, .signingInThroughPartner, .openingSession, .loggingOut:
            return [
                .status(StatusCatalog.status(.n130, message: "handleExternalURL was called but no login or logout is waiting for a redirect; nothing changed."), to: call),
                .reportCurrentAuthentication(to: call),
            ]
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
        let effective = profile == nil && answer == .profile ? .notYet : answer
        // The person at the TV hears when the wait cannot be checked, and when it can again.
        let notice = polling.reachability(after: effective, now: now).map { Self.reachabilityStatus($0, polling: polling, now: now) }
        var actions: [Action] = notice.map { [.status($0, to: owner)] } ?? []
        let step = polling.answered(effective, now: now)
        state = .polling(flow, polling)
        if step == .signedIn, let profile {
            state = .idle
            ownerAnswered = true
            return actions + [.store(profile, to: owner), .succeed(pending: takePending(), cached: false, to: owner)]
        }
        if step == .sessionGone || step == .failed, let failure {
            state = .idle
            ownerAnswered = true
            return actions + [.fail(failure, errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending(), to: owner)]
        }
        actions.append(action(for: step, flow: flow, polling: polling))
        return actions
    }

    /// REG404 when a second-screen sign-in has not been checkable for a while, REG200 when it
    /// is again; each with the code and its end, so the TV can keep showing them.
    private static func reachabilityStatus(_ notice: ProfilePolling.ReachabilityNotice, polling: ProfilePolling, now: Date) -> AdvancedStatus {
        let session = polling.session
        var status: AdvancedStatus
        switch notice {
        case .lost(let since):
            let silence: Int = WholeNumber.clamped(now.timeIntervalSince(since))
            status = StatusCatalog.status(
                .reg404,
                message: "This device cannot reach Adobe Pass to check the sign-in with code \(session.code): no answer for \(silence) s. "
                    + "Check the device's network connection; the code stays valid until it expires, and this device keeps checking every \(WholeNumber.clamped(polling.interval) as Int) s.",
                details: session.code)
        case .restored:
            status = StatusCatalog.status(
                .reg200, message: "This device reaches Adobe Pass again: the sign-in with code \(session.code) is being checked again.", details: session.code)
        }
        status.expiresAt = session.notAfter
        return status
    }

    private mutating func action(for step: ProfilePolling.Step, flow: FlowID, polling: ProfilePolling) -> Action {
        switch step {
        case .ask: return .fetchProfile(flow, polling.session)
        case .wait(let until): return .waitForPoll(flow, until: until)
        case .signedIn, .sessionGone, .expired, .failed:
            state = .idle
            ownerAnswered = true
            let session = polling.session
            let message =
                step == .expired
                ? "The sign-in for code \(session.code) (\(session.mvpdName)) was not completed before the code expired. Start again with getAuthentication()."
                : "Adobe Pass no longer knows the authentication session of code \(session.code) (\(session.mvpdName)). Start again with getAuthentication()."
            return .fail(StatusCatalog.status(.n130, message: message, details: session.code), errorCode: GENERIC_AUTHENTICATION_ERROR, pending: takePending(), to: owner)
        }
    }

    // MARK: Logout and requestor changes

    /// `logout` starts: whatever is open ends (the logout's own `setAuthenticationStatus`
    /// ends an authentication in progress); a waiting authorization fails. With
    /// `request`, the logout request for that profile goes out and the logout waits for
    /// its answer (``logoutAnswered(_:openingPage:)``); without, it ends with the caller's
    /// own callbacks, which the engine's state machine delivers.
    mutating func logoutRequested(by call: CallID?, request: (RequestTicket, StoredProfile)?) -> [Action] {
        var actions = endOpenFlow()
        if let pending = takePending() {
            actions.append(.tokenRequestFailed(pending, description: "The user logged out before \(pending.resource) could be authorized."))
        }
        owner = call
        // The logout answers its own call (the engine's state machine delivers it).
        ownerAnswered = true
        if let (ticket, profile) = request { state = .loggingOut(ticket, profile) }
        return actions
    }

    /// The logout request `ticket` answered: on to the MVPD logout pages (`pages`, each
    /// completed by `handleExternalURL`, the app having `pageTimeout` to come back from each),
    /// or over. `nil` when `ticket` is not the logout under way (its callbacks then belong to
    /// nobody); else the actions that open the first page (none when there is no page: the
    /// engine's state machine ends the logout). The logout's call is ``owner``.
    mutating func logoutAnswered(_ ticket: RequestTicket, pages: [LogoutPage], now: Date, pageTimeout: TimeInterval) -> [Action]? {
        guard case .loggingOut(ticket, _) = state else { return nil }
        guard let first = pages.first else {
            state = .idle
            return []
        }
        state = .awaitingLogoutRedirect(ticket, page: first, remaining: Array(pages.dropFirst()))
        return [.openPage(url: first.url, mvpd: first.mvpd, to: owner), .startLogoutPageTimer(ticket, until: now.addingTimeInterval(pageTimeout))]
    }

    /// The app did not come back from the logout page of `ticket`'s logout in time: the
    /// logout ends by itself (Adobe Pass has ended the profiles already), with a warning that
    /// names the page, and the pages not opened yet are left.
    mutating func logoutPageTimedOut(_ ticket: RequestTicket, pageTimeout: TimeInterval) -> [Action] {
        guard case .awaitingLogoutRedirect(ticket, let page, let remaining) = state else { return [] }
        state = .idle
        let call = owner
        owner = nil
        let skipped = remaining.isEmpty ? "" : " The logout pages of \(remaining.map(\.mvpd).joined(separator: ", ")) were not opened."
        let message =
            "The app did not come back from the logout page of \(page.mvpd) within \(WholeNumber.clamped(pageTimeout) as Int) s (handleExternalURL(_:) with the redirect URL): "
            + "the logout ended without it. The user is signed out at Adobe Pass and on this device.\(skipped)"
        return [
            .status(StatusCatalog.status(.n408, message: message, details: page.url), to: call),
            .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR, to: call),
        ]
    }

    /// `setRequestor` starts. A login page or provider dialog of the same requestor
    /// survives (apps call setRequestor again when they return to the foreground, while the
    /// user finishes in the web view); a partner sign-in or a code being polled ends, as does
    /// everything of another requestor.
    mutating func requestorChanged(sameRequestor: Bool) -> [Action] {
        switch state {
        case .choosingProvider, .awaitingRedirect:
            if sameRequestor { return [] }
        case .idle:
            // A session abandoned as this setRequestor arrived may have left its authorization.
            guard !sameRequestor, let pending = takePending() else { return [] }
            return [.tokenRequestFailed(pending, description: "setRequestor ended the authentication \(pending.resource) was waiting for.")]
        case .openingSession, .awaitingConfiguration:
            // Another requestor's setRequestor abandons the session as it arrives.
            var actions = abandonOpeningSession(.requestorChanged)
            if let pending = takePending() {
                actions.append(.tokenRequestFailed(pending, description: "setRequestor ended the authentication \(pending.resource) was waiting for."))
            }
            return actions
        default:
            break
        }
        let ownsAuthentication: Bool =
            switch state {
            case .signingInThroughPartner, .polling: true
            default: false
            }
        let flowOwner = owner
        var actions = endOpenFlow(carryingOver: false)
        if ownsAuthentication {
            actions.append(
                .status(StatusCatalog.status(.n500, message: "setRequestor ended the authentication that was under way; call getAuthentication() again."), to: flowOwner))
            actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR, to: flowOwner))
        }
        if let pending = takePending() {
            actions.append(.tokenRequestFailed(pending, description: "setRequestor ended the authentication \(pending.resource) was waiting for."))
        }
        return actions
    }

    /// The app released the AccessEnabler: no answer will be read any more, so every
    /// authentication in the SDK's hands (a session being opened, a partner sign-in, a code
    /// being polled, a logout under way) ends now with the callbacks it owes, and a waiting
    /// authorization fails. A provider dialog or a login page the app still shows needs
    /// nothing: its call ended with the hand-over.
    mutating func released() -> [Action] {
        let reason = "The app released the AccessEnabler before this authentication ended."
        var actions: [Action]
        switch state {
        case .openingSession, .awaitingConfiguration:
            actions = abandonOpeningSession(.released)
        default:
            let ownsAuthentication: Bool =
                switch state {
                case .signingInThroughPartner, .polling: true
                default: false
                }
            let flowOwner = owner
            actions = endOpenFlow(carryingOver: false)
            if ownsAuthentication {
                actions.append(.status(StatusCatalog.status(.n500, message: reason), to: flowOwner))
                actions.append(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR, to: flowOwner))
            }
        }
        if let pending = takePending() {
            actions.append(.tokenRequestFailed(pending, description: "The app released the AccessEnabler before \(pending.resource) could be authorized."))
        }
        return actions
    }
}

extension AuthenticationStateMachine.Action {
    /// Whether this action answers the flow's call — its `setAuthenticationStatus` (alone,
    /// or ending a success or a failure) or a hand-over (the provider dialog, a login or
    /// logout page, the registration code): the calls carried over to the flow
    /// (``AuthenticationStateMachine/carriedOver``) end with it too.
    var answersCarriedOverCalls: Bool {
        switch self {
        case .status(let status, _):
            // A registration code hands the authentication over: it answers a call the flow
            // was carried on from too.
            status.errorId == .regcode
        case .setAuthenticationStatus, .showProviderDialog, .openPage, .succeed, .fail:
            true
        case .tokenRequestFailed, .presentPicker, .dismissPicker, .startPartnerSignIn, .cancelPartnerSignIn, .trackProviderSelection, .createSession,
            .fetchSessionProfile, .cancelSession, .fetchConfiguration, .cancelConfigurationFetch, .startLogoutPageTimer, .stopLogoutPageTimer, .waitForPoll,
            .stopPolling, .fetchProfile, .store, .reportCurrentAuthentication:
            false
        }
    }
}
