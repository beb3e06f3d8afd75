import Foundation

/// Everything the engine remembers between events, and what each event means: the
/// requestor, the options, interactive authentication (``AuthenticationStateMachine``),
/// the work under way and the calls waiting for it. Pure: an event and the facts of the
/// moment in, actions out (``handle(_:facts:)``); no I/O, no clock of its own.
///
/// **Order.** Calls run in the order they were made. While work of an earlier call waits
/// for an answer (setRequestor's configuration, the partner framework's silent answers, a
/// decisions request, `POST sessions`, the logout request), later calls wait in ``queue``
/// and run when it ends — with two exceptions: a call that abandons a session being opened
/// (logout, setSelectedProvider, getAuthentication, setRequestor for another requestor)
/// ends that session as it arrives, and authorizations that arrive while others are being
/// gathered join them (one decisions request for several resources): a round gathers
/// until a call that cannot join arrives, or no event has come for its quiet window
/// (``AuthorizationRound/quietWindow``), and a request that is full leaves at once.
///
/// **Ownership.** Every callback names the facade call it ends: the command's own, the
/// call a flow belongs to (``AuthenticationStateMachine/owner``), or a waiting
/// authorization's.
///
/// **Interactive authentication** is an inner machine of its own: this one forwards it the
/// calls and answers that concern it (``forward(_:_:)``) and reads back nothing but whether
/// its queue must wait (``AuthenticationStateMachine/awaitsServer``).
///
/// Its state is read and changed only by its own extensions (one file per flow) and by
/// tests; the engine reads nothing of it but the actions ``handle(_:facts:)`` returns.
struct EngineStateMachine: Sendable {
    /// A call waiting for its turn, or work the machine gave itself.
    enum Work: Sendable {
        case command(Command, call: CallID?)
        /// A `getAuthorization` whose authentication just succeeded.
        case authorizePending(PendingAuthorization)
    }

    /// What a call needs the user's authentication for, once it is known (with the
    /// partner framework's answer when judging it needs one).
    enum VerdictWork: Sendable {
        case checkAuthentication(call: CallID?)
        case getAuthentication(forced: Bool, filter: PickerFilter?, call: CallID?)
        case getAuthorization(resource: String, data: [String: String]?, call: CallID?)
        case checkAuthorization(resource: String, call: CallID?)
        case checkPreauthorizedResources([String], cache: Bool, call: CallID?)
        case preauthorize(PreauthorizeRequest, AccessEnablerCallback<PreauthorizeResponse>, call: CallID?)
        case getSelectedProvider(call: CallID?)
        case reportAuthentication(call: CallID?)
        case authorizePending(PendingAuthorization)
    }

    /// The work of an earlier call that later calls wait for.
    /// `indirect`: every engine holds its machine for its whole life, and this is the
    /// largest of its parts (over 500 bytes inline), needed only while a call is under way.
    indirect enum Foreground: Sendable {
        /// setRequestor: configuration, then the partner framework's silent checks.
        case requestor(RequestorStep)
        /// A call waiting for the partner framework's silent answers to judge the user's
        /// authentication.
        case awaitingPartner(RequestTicket, VerdictWork)
        /// Authorizations gathered from a burst of calls, then asked together.
        case authorizing(AuthorizationRound)
        /// Preauthorizations gathered, then asked.
        case preauthorizing(PreauthorizationRound)
    }

    /// Where setRequestor stands.
    enum RequestorStep: Sendable {
        /// The profile in force came through partner single sign-on: the partner framework's
        /// silent answers are asked first, so the profiles request can present its status.
        case checkingPartnerFirst(RequestTicket, call: CallID?)
        /// The profiles (and DCR, and the pending logouts) are being asked, with what the
        /// partner framework said first when it was asked.
        case loading(RequestTicket, call: CallID?, partner: LaunchPartnerAnswer?)
        /// With a partner framework and no profile in force: the configuration is being
        /// fetched (the partner framework's supported providers), then `next`.
        case loadingConfiguration(RequestTicket, call: CallID?, next: PartnerCheck)
        /// The partner framework is asked whether a system-level sign-in applies.
        case checkingPartner(RequestTicket, call: CallID?)
        /// A system-level sign-in is being exchanged for a profile.
        case signingInSilently(RequestTicket, call: CallID?)
    }

    /// What setRequestor's partner check does once the configuration is there.
    enum PartnerCheck: Sendable {
        /// Ask the partner framework's silent questions.
        case askPartner
        /// Judge these silent answers again, with the configuration.
        case judge(PartnerSnapshot)
    }

    let settings: EngineSettings
    /// The requestor as the last setRequestor left it.
    var standing = RequestorStanding()
    /// The service providers the last setRequestor asked (for a configuration refetch).
    var serviceProviders: [URL]
    /// Every service provider a client exists for (by base URL): a profile is sent back to
    /// the one it came from when it is among them.
    var knownServiceProviders: Set<String>
    /// The options of the last `setOptions`.
    var options = SDKOptions()
    /// Interactive authentication and the logout round trip.
    var authentication = AuthenticationStateMachine()
    /// The work the calls in ``queue`` wait for.
    var foreground: Foreground?
    /// Calls waiting for their turn, oldest first.
    var queue: [Work] = []
    /// Whether the engine is timing the quiet window of the round being gathered
    /// (``EngineAction/awaitQuietWindow``).
    var quietWindowOpen = false
    /// The request size Adobe Pass's `too_many_resources` answers taught for this requestor's
    /// preauthorizations (smaller than the configured one), if any: later rounds start there.
    var learnedPreauthorizationLimit: Int?
    private var ticketCounter: UInt64 = 0
    /// Whether the facade's turn is held (calls must queue behind the work under way).
    private var turnHeld = false

    init(settings: EngineSettings) {
        self.settings = settings
        serviceProviders = [settings.primaryServiceProvider]
        knownServiceProviders = [settings.primaryServiceProvider.absoluteString]
    }

    /// Whether work is under way that later calls must wait for.
    var isBusy: Bool { foreground != nil || authentication.awaitsServer || !queue.isEmpty }

    // MARK: Events

    /// What `event` means, given what the engine read of the world just before it.
    mutating func handle(_ event: EngineEvent, facts initial: EngineFacts) -> [EngineAction] {
        var step = Step(facts: initial)
        switch event {
        case .command(let command, let call):
            arrived(command, call: call, &step)
        case .requestorLoaded(let ticket, let result):
            requestorLoaded(ticket, result, &step)
        case .partnerAnswered(let ticket, let snapshot):
            partnerAnswered(ticket, snapshot, &step)
        case .silentSignInFinished(let ticket, let profile):
            silentSignInFinished(ticket, profile, &step)
        case .configurationFetched(let ticket, let result):
            configurationFetched(ticket, result, &step)
        case .flowConfigurationFetched(let flow, let result):
            forward(&step) { machine, context, step in machine.configurationFetched(flow, result, context, &step) }
        case .pickerPresented(let flow, let dialog):
            forward(&step) { machine, _, step in machine.pickerPresented(flow, dialog, &step) }
        case .pickerDismissed(let flow, let dialog):
            forward(&step) { machine, _, step in machine.pickerDismissed(flow, dialog, &step) }
        case .partnerSignInFinished(let flow, let outcome):
            forward(&step) { machine, context, step in machine.partnerSignInFinished(flow, outcome, context, &step) }
        case .sessionAnswered(let flow, let result):
            forward(&step) { machine, context, step in machine.sessionAnswered(flow, result, context, &step) }
        case .sessionProfileAnswered(let flow, let result):
            forward(&step) { machine, context, step in machine.sessionProfileAnswered(flow, result, context, &step) }
        case .pollDue(let flow):
            forward(&step) { machine, context, step in machine.pollTimerFired(flow, context, &step) }
        case .pollAnswered(let flow, let result):
            forward(&step) { machine, context, step in machine.pollAnswered(flow, result, context, &step) }
        case .decisionsAnswered(let ticket, let result):
            decisionsAnswered(ticket, result, &step)
        case .logoutAnswered(let ticket, let answers):
            forward(&step) { machine, context, step in machine.logoutAnswered(ticket, answers, context, &step) }
        case .logoutPageTimedOut(let ticket):
            forward(&step) { machine, context, step in machine.logoutPageTimedOut(ticket, context, &step) }
        case .signedOutByNewRegistration(let requestors):
            if let current = standing.requestorID, requestors.contains(current) {
                step.deliver(
                    .status(StatusCatalog.status(.n130, message: StatusSentences.signedOutByNewRegistration)), to: nil)
            }
        case .mailboxDrained:
            awaitQuietWindow(&step)
        case .quietWindowElapsed:
            // The window's timer has ended: nothing to cancel. A window already stopped
            // (its round ended otherwise) answers for nothing.
            guard quietWindowOpen else { break }
            quietWindowOpen = false
            sendGatheredWork(&step)
        case .released:
            released(&step)
        }
        runWaitingWork(&step)
        // Once every call that could carry it on has run, an authorization left waiting with
        // no flow ends.
        if queue.isEmpty { forward(&step) { machine, _, step in machine.failOrphanedAuthorization(&step) } }
        if isBusy != turnHeld {
            turnHeld = isBusy
            step.actions.append(.holdTurn(turnHeld))
        }
        return step.actions
    }

    /// A facade call arrived: it runs now, joins the authorizations being gathered, or
    /// waits for the work under way (after abandoning a session being opened, when it is
    /// one of the calls that do).
    private mutating func arrived(_ command: Command, call: CallID?, _ step: inout Step) {
        if let reason = abandonment(by: command) {
            forward(&step) { machine, _, step in machine.abandonOpeningSession(reason, &step) }
        }
        guard isBusy else { return run(.command(command, call: call), &step) }
        queue.append(.command(command, call: call))
    }

    /// Whether `command` abandons a session being opened, and why.
    private func abandonment(by command: Command) -> AuthenticationStateMachine.Abandonment? {
        switch command {
        case .setSelectedProvider(nil): .backedOut
        case .setSelectedProvider, .getAuthentication: .replaced
        case .logout: .loggedOut
        case .setRequestor(let id, _):
            id.trimmingCharacters(in: .whitespaces) == standing.requestorID ? nil : .requestorChanged
        case .setOptions, .checkAuthentication, .handleExternalURL, .checkAuthorization, .getAuthorization,
            .checkPreauthorizedResources, .getSelectedProvider, .getMetadata, .preauthorize, .selectProfile:
            nil
        }
    }

    /// Runs the calls that waited, in order, as long as nothing is under way; while
    /// authorizations are being gathered, the ones waiting join them, and the first call
    /// that cannot join ends the gathering (its round goes out, the call waits for it).
    private mutating func runWaitingWork(_ step: inout Step) {
        while let next = queue.first {
            if foreground == nil, !authentication.awaitsServer {
                queue.removeFirst()
                run(next, &step)
            } else if isGathering, joinGatheredRound(next, &step) {
                queue.removeFirst()
            } else if isGathering {
                // The burst is over; its round may even end at once (every answer cached).
                sendGatheredWork(&step)
            } else {
                return
            }
        }
    }

    /// Runs one call (or work the machine gave itself).
    private mutating func run(_ work: Work, _ step: inout Step) {
        switch work {
        case .authorizePending(let pending):
            withVerdict(.authorizePending(pending), &step)
        case .command(let command, let call):
            switch command {
            case .setOptions(let options):
                self.options = options
                step.actions.append(.applyOptions(options))
            case .setRequestor(let id, let serviceProviders):
                setRequestor(id, serviceProviders: serviceProviders, call: call, &step)
            case .checkAuthentication:
                checkAuthentication(call: call, &step)
            case .getAuthentication(let forced, let data, let filter):
                rememberTempPassIdentity(data, &step)
                getAuthentication(forced: forced, filter: filter, call: call, &step)
            case .setSelectedProvider(let mvpd):
                setSelectedProvider(mvpd, call: call, &step)
            case .handleExternalURL(let url):
                handleExternalURL(url, call: call, &step)
            case .checkAuthorization(let resource, let data):
                rememberTempPassIdentity(data, &step)
                authorization(.checkAuthorization(resource: resource, call: call), &step)
            case .getAuthorization(let resource, let data):
                rememberTempPassIdentity(data, &step)
                authorization(.getAuthorization(resource: resource, data: data, call: call), &step)
            case .checkPreauthorizedResources(let resources, let cache):
                preauthorization(.checkPreauthorizedResources(resources, cache: cache, call: call), &step)
            case .preauthorize(let request, let callback):
                preauthorization(.preauthorize(request, callback, call: call), &step)
            case .logout:
                logout(call: call, &step)
            case .getSelectedProvider:
                withVerdict(.getSelectedProvider(call: call), &step)
            case .getMetadata(let query, let arguments):
                getMetadata(query, arguments: arguments, call: call, &step)
            case .selectProfile(let mvpd):
                if let requestor = standing.requestorID,
                    let change = ProfileChoice.choosing(mvpd, in: step.facts.profiles, now: step.facts.adobeNow)
                {
                    step.store(change, requestor: requestor)
                }
            }
        }
    }

    /// Keeps the identity a call's data gives (promotional TempPass); calls without data
    /// keep the one given before.
    func rememberTempPassIdentity(_ data: [String: String]?, _ step: inout Step) {
        if let data, let value = TempPassIdentity.headerValue(data) {
            step.actions.append(.rememberTempPassIdentity(value))
        }
    }

    // MARK: The user's authentication

    /// Runs `work` once the user's authentication is judged: at once, or after the partner
    /// framework's silent answers when judging needs them (an `appleSSO` profile, or no
    /// valid regular profile while partner single sign-on applies).
    mutating func withVerdict(_ work: VerdictWork, _ step: inout Step) {
        if let requestor = standing.requestorID,
            AuthenticationCheck.needsPartner(
                profile: step.facts.currentProfile, catalog: step.facts.catalog,
                partnerConfigured: settings.partnerConfigured, now: step.facts.adobeNow)
        {
            let ticket = newTicket()
            foreground = .awaitingPartner(ticket, work)
            step.actions.append(.askPartner(ticket, step.facts.knownCatalog(requestor: requestor)))
            return
        }
        continueWithVerdict(work, snapshot: nil, &step)
    }

    /// The partner framework's silent answers arrived.
    private mutating func partnerAnswered(_ ticket: RequestTicket, _ snapshot: PartnerSnapshot, _ step: inout Step) {
        switch foreground {
        case .awaitingPartner(ticket, let work)?:
            foreground = nil
            continueWithVerdict(work, snapshot: snapshot, &step)
        case .requestor(.checkingPartner(ticket, let call))?:
            reconcilePartnerSignIn(snapshot, call: call, &step)
        case .requestor(.checkingPartnerFirst(ticket, let call))?:
            loadProfiles(presenting: snapshot, call: call, &step)
        default:
            break
        }
    }

    /// Runs `work` with the user's authentication judged (`snapshot`: the partner
    /// framework's answer, when it was needed).
    private mutating func continueWithVerdict(_ work: VerdictWork, snapshot: PartnerSnapshot?, _ step: inout Step) {
        let verdict = AuthenticationCheck.verdict(
            profile: step.facts.currentProfile, catalog: step.facts.catalog, snapshot: snapshot,
            now: step.facts.adobeNow)
        switch work {
        case .checkAuthentication(let call):
            for callback in AuthenticationCheck.callbacks(
                profile: verdict.profile, status: verdict.status, tracking: settings.tracking)
            {
                step.deliver(callback, to: call)
            }
        case .getAuthentication(let forced, let filter, let call):
            let authenticated = verdict.profile != nil
            forward(&step) { machine, context, step in
                machine.authenticationRequested(
                    by: .getAuthentication(call), authenticated: authenticated, forced: forced, filter: filter, context,
                    &step)
            }
        case .getAuthorization(let resource, let data, let call):
            if let profile = verdict.profile {
                authorize(
                    AuthorizationRound.Call(resource: resource, owner: call), profile: profile, snapshot: snapshot,
                    &step)
            } else {
                let pending = PendingAuthorization(resource: resource, data: data, owner: call)
                forward(&step) { machine, context, step in
                    machine.authenticationRequested(
                        by: .getAuthorization(pending), authenticated: false, forced: false, filter: nil, context, &step
                    )
                }
            }
        case .checkAuthorization(let resource, let call):
            guard let profile = verdict.profile else {
                step.deliver(
                    .status(
                        StatusCatalog.status(
                            .n000, message: StatusSentences.notAuthenticatedSoCannotAuthorize(resource))), to: call)
                step.deliver(
                    .tokenRequestFailed(
                        resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: StatusSentences.notAuthenticated
                    ), to: call)
                return
            }
            authorize(
                AuthorizationRound.Call(resource: resource, owner: call), profile: profile, snapshot: snapshot, &step)
        case .authorizePending(let pending):
            guard let profile = verdict.profile else {
                let failed = DelegateCall.tokenRequestFailed(
                    pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR,
                    description: StatusSentences.notAuthenticated)
                step.deliver(failed, to: pending.owner)
                return
            }
            authorize(
                AuthorizationRound.Call(resource: pending.resource, owner: pending.owner), profile: profile,
                snapshot: snapshot, &step)
        case .checkPreauthorizedResources(let resources, let cache, let call):
            guard let profile = verdict.profile else {
                step.deliver(
                    .status(StatusCatalog.status(.n000, message: StatusSentences.notAuthenticatedNothingPreauthorized)),
                    to: call)
                step.deliver(.preauthorizedResources([]), to: call)
                return
            }
            preauthorize(
                PreauthorizationRound.Call(
                    owner: call, answer: .legacy, ledger: ledger(resources, useCache: cache, step.facts)),
                profile: profile, snapshot: snapshot, &step)
        case .preauthorize(let request, let callback, let call):
            guard let profile = verdict.profile else {
                let expired = step.facts.currentProfile != nil
                step.deliver(
                    .preauthorizeResult(
                        .sdkFailure(expired ? .authenticationSessionExpired : .authenticationSessionMissing), callback),
                    to: call)
                return
            }
            // REST API V2 has no control over Adobe Pass's own cache: REMOTE_CACHE cannot be honoured.
            preauthorize(
                PreauthorizationRound.Call(
                    owner: call, answer: .preauthorizeAPI(callback),
                    ledger: ledger(request.resources, useCache: request.isEnabled(.LOCAL_CACHE), step.facts)),
                profile: profile, snapshot: snapshot, &step)
        case .getSelectedProvider(let call):
            // What the store knows of the provider: no configuration is asked.
            let provider = verdict.profile.map { profile in
                step.facts.knownProvider(profile.mvpd)?.facadeMVPD ?? MVPD(id: profile.mvpd, displayName: profile.mvpd)
            }
            step.deliver(.selectedProvider(provider), to: call)
        case .reportAuthentication(let call):
            step.deliver(
                verdict.profile != nil
                    ? .setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED)
                    : .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR),
                to: call)
        }
    }

    /// Whether the partner framework signs the user in (else the app's provider dialog).
    func partnerSignInApplies(_ facts: EngineFacts) -> Bool { settings.partnerSignInApplies(facts) }

    /// `nil` when the requestor is ready; otherwise the status a call reports.
    var requestorProblem: AdvancedStatus? { standing.problem }

    // MARK: Shared

    mutating func newTicket() -> RequestTicket {
        ticketCounter += 1
        return RequestTicket(value: ticketCounter)
    }

    /// Where requests go, as the last setRequestor left things.
    var targets: RequestTargets {
        RequestTargets(
            requestor: standing.requestorID, serviceProviders: serviceProviders,
            knownServiceProviders: knownServiceProviders,
            primaryServiceProvider: settings.primaryServiceProvider)
    }

    /// Where a request about `mvpd` goes, and what it carries (``RequestTargets/target(mvpd:partnerStatus:_:)``).
    func target(mvpd: String?, partnerStatus: PartnerFrameworkStatus? = nil, _ facts: EngineFacts) -> RESTTarget {
        targets.target(mvpd: mvpd, partnerStatus: partnerStatus, facts)
    }

    /// Records that setRequestor named these service providers (clients exist for them from now on).
    mutating func rememberServiceProviders(_ urls: [URL]) {
        serviceProviders = urls
        for url in urls { knownServiceProviders.insert(url.absoluteString) }
    }

    /// Changes the requestor's standing and publishes it.
    mutating func setStanding(_ change: (inout RequestorStanding) -> Void, _ step: inout Step) {
        change(&standing)
        step.actions.append(.publish(standing))
    }
}
