import Foundation

/// Handles the mailbox's events one at a time, in arrival order, and holds everything the
/// flows remember between calls: the requestor's catalog, the authentication state machine,
/// the options and the child tasks that wait for a person or for time.
///
/// The engine is the driver of ``AuthenticationStateMachine``: it feeds it events and
/// carries out the actions it returns (``perform(_:)``). Each flow lives in its own
/// extension file; they talk to the network only through ``RESTClient``, to the device only
/// through ``PartnerFramework``, and to the app only through ``emit(_:)``.
actor EntitlementEngine {
    /// The state of `setRequestor`.
    enum RequestorState: Sendable, Equatable {
        case notSet
        case ready
        case failed(AdvancedStatus)
    }

    let configuration: AccessEnablerConfiguration
    let store: TokenStore
    let dispatcher: CallbackDispatcher
    let mailbox: EngineMailbox
    let softwareStatement: String
    /// Waits on the configuration's clock (poll timers, back-offs).
    let sleeper: any Sleeper
    /// Adobe's throttling, as seen by this AccessEnabler: shared by every REST client.
    let throttleGate: ThrottleGate
    /// How far the device clock is from Adobe Pass's.
    let serverClock: ServerClock
    /// The REST client of the configured environment; `serviceProviders` add more, keyed by base URL.
    let primaryClient: RESTClient
    var clientsByBaseURL: [String: RESTClient] = [:]

    var options = SDKOptions()
    /// The user identity the app gave with getAuthentication/getAuthorization, encoded for
    /// `AP-TempPass-Identity` (sent for TempPass MVPDs only: promotional TempPass).
    var tempPassIdentity: String?
    /// The `device_info` option decoded (once, when set) over the default device information.
    var optionDeviceInfo: DeviceInfo?
    var requestorID: String? { didSet { publishRequestorState() } }
    var requestorState: RequestorState = .notSet { didSet { publishRequestorState() } }
    /// What the last successful setRequestor learned about the requestor.
    var catalog: RequestorCatalog? { didSet { publishRequestorState() } }
    /// The requestor state for synchronous readers.
    let published: PublishedRequestorState
    /// Tracking event fields (the user id hash is kept per user id).
    let tracking: TrackingFields
    /// The service providers the last setRequestor asked (for a configuration refetch).
    var requestorClients: [RESTClient] = []
    /// Interactive authentication and the logout round trip.
    var machine = AuthenticationStateMachine()
    /// The child tasks of the current flow.
    var children = FlowChildren()
    /// The call whose event is being handled: the callbacks emitted now belong to it.
    var currentCall: CallID?
    /// The call each flow in progress belongs to (the last call that carried it on).
    var flowOwners: [FlowID: CallID] = [:]

    init(
        softwareStatement: String, configuration: AccessEnablerConfiguration, store: TokenStore, dispatcher: CallbackDispatcher,
        mailbox: EngineMailbox, published: PublishedRequestorState, tracking: TrackingFields, serverClock: ServerClock
    ) {
        self.serverClock = serverClock
        self.published = published
        self.tracking = tracking
        self.softwareStatement = softwareStatement
        self.configuration = configuration
        self.store = store
        self.dispatcher = dispatcher
        self.mailbox = mailbox
        self.sleeper = configuration.effectiveSleeper
        self.defaultDeviceInfo = configuration.deviceInfo ?? DeviceInfo.linuxDefault(
            platform: configuration.platform == .tvOS ? .tvOS : .iOS, partnerSingleSignOn: configuration.partnerFramework != nil)
        let gate = ThrottleGate(clock: configuration.clock, sleeper: BackOffSleeper(inner: configuration.effectiveSleeper, activity: mailbox.activity))
        self.throttleGate = gate
        self.primaryClient = EntitlementEngine.makeClient(
            baseURL: configuration.environment.baseURL, softwareStatement: softwareStatement, configuration: configuration,
            credentials: StoredCredentialsCache(store: store), throttleGate: gate, serverClock: serverClock)
        self.clientsByBaseURL[configuration.environment.baseURL.absoluteString] = primaryClient
    }

    static func makeClient(
        baseURL: URL, softwareStatement: String, configuration: AccessEnablerConfiguration, credentials: any ClientCredentialsCache,
        throttleGate: ThrottleGate, serverClock: ServerClock
    ) -> RESTClient {
        let bounded = ResponseSizeLimit(inner: configuration.transport, limit: max(1, configuration.maximumResponseBodySize))
        let reported: any HTTPTransport = configuration.diagnostics.map { DiagnosticTransport(inner: bounded, report: $0) } ?? bounded
        let transport = ServerDateTransport(inner: reported, clock: configuration.clock, serverClock: serverClock)
        return RESTClient(
            baseURL: baseURL, softwareStatement: softwareStatement, transport: transport,
            timeout: configuration.requestTimeout, credentials: credentials, timeSource: configuration.clock,
            userAgent: configuration.userAgent, throttleGate: throttleGate)
    }

    /// The device clock: what poll timers and back-offs are set on.
    var now: Date { configuration.clock.now }
    /// Adobe Pass's time as this device can tell it: the device clock corrected by the
    /// measured difference when it is significant. Adobe's timestamps (profiles, media
    /// tokens, cached decisions) are judged with it.
    var adobeNow: Date { configuration.clock.now.addingTimeInterval(serverClock.correction) }

    private func publishRequestorState() {
        published.publish(PublishedRequestorState.Snapshot(requestorID: requestorID, state: requestorState, catalog: catalog))
    }

    // MARK: - Events

    /// Takes the mailbox's events one at a time, on the engine's own executor, until the
    /// mailbox is closed and drained.
    ///
    /// An event counts as handled once its callbacks have reached the delegate: the last
    /// block it queues on the callback queue says so (``ActivityTracker/eventHandled()``),
    /// so whoever waits for quiescence finds the callbacks delivered without a trip of its
    /// own through the callback queue.
    ///
    /// What an event stores is written after its callbacks: the store holds the changes
    /// while the event is handled, and that same last block hands them to disk as one batch
    /// (a sign-in is complete for the app before its profile costs an `fsync`).
    func run() async {
        while let event = await mailbox.next() {
            store.holdWrites()
            await handle(event)
            mailbox.finishedEvent()
            store.releaseWrites()
            let (store, activity) = (store, mailbox.activity)
            let commit = store.hasPendingWrites
            dispatcher.dispatch([], then: {
                if commit { store.commitPendingWrites() }
                activity.eventHandled()
            })
        }
    }

    /// Handles one mailbox event to its end (or to the point where it waits for the
    /// application, a person or the clock).
    func handle(_ event: EngineEvent) async {
        switch event {
        case .command(let command, let call):
            currentCall = call
            // Each call reads what other AccessEnablers over the same storage wrote since.
            store.refreshIfChanged()
            await run(command)
        case .pickerPresented(let flow, let dialog):
            currentCall = flowOwners[flow]
            await perform(machine.pickerPresented(flow, dialog))
        case .pickerDismissed(let flow, let dialog):
            currentCall = flowOwners[flow]
            await perform(machine.pickerDismissed(flow, dialog))
        case .partnerSignInFinished(let flow, let outcome):
            currentCall = flowOwners[flow]
            children.partnerSignInEnded(flow)
            await perform(machine.partnerSignInFinished(flow, outcome))
        case .pollDue(let flow):
            currentCall = flowOwners[flow]
            children.pollTimerFired(flow)
            await perform(machine.pollTimerFired(flow, now: now))
        case .pollAnswered(let flow, let session, let result):
            currentCall = flowOwners[flow]
            children.pollFetchEnded(flow)
            await pollAnswered(flow, session: session, result)
        }
        // Only the flow in progress keeps an owner.
        if flowOwners.count > 1 || (flowOwners.first.map { $0.key != machine.currentFlow } ?? false) {
            flowOwners = machine.currentFlow.flatMap { flow in flowOwners[flow].map { [flow: $0] } } ?? [:]
        }
        currentCall = nil
    }

    /// Runs one facade call.
    private func run(_ command: Command) async {
        switch command {
        case .setOptions(let options):
            self.options = options
            optionDeviceInfo = options.deviceInfo.flatMap { Self.deviceInfo($0, over: defaultDeviceInfo) }
        case .setRequestor(let id, let serviceProviders): await setRequestor(id, serviceProviders: serviceProviders)
        case .checkAuthentication: await checkAuthentication()
        case .getAuthentication(let force, let data, let filter):
            rememberTempPassIdentity(data)
            await getAuthentication(forceAuthn: force, data: data, filter: filter)
        case .setSelectedProvider(let id): await setSelectedProvider(id)
        case .handleExternalURL(let url): await handleExternalURL(url)
        case .checkAuthorization(let resource, let data):
            rememberTempPassIdentity(data)
            await checkAuthorization(resource, data: data)
        case .getAuthorization(let resource, let data):
            rememberTempPassIdentity(data)
            await getAuthorization(resource, data: data)
        case .checkPreauthorizedResources(let resources, let cache): await checkPreauthorizedResources(resources, cache: cache)
        case .logout: await logout()
        case .getSelectedProvider: await getSelectedProvider()
        case .getMetadata(let query, let arguments): await getMetadata(query, arguments: arguments)
        case .preauthorize(let request, let callback): await preauthorize(request, callback: callback)
        }
    }

    /// Hands a callback to the dispatcher, which delivers it on the callback queue in order,
    /// as a callback of the call being handled.
    func emit(_ call: DelegateCall) { dispatcher.dispatch(call, for: currentCall) }

    /// Runs `body` with its callbacks belonging to `call` (a waiting authorization's own call).
    func on<T>(behalfOf call: CallID?, _ body: () async -> T) async -> T {
        let previous = currentCall
        if let call { currentCall = call }
        defer { currentCall = previous }
        return await body()
    }

    func emitStatus(_ status: AdvancedStatus) { emit(.status(status)) }

    // MARK: - Shared helpers

    /// The REST client that serves `mvpd`: the service provider the user's profile with it
    /// came from (even when another one answered the configuration first this launch), else
    /// the one the configuration placed it at, else the primary one.
    func client(for mvpd: String?) -> RESTClient {
        guard let mvpd else { return primaryClient }
        if let requestorID, let profile = store.profile(requestor: requestorID), profile.mvpd == mvpd,
           let url = profile.serviceProviderURL, let client = clientsByBaseURL[url] {
            return client
        }
        return catalog?.clientForMVPD[mvpd] ?? primaryClient
    }

    /// The request context every REST call carries: device identity, device information,
    /// options, and the partner status when one was validated.
    func context(partnerStatus: PartnerFrameworkStatus? = nil, mvpd: String? = nil) -> RequestContext {
        var context = RequestContext(
            deviceIdentifier: store.deviceIdentifier, deviceInfo: deviceInfo, visitorID: options.visitorID,
            userAgent: configuration.userAgent, partnerStatus: partnerStatus, applicationProfile: options.applicationProfile)
        if let mvpd, mvpdsByID[mvpd]?.isTempPass == true { context.tempPassIdentity = tempPassIdentity }
        return context
    }

    /// Keeps the identity a call's data gives (promotional TempPass); calls without data
    /// keep the one given before.
    func rememberTempPassIdentity(_ data: [String: String]?) {
        if let data, let value = TempPassIdentity.headerValue(data) { tempPassIdentity = value }
    }

    /// The device information: the `device_info` option when it decodes, else the
    /// configuration's, else a description of this Linux device.
    var deviceInfo: DeviceInfo { optionDeviceInfo ?? defaultDeviceInfo }

    /// The configuration's device information, else a description of this Linux device
    /// (worked out once: it cannot change while the engine lives).
    let defaultDeviceInfo: DeviceInfo

    /// The legacy `device_info` option (Base64 JSON) laid over `fallback`: the keys it gives
    /// win, the others keep the fallback's values. The legacy SDK requires only `model` and
    /// `osName` there, while REST API V2 also needs `version`, `osVersion` and
    /// `connectionType`; `nil` when the option is not Base64 JSON of the right types.
    static func deviceInfo(_ option: String, over fallback: DeviceInfo) -> DeviceInfo? {
        guard let data = Data(base64Encoded: option.trimmingCharacters(in: .whitespacesAndNewlines)),
              let given = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let base = (try? JSONEncoder().encode(fallback)).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
              let merged = try? JSONSerialization.data(withJSONObject: base.merging(given) { $1 })
        else { return nil }
        return try? JSONDecoder().decode(DeviceInfo.self, from: merged)
    }

    /// `nil` when the requestor is ready; otherwise the status to report, having waited
    /// (commands run in order, so a pending setRequestor has already finished).
    func requestorProblem() -> AdvancedStatus? {
        switch requestorState {
        case .ready: return nil
        case .failed(let status): return status
        case .notSet:
            return StatusCatalog.status(.cfg400, message: "No requestor is set: call setRequestor(_:) and wait for setRequestorComplete(1) first.")
        }
    }

    /// The requestor's MVPDs in configuration order (empty before a successful setRequestor).
    var mvpds: [MVPD] { catalog?.mvpds ?? [] }
    var mvpdsByID: [String: MVPD] { catalog?.mvpdsByID ?? [:] }
    var knownMappingIDs: Set<String> { catalog?.knownMappingIDs ?? [] }

    /// The partner framework, when one is configured and the requestor has at least one
    /// MVPD with platform services.
    var ssoPartner: (any PartnerFramework)? {
        guard let partner = configuration.partnerFramework, catalog?.hasPlatformServices == true else { return nil }
        return partner
    }

    /// The partner side of authentication for the current requestor, when partner single
    /// sign-on applies.
    func partnerSignIn() -> PartnerSignIn? {
        guard let partner = ssoPartner, let catalog else { return nil }
        return PartnerSignIn(
            partner: partner, catalog: catalog, primaryClient: primaryClient, context: context(),
            domainName: configuration.domainName, redirectURL: configuration.redirectURL,
            interactionTimeout: configuration.partnerInteractionTimeout, silentTimeout: configuration.requestTimeout,
            clock: configuration.clock)
    }

    /// Where the MVPD login happens for this configuration.
    var loginScreen: AuthenticationStateMachine.LoginScreen {
        switch configuration.loginScreen {
        case .thisDevice: .thisDevice
        case .secondScreen: .secondScreen(pollInterval: configuration.secondScreenPollInterval)
        }
    }
}
