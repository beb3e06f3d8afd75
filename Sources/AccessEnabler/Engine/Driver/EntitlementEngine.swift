import Foundation

/// The driver of ``EngineStateMachine``: takes the mailbox's events one at a time, hands
/// each to the machine with the facts of the moment, and carries out the actions it
/// returns — deliver a callback, write to storage, start or cancel a child task.
///
/// ```
/// event ──► machine.handle(event, facts) ──► [EngineAction] ──► carried out, in order
///   ▲                                                              │ (I/O: a child task)
///   └────────────── the child task's answer, posted as an event ◄──┘
/// ```
///
/// Handling an event never waits: every request to Adobe Pass, every question to the
/// partner framework and every timer runs as a child task (``EngineChildren``) whose
/// result comes back through the mailbox. The engine holds no state of its own about
/// authentication; it keeps only what carrying out actions needs — the REST clients, the
/// child tasks, and what requests carry (options, the TempPass identity).
actor EntitlementEngine {
    /// The AccessEnabler's configuration, held once for the facade, the engine and the clients.
    let sharedConfiguration: Shared<AccessEnablerConfiguration>
    var configuration: AccessEnablerConfiguration { sharedConfiguration.value }
    let store: TokenStore
    let dispatcher: CallbackDispatcher
    let mailbox: EngineMailbox
    /// The partner sign-in waits here until the app has heard of the picker.
    let pickerDeliveries = PickerDeliveries()
    let softwareStatement: String
    /// Waits on the configuration's clock (poll timers).
    let sleeper: any Sleeper
    /// The random part of the wait before decisions are asked again.
    let jitter = RetryJitter.random
    /// How far the device clock is from Adobe Pass's.
    let serverClock: ServerClock
    /// Makes the REST clients, over the one decorated transport.
    let clientFactory: RESTClientFactory
    /// The REST client of the configured environment; `serviceProviders` add more, keyed by base URL.
    let primaryClient: RESTClient
    var clientsByBaseURL: [String: RESTClient] = [:]
    /// The requestor state for synchronous readers (the state machine publishes it).
    let published: PublishedRequestorState

    /// Every decision about the flows.
    var machine: EngineStateMachine
    /// The child tasks under way.
    var children = EngineChildren()
    /// The quiet window of the authorizations being gathered, while it runs.
    var quietWindow: QuietWindow?
    /// The current requestor's configuration, as the machine asked to keep it (a cached
    /// resource: the machine reads it, with its age, in the facts of each event).
    var configurationCache: CachedConfiguration?

    /// The options of the last `setOptions`, as requests carry them.
    var options = SDKOptions()
    /// The user identity the app gave with getAuthentication/getAuthorization, encoded for
    /// `AP-TempPass-Identity` (sent for TempPass MVPDs only: promotional TempPass).
    var tempPassIdentity: String?
    /// The `device_info` option decoded (once, when set) over the default device information.
    var optionDeviceInfo: Shared<DeviceInfo>?
    /// The configuration's device information, else a description of this Linux device
    /// (worked out once: it cannot change while the engine lives).
    let defaultDeviceInfo: Shared<DeviceInfo>

    init(
        softwareStatement: String, configuration sharedConfiguration: Shared<AccessEnablerConfiguration>,
        store: TokenStore, dispatcher: CallbackDispatcher,
        mailbox: EngineMailbox, published: PublishedRequestorState, tracking: TrackingFields, serverClock: ServerClock,
        configurationProblems: [String] = []
    ) {
        self.serverClock = serverClock
        self.published = published
        self.softwareStatement = softwareStatement
        self.sharedConfiguration = sharedConfiguration
        let configuration = sharedConfiguration.value
        self.store = store
        self.dispatcher = dispatcher
        self.mailbox = mailbox
        self.sleeper = configuration.effectiveSleeper
        self.defaultDeviceInfo = Shared(
            configuration.deviceInfo
                ?? DeviceInfo.linuxDefault(
                    platform: configuration.platform == .tvOS ? .tvOS : .iOS,
                    partnerSingleSignOn: configuration.partnerFramework != nil))
        let gate = ThrottleGate(
            clock: configuration.clock,
            sleeper: BackOffSleeper(inner: configuration.effectiveSleeper, activity: mailbox.activity))
        let clientFactory = RESTClientFactory(
            softwareStatement: softwareStatement, configuration: sharedConfiguration, throttleGate: gate,
            serverClock: serverClock, activity: mailbox.activity)
        self.clientFactory = clientFactory
        self.primaryClient = clientFactory.client(
            baseURL: configuration.environment.baseURL,
            credentials: StoredCredentialsCache(
                store: store, signedOut: { mailbox.post(.signedOutByNewRegistration($0)) }))
        self.clientsByBaseURL[configuration.environment.baseURL.absoluteString] = primaryClient
        machine = EngineStateMachine(
            settings: EngineSettings(
                platform: configuration.platform, loginScreen: Self.loginScreen(configuration),
                providerOnSecondScreen: configuration.loginScreen == .secondScreen
                    && configuration.providerChoice == .onSecondScreen,
                pollInterval: configuration.secondScreenPollInterval, logoutPageTimeout: configuration.requestTimeout,
                redirectURL: configuration.redirectURL, primaryServiceProvider: configuration.environment.baseURL,
                transportSecurity: TransportSecurityPolicy(allowsInsecureHTTP: configuration.allowsInsecureHTTP),
                partnerConfigured: configuration.partnerFramework != nil, configurationProblems: configurationProblems,
                resourceLimit: configuration.preauthorizationBatchSize,
                deviceIdentity: store.deviceIdentity, tracking: tracking))
    }

    /// Where the MVPD login happens for `configuration`.
    private static func loginScreen(_ configuration: AccessEnablerConfiguration)
        -> AuthenticationStateMachine.LoginScreen
    {
        switch configuration.loginScreen {
        case .thisDevice: .thisDevice
        case .secondScreen: .secondScreen(pollInterval: configuration.secondScreenPollInterval)
        }
    }

    // MARK: - The loop

    /// Takes the mailbox's events one at a time, on the engine's own executor, until the
    /// mailbox is closed and drained. When no event is left waiting, the machine hears so
    /// (``EngineEvent/mailboxDrained``): a burst of authorization calls goes out together,
    /// once no event has come for the round's quiet window (``QuietWindow``).
    ///
    /// An event counts as handled once its callbacks have reached the delegate: the last
    /// block it queues on the callback queue says so (``ActivityTracker/eventHandled()``),
    /// so whoever waits for quiescence finds the callbacks delivered without a trip of its
    /// own through the callback queue.
    ///
    /// What an event stores waits in memory for a commit point: a sign-in or a logout is
    /// renamed into place before the event's callbacks (see ``handle(_:)``); anything else
    /// (a registration, a token, a media token) goes to disk once the engine has no request
    /// under way — after the last event of a flow, which then costs one write, not one per
    /// event — handed to the storage thread by that same last block. The data sync is
    /// always the storage thread's.
    ///
    /// Once the app released the AccessEnabler and the mailbox is drained, the machine ends
    /// every call still waiting (``EngineEvent/released``) and the child tasks are
    /// cancelled: their answers would never be read.
    func run() async {
        while let event = await mailbox.next() {
            handle(event)
            if !mailbox.hasWaitingEvents { handle(.mailboxDrained) }
            mailbox.finishedEvent()
            let (store, activity, pickerDeliveries) = (store, mailbox.activity, pickerDeliveries)
            let commit = store.hasPendingWrites && !children.hasWorkUnderWay
            let pickerEvent = PickerDeliveries.Key(event)
            dispatcher.dispatch(
                [],
                then: {
                    if commit { store.commitPendingWrites() }
                    if let pickerEvent { pickerDeliveries.delivered(pickerEvent) }
                    activity.eventHandled()
                })
        }
        children.cancelAll(activity: mailbox.activity)
        handle(.released)
        // The release counted as an event under way (the facade's deinit): it ends once
        // its callbacks are delivered, and what it stored goes to disk after them.
        let (store, activity) = (store, mailbox.activity)
        dispatcher.dispatch(
            [],
            then: {
                store.commitPendingWrites()
                activity.eventHandled()
            })
    }

    /// Hands one event to the machine and carries out what it decided.
    ///
    /// Its storage actions go first, and a sign-in or a logout among them is renamed into
    /// place before anything else is carried out: once its callback is delivered, another
    /// process's next call reads it and a `kill -9` cannot lose it. (A storage action only
    /// changes the store, which no other action of the same event reads, so the order of the
    /// rest is the machine's.)
    func handle(_ event: EngineEvent) {
        // Each call reads what other AccessEnablers over the same storage wrote since.
        if case .command = event { store.refreshIfChanged() }
        if case .quietWindowElapsed = event {
            // A window stopped just as it elapsed can still post: it must not close the
            // window that runs now (still waiting, so the event cannot be its own).
            guard quietWindow?.hasElapsed ?? true else { return }
            quietWindow = nil
        }
        children.answered(event)
        let requestor = event.requestorNamed ?? published.snapshot.requestorID
        let actions = machine.handle(event, facts: facts(requestor: requestor))
        for action in actions where action.writesStorage { carryOut(action) }
        store.writeUrgentChanges()
        for action in actions where !action.writesStorage { carryOut(action) }
    }

    /// What the machine reads of the world now: the clocks and `requestor`'s storage (the
    /// current requestor's, or the one a setRequestor names: it decides from what is stored
    /// for it).
    private func facts(requestor: String?) -> EngineFacts {
        let now = configuration.clock.now
        var facts = EngineFacts(
            now: now, adobeNow: serverClock.adobeNow(deviceNow: now, monotonic: configuration.clock.monotonicSeconds),
            unreportedClockOffset: serverClock.unreportedOffset,
            configuration: configurationCache)
        facts.uncorrectedClockOffset = serverClock.uncorrectedOffset
        facts.pendingLogouts = store.pendingLogouts()
        if let requestor {
            facts.profiles = store.profiles(requestor: requestor)
            facts.storedConfiguration = store.configuration(requestor: requestor)
            facts.mediaTokens = store.authorizations(requestor: requestor)
            facts.preauthorizations = store.preauthorizations(requestor: requestor)
        }
        return facts
    }

    /// Carries out one action; I/O starts a child task and returns at once.
    private func carryOut(_ action: EngineAction) {
        switch action {
        case .deliver(let callback, let call, let others):
            dispatcher.dispatch(callback, for: call, alsoEnding: others)
        case .publish(let standing):
            published.publish(standing)
        case .holdTurn(let held):
            mailbox.holdTurn(held)
        case .applyOptions(let options):
            self.options = options
            optionDeviceInfo = options.deviceInfo.flatMap { Self.deviceInfo($0, over: defaultDeviceInfo.value) }.map(
                Shared.init)
        case .rememberTempPassIdentity(let value):
            tempPassIdentity = value
        case .storeProfiles(let change, let requestor):
            store.apply(change, requestor: requestor)
        case .removeProfiles(let requestor):
            store.removeProfile(requestor: requestor)
        case .storeMediaToken(let authorization):
            store.setAuthorization(authorization)
        case .storePreauthorizations(let answers, let requestor):
            store.setPreauthorizations(requestor: requestor, answers)
        case .clockDifferenceReported:
            serverClock.markReported()
        case .cacheConfiguration(let cached):
            configurationCache = cached
        case .storeConfiguration(let stored, let requestor):
            store.setConfiguration(stored, requestor: requestor)
        case .loadRequestor(let ticket, let requestor, let serviceProviders, let pendingLogouts, let partnerStatus):
            let clients = serviceProviders.map(client(atBaseURL:))
            let context = context().with(partnerStatus: partnerStatus)
            let logouts = pendingLogouts.map { target in
                let pending = PendingLogout(
                    mvpd: target.mvpd ?? "", serviceProviderURL: target.serviceProvider?.absoluteString)
                return (pending, logoutRequest(for: target))
            }
            let redirectURL = configuration.redirectURL
            startSignedRequest(ticket, to: clients, context: context) {
                let load = await ProfileRequests.load(
                    requestor: requestor, clients: clients, context: context, pendingLogouts: logouts,
                    redirectURL: redirectURL)
                return .requestorLoaded(ticket, load)
            }
        case .fetchConfiguration(let ticket, let requestor, let serviceProviders):
            let clients = serviceProviders.map(client(atBaseURL:))
            let context = context()
            startSignedRequest(ticket, to: clients, context: context) {
                .configurationFetched(
                    ticket, await Self.loadCatalog(requestor: requestor, from: clients, context: context))
            }
        case .fetchConfigurationForFlow(let flow, let requestor, let serviceProviders):
            let clients = serviceProviders.map(client(atBaseURL:))
            let context = context()
            startChild(.configuration(flow)) {
                .flowConfigurationFetched(
                    flow, await Self.loadCatalog(requestor: requestor, from: clients, context: context))
            }
        case .cancelConfigurationFetch(let flow):
            children.cancel(.configuration(flow), activity: mailbox.activity)
        case .askPartner(let ticket, let catalog):
            guard let signIn = partnerSignIn(catalog) else { return mailbox.post(.partnerAnswered(ticket, .timedOut)) }
            startRequest(ticket) { .partnerAnswered(ticket, await signIn.snapshot()) }
        case .signInSilently(let ticket, let mvpd, let partnerStatus, let catalog):
            guard let signIn = partnerSignIn(catalog) else { return mailbox.post(.silentSignInFinished(ticket, nil)) }
            startRequest(ticket) {
                guard
                    case .authenticated(let profile, _) = await signIn.exchange(
                        mvpd: mvpd, partnerStatus: partnerStatus, interactive: false)
                else {
                    return .silentSignInFinished(ticket, nil)
                }
                return .silentSignInFinished(ticket, profile)
            }
        case .startPartnerSignIn(let flow, let filter, let catalog):
            startPartnerSignIn(flow, filter: filter, catalog: catalog)
        case .cancelPartnerSignIn(let flow):
            children.cancel(.partnerSignIn(flow), activity: mailbox.activity)
        case .createSession(let flow, let target):
            let (client, context) = (client(for: target), context(for: target))
            let (domainName, redirectURL) = (configuration.domainName, configuration.redirectURL)
            let logoutFirst = target.logsOutFirst ? [logoutRequest(for: target)] : []
            startChild(.session(flow)) {
                _ = await ProfileRequests.logOut(logoutFirst, redirectURL: redirectURL)
                return .sessionAnswered(
                    flow,
                    await Self.result { () async throws(RESTClientError) in
                        try await client.createSession(
                            serviceProvider: target.requestor, mvpd: target.mvpd, domainName: domainName,
                            redirectURL: redirectURL, context: context)
                    })
            }
        case .fetchSessionProfile(let flow, let target):
            let (client, context) = (client(for: target), context(for: target))
            startChild(.session(flow)) {
                .sessionProfileAnswered(
                    flow,
                    await Self.result { () async throws(RESTClientError) in
                        try await client.profile(
                            serviceProvider: target.requestor, mvpd: target.mvpd ?? "", context: context)
                    })
            }
        case .cancelSession(let flow):
            children.cancel(.session(flow), activity: mailbox.activity)
        case .setPollTimer(let flow, let deadline):
            setPollTimer(flow, until: deadline)
        case .fetchProfileForCode(let flow, let code, let target):
            let (client, context) = (client(for: target), context(for: target))
            startChild(.pollFetch(flow)) {
                .pollAnswered(
                    flow,
                    await Self.result { () async throws(RESTClientError) in
                        try await client.profile(serviceProvider: target.requestor, code: code, context: context)
                    })
            }
        case .stopPolling(let flow):
            children.cancel(.pollTimer(flow), activity: mailbox.activity)
            children.cancel(.pollFetch(flow), activity: mailbox.activity)
        case .requestDecisions(let ticket, let kind, let resources, let target, let notBefore):
            let (client, context) = (client(for: target), context(for: target))
            let backOff = BackOffSleeper(inner: sleeper, activity: mailbox.activity)
            // Decisions asked again wait the schedule's time, jittered.
            let now = configuration.clock.now
            let until = notBefore.map { now.addingTimeInterval(jitter.applied(to: $0.timeIntervalSince(now))) }
            startRequest(ticket) {
                if let until { try? await backOff.sleep(until: until) }
                return .decisionsAnswered(
                    ticket,
                    await Self.result { () async throws(RESTClientError) in
                        switch kind {
                        case .authorize:
                            try await client.authorize(
                                serviceProvider: target.requestor, mvpd: target.mvpd ?? "", resources: resources,
                                context: context)
                        case .preauthorize:
                            try await client.preauthorize(
                                serviceProvider: target.requestor, mvpd: target.mvpd ?? "", resources: resources,
                                context: context)
                        }
                    })
            }
        case .logOut(let ticket, let targets):
            let logouts = targets.map(logoutRequest(for:))
            let redirectURL = configuration.redirectURL
            startRequest(ticket) {
                let answers = await ProfileRequests.logOut(logouts, redirectURL: redirectURL)
                return .logoutAnswered(ticket, LogoutAnswers(byMVPD: answers))
            }
        case .setLogoutPageTimer(let ticket, let deadline):
            setTimer(.logoutPageTimer(ticket), until: deadline, posting: .logoutPageTimedOut(ticket))
        case .cancelLogoutPageTimer(let ticket):
            children.cancel(.logoutPageTimer(ticket), activity: mailbox.activity)
        case .awaitQuietWindow:
            if let quietWindow {
                quietWindow.restart()
            } else {
                let window = QuietWindow(length: AuthorizationRound.quietWindow)
                quietWindow = window
                startChild(.quietWindow) {
                    await window.elapse()
                    return .quietWindowElapsed
                }
            }
        case .endQuietWindow:
            quietWindow = nil
            children.cancel(.quietWindow, activity: mailbox.activity)
        }
    }

    /// The `GET logout/{mvpd}` of `target`, with its client and request context.
    private func logoutRequest(for target: RESTTarget) -> ProfileRequests.Logout {
        ProfileRequests.Logout(
            mvpd: target.mvpd ?? "", requestor: target.requestor, client: client(for: target),
            context: context(for: target))
    }

    /// A REST call's outcome as a value.
    private static func result<T: Sendable>(_ body: () async throws(RESTClientError) -> T) async -> Result<
        T, RESTClientError
    > {
        do throws(RESTClientError) { return .success(try await body()) } catch { return .failure(error) }
    }
}

extension EngineAction {
    /// Whether the action only writes to storage.
    fileprivate var writesStorage: Bool {
        switch self {
        case .storeProfiles, .removeProfiles, .storeMediaToken, .storePreauthorizations: true
        default: false
        }
    }
}
