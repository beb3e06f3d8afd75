import Foundation
import Synchronization

/// The AccessEnabler facade: the legacy iOS/tvOS SDK's entry point, running on Adobe Pass
/// REST API V2.
///
/// Every method returns at once. The work runs on an internal serial executor, one call
/// after another in the order they were made; results arrive through ``delegate`` and
/// ``statusDelegate`` on the configuration's callback queue. Every call ends in exactly one
/// terminal callback, whatever the network does (<doc:PortingALegacyIntegration#What-stays-the-same>
/// has the table).
///
/// ```swift
/// let accessEnabler = AccessEnabler(softwareStatement: statement)
/// accessEnabler.delegate = self
/// accessEnabler.setRequestor("REF30")
/// accessEnabler.checkAuthentication()
/// ```
public final class AccessEnabler: Sendable {
    private let engine: EntitlementEngine
    private let store: TokenStore
    private let dispatcher: CallbackDispatcher
    private let mailbox: EngineMailbox
    /// Storage problems found before the app could set its delegate wait here for its first call.
    private let storageProblems: StorageProblemRelay
    /// Routes callbacks to the async calls waiting for them.
    let replies = ReplyRouter()
    /// Streams callbacks to ``events`` subscribers.
    let eventHub = EventHub()
    /// Follows every call to its terminal callback, for test rigs.
    let monitor = CallMonitor()
    /// The engine's requestor state, for the synchronous checkAuthentication.
    private let published = PublishedRequestorState()
    /// Tracking event fields, shared with the engine.
    private let tracking: TrackingFields
    /// How far the device clock is from Adobe Pass's, shared with the engine.
    private let serverClock: ServerClock
    /// The configuration's clock, kept apart so a synchronous check reads it directly.
    private let clock: any TimeSource
    /// What every checkAuthentication that asks the partner framework shares; `nil` without one.
    private let partnerCheck: PartnerAuthenticationCheck.Context?
    /// State of the async API: the call whose second-screen sign-in ``secondScreenSignIn()`` waits for.
    let asyncState = Mutex(AsyncState())

    struct AsyncState: Sendable {
        var secondScreenCall: CallID?
    }
    /// The options given so far: each `setOptions` changes the keys it names.
    private let options = Mutex(SDKOptions())
    /// Reports set-up the app likely did not mean (unused options, a default platform).
    let setupAdvice: SetupAdvice

    /// The receiver of entitlement callbacks. Held weakly.
    public weak var delegate: EntitlementDelegate? {
        get { dispatcher.currentDelegate }
        set { dispatcher.setDelegate(newValue) }
    }

    /// The receiver of advanced statuses (N003, VSA403, Z100, …). Held weakly.
    public weak var statusDelegate: EntitlementStatus? {
        get { dispatcher.currentStatusDelegate }
        set { dispatcher.setStatusDelegate(newValue) }
    }

    /// The configuration this instance runs with: the one it was given, with every number
    /// held inside its range. A configuration with a number outside (a timeout that is not
    /// a number of seconds, a poll interval of an hour) is refused by `setRequestor`: status
    /// CFG400 naming the field, then `setRequestorComplete(0)`.
    public var configuration: AccessEnablerConfiguration { sharedConfiguration.value }
    /// The configuration, held once for the facade, the engine and the REST clients.
    private let sharedConfiguration: Shared<AccessEnablerConfiguration>

    /// Creates an AccessEnabler for production, iOS flavour.
    ///
    /// - Parameter softwareStatement: the software statement issued for the application in
    ///   the Adobe Pass dashboard; it is used for Dynamic Client Registration.
    public convenience init(softwareStatement: String) {
        self.init(
            storageCheck: .INTEGRITY_CHECK_NONE, softwareStatement: softwareStatement,
            configuration: AccessEnablerConfiguration())
    }

    /// Creates an AccessEnabler with a configuration.
    public convenience init(softwareStatement: String, configuration: AccessEnablerConfiguration) {
        self.init(
            storageCheck: .INTEGRITY_CHECK_NONE, softwareStatement: softwareStatement, configuration: configuration)
    }

    /// Creates an AccessEnabler whose storage is checked as `storageCheck` says.
    public init(
        storageCheck: IntegrityCheckType, softwareStatement: String, configuration given: AccessEnablerConfiguration
    ) {
        // Numbers out of range never reach the SDK's parts; setRequestor refuses them.
        let configurationProblems = ConfigurationRanges.problems(in: given)
        let configuration = ConfigurationRanges.bounded(given)
        let sharedConfiguration = Shared(configuration)
        self.sharedConfiguration = sharedConfiguration
        setupAdvice = SetupAdvice(configuration: configuration)
        let dispatcher = CallbackDispatcher(queue: configuration.callbackQueue, diagnostics: configuration.diagnostics)
        tracking = TrackingFields(platform: configuration.platform)
        let clock = configuration.clock
        self.clock = clock
        let serverClock = ServerClock()
        self.serverClock = serverClock
        let problems = StorageProblemRelay()
        let store = TokenStore(
            directory: configuration.storageDirectory, softwareStatement: softwareStatement,
            integrityCheck: storageCheck,
            writeBehind: true, configuredDeviceIdentifier: configuration.deviceIdentifier,
            onProblem: { problems.report($0) }, onDiscard: { problems.report($0) }, onNotice: { problems.note($0) },
            now: { serverClock.adobeNow(clock) })
        let mailbox = EngineMailbox(activity: ActivityTracker())
        let engine = EntitlementEngine(
            softwareStatement: softwareStatement, configuration: sharedConfiguration, store: store,
            dispatcher: dispatcher, mailbox: mailbox, published: published, tracking: tracking,
            serverClock: serverClock,
            configurationProblems: configurationProblems)
        self.dispatcher = dispatcher
        self.engine = engine
        if let partner = configuration.partnerFramework {
            partnerCheck = PartnerAuthenticationCheck.Context(
                partner: partner, clock: clock, serverClock: serverClock, timeout: configuration.requestTimeout,
                tracking: tracking,
                dispatcher: dispatcher, mailbox: mailbox)
        } else {
            partnerCheck = nil
        }
        self.store = store
        self.mailbox = mailbox
        storageProblems = problems
        problems.connect(dispatcher, diagnostics: configuration.diagnostics)
        dispatcher.setObserver(FacadeListeners(replies: replies, eventHub: eventHub, monitor: monitor))
        Task { await engine.run() }
    }

    deinit {
        // The engine ends the calls still waiting once the mailbox is drained; that counts
        // as work under way until their callbacks are delivered (a rig's ReleaseWatch waits).
        mailbox.activity.eventPosted()
        mailbox.close()
        eventHub.finish()
        // What was stored so far goes to disk without holding this thread, which may be one
        // of Swift's few cooperative threads (blocking them all stalls every task of the
        // process): a store opened later over the same directory waits for these writes,
        // and so does the process's normal exit.
        store.commitPendingWrites()
    }

    /// Queues `command` as the call `call` (an async call waits for its reply under that
    /// id), or as a new call: every call carries an id, and its callbacks carry it too.
    func submit(_ command: Command, call: CallID? = nil) {
        storageProblems.appMadeACall()
        // A call of the delegate API (the async API passes its own id) needs a delegate.
        if call == nil { checkDelegates(for: command) }
        let call = call ?? replies.newCall()
        monitor.callMade(call, command)
        mailbox.post(.command(command, call: call))
    }

    // MARK: Setup

    /// Sets global options, passed to Adobe Pass with every later request:
    /// `applicationProfile`, `visitorID` (AP-Visitor-Identifier; `ap_vi`, the Android SDK's
    /// spelling, is read too, and `visitorID` wins when both are given), `handleSVC` (Bool:
    /// use `navigateToUrl(_:useSVC:)` for MVPDs needing a Safari View Controller) and
    /// `device_info` (base64 JSON client information, sent as X-Device-Info). Any other key
    /// has no effect and is reported through the configuration's `diagnostics`
    /// (``Diagnostic/unusedOption(key:message:)``).
    public func setOptions(_ options: [String: Any]) {
        setupAdvice.optionsGiven(options)
        let merged = self.options.withLock { current in
            current = SDKOptions(dictionary: options, previous: current)
            return current
        }
        submit(.setOptions(merged))
    }

    /// Sets the requestor (the programmer's channel id) and loads its configuration.
    /// Ends in `setRequestorComplete`.
    public func setRequestor(_ requestorID: String) {
        setupAdvice.requestorSet()
        submit(.setRequestor(requestorID, serviceProviders: nil))
    }

    /// Sets the requestor, loading its configuration from each of `serviceProviders`
    /// concurrently; each MVPD is served afterwards by the URL it first came from.
    public func setRequestor(_ requestorID: String, serviceProviders: [String]) {
        setupAdvice.requestorSet()
        submit(.setRequestor(requestorID, serviceProviders: serviceProviders))
    }

    // MARK: Authentication

    /// Reports whether the user is authenticated, from local storage only (no network call).
    /// Ends in `setAuthenticationStatus`.
    public func checkAuthentication() {
        // With the engine idle, the answer needs no trip through it: the facade takes the
        // engine's turn (calls made meanwhile wait, so order holds) and answers as the
        // engine would, with the same pure function.
        storageProblems.appMadeACall()
        guard mailbox.claimIfIdle() else { return submit(.checkAuthentication) }
        checkDelegates(for: .checkAuthentication)
        let call = replies.newCall()
        monitor.callMade(call, .checkAuthentication)
        // What another AccessEnabler over the same storage wrote since (one `stat` when
        // nothing changed).
        store.refreshIfChanged()
        switch quickAuthenticationCheck(call) {
        case .answered(let callbacks):
            mailbox.releaseClaim { delivered in dispatcher.dispatch(callbacks, for: call, then: delivered) }
        case .askPartner(let check):
            check.start()
        }
    }

    /// How checkAuthentication is answered outside the engine.
    private enum QuickAuthenticationCheck {
        /// At once: no requestor, or an answer that needs no partner framework (a valid
        /// regular profile, or no partner single sign-on).
        case answered([DelegateCall])
        /// After the partner framework's silent answers.
        case askPartner(PartnerAuthenticationCheck)
    }

    private func quickAuthenticationCheck(_ call: CallID) -> QuickAuthenticationCheck {
        let picture = published.picture
        if let problem = picture.problem {
            return .answered(AuthenticationCheck.callbacks(requestorProblem: problem))
        }
        let now = serverClock.adobeNow(clock)
        let stored = picture.standing.requestorID.flatMap { requestor in
            ProfileSelection.current(
                chosen: store.profile(requestor: requestor), all: { store.profiles(requestor: requestor) }, now: now)
        }
        // The two facts of the catalog the answer reads, rather than a copy of it.
        // With no configuration (a warm launch asks for none), `nil`: partner single
        // sign-on then applies only to a profile it made.
        let platformServices = picture.standing.catalog?.hasPlatformServices
        let mvpds = picture.standing.catalog?.mvpdsByID
        if let partnerCheck, let requestor = picture.standing.requestorID,
            AuthenticationCheck.needsPartner(
                profile: stored, platformServices: platformServices, mvpds: mvpds, partnerConfigured: true, now: now)
        {
            // The providers the partner framework is asked about: the configuration's,
            // else the ones the device remembers (only then are the stored profiles read).
            let supported =
                picture.standing.catalog?.sortedMappingIDs
                ?? RequestorCatalog.known(
                    configuration: nil, requestor: requestor, profiles: store.profiles(requestor: requestor)
                ).sortedMappingIDs
            // A partner framework with both answers at hand is answered here and now.
            let atHand = PartnerSignIn.silentAnswersAtHand(of: partnerCheck.partner, supportedProviders: supported)
            guard case .complete(let snapshot) = atHand else {
                return .askPartner(
                    PartnerAuthenticationCheck(
                        partnerCheck, profile: stored, supportedProviders: supported, requestor: picture, call: call,
                        knownAccess: atHand.access))
            }
            return .answered(authenticationCallbacks(profile: stored, mvpds: mvpds, snapshot: snapshot, now: now))
        }
        return .answered(authenticationCallbacks(profile: stored, mvpds: mvpds, snapshot: nil, now: now))
    }

    /// The callbacks of a check of `profile` at `now`, given the partner framework's answers.
    private func authenticationCallbacks(
        profile stored: StoredProfile?, mvpds: [String: MVPD]?, snapshot: PartnerSnapshot?, now: Date
    ) -> [DelegateCall] {
        AuthenticationCheck.callbacks(
            profile: stored, mvpds: mvpds, snapshot: snapshot, now: now,
            tracking: dispatcher.wantsTrackingData ? tracking : nil)
    }

    /// Starts authentication unless the user is already authenticated.
    public func getAuthentication() {
        submit(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
    }

    /// Starts authentication; with `forceAuthn` even when already authenticated. `data` is
    /// accepted for source compatibility; REST API V2 has no field for it, so it is not sent.
    public func getAuthentication(_ forceAuthn: Bool, withData data: [String: Any]?) {
        submit(.getAuthentication(forceAuthn: forceAuthn, data: Self.stringData(data), filter: nil))
    }

    /// Starts authentication, showing only `filter`'s MVPDs (in that order) in the system
    /// TV provider picker.
    public func getAuthentication(filter: [String]) {
        submit(.getAuthentication(forceAuthn: false, data: nil, filter: PickerFilter(providers: filter, featured: [])))
    }

    /// Starts authentication with a picker filter dictionary: ``TV_PROVIDERS`` (the MVPDs to
    /// show, in order) and ``FEATURED_TV_PROVIDERS`` (those to feature).
    public func getAuthentication(filter: [String: [String]]) {
        submit(.getAuthentication(forceAuthn: false, data: nil, filter: Self.pickerFilter(filter)))
    }

    /// Starts authentication with every option: force, data, and a picker filter.
    public func getAuthentication(_ forceAuthn: Bool, withData data: [String: Any]?, andFilter filter: [String]?) {
        submit(
            .getAuthentication(
                forceAuthn: forceAuthn, data: Self.stringData(data),
                filter: filter.map { PickerFilter(providers: $0, featured: []) }))
    }

    /// Starts authentication with every option and a picker filter dictionary.
    public func getAuthentication(
        _ forceAuthn: Bool, withData data: [String: Any]?, andFilter filter: [String: [String]]
    ) {
        submit(
            .getAuthentication(forceAuthn: forceAuthn, data: Self.stringData(data), filter: Self.pickerFilter(filter)))
    }

    /// Continues authentication with the MVPD the user chose; `nil` means the user backed out.
    public func setSelectedProvider(_ mvpdID: String?) {
        submit(.setSelectedProvider(mvpdID))
    }

    /// Completes a login or logout when the web view reached the redirect URL.
    public func handleExternalURL(_ url: String) {
        submit(.handleExternalURL(url))
    }

    // MARK: Authorization

    /// Authorizes `resource` for an authenticated user. Ends in `setToken` or `tokenRequestFailed`.
    public func checkAuthorization(_ resource: String) {
        submit(.checkAuthorization(resource, data: nil))
    }

    /// As ``checkAuthorization(_:)``; `data` is accepted for source compatibility but REST
    /// API V2 has no field for it, so it is not sent.
    public func checkAuthorization(_ resource: String, withData data: [String: Any]?) {
        submit(.checkAuthorization(resource, data: Self.stringData(data)))
    }

    /// Authorizes `resource`, authenticating first if needed.
    public func getAuthorization(_ resource: String) {
        submit(.getAuthorization(resource, data: nil))
    }

    /// As ``getAuthorization(_:)``; `data` is accepted for source compatibility but REST API
    /// V2 has no field for it, so it is not sent.
    public func getAuthorization(_ resource: String, withData data: [String: Any]?) {
        submit(.getAuthorization(resource, data: Self.stringData(data)))
    }

    /// Asks which of `resources` the user may play; cached decisions answer repeated calls.
    public func checkPreauthorizedResources(_ resources: [String]) {
        submit(.checkPreauthorizedResources(resources, cache: true))
    }

    /// As ``checkPreauthorizedResources(_:)``; with `cache: false` Adobe Pass is always asked.
    public func checkPreauthorizedResources(_ resources: [String], cache: Bool) {
        submit(.checkPreauthorizedResources(resources, cache: cache))
    }

    /// The Preauthorize API (v3.6): decisions for the request's resources, each with the
    /// reason for a denial, delivered to `callback` on the callback queue — `onResponse`
    /// for decisions or an Adobe Pass error, `onFailure` when the SDK could not ask (no
    /// requestor, not authenticated, network). With ``PreauthorizeRequest/Feature/LOCAL_CACHE``
    /// disabled the SDK's cache is bypassed; REST API V2 offers no control over Adobe Pass's
    /// own cache, so ``PreauthorizeRequest/Feature/REMOTE_CACHE`` has no effect.
    public func preauthorize(
        _ request: PreauthorizeRequest, didCompleteWith callback: AccessEnablerCallback<PreauthorizeResponse>
    ) {
        submit(.preauthorize(request, callback))
    }

    /// ``preauthorize(_:didCompleteWith:)`` in the unlabelled form of Adobe's sample code.
    public func preauthorize(_ request: PreauthorizeRequest, _ callback: AccessEnablerCallback<PreauthorizeResponse>) {
        preauthorize(request, didCompleteWith: callback)
    }

    // MARK: Session

    /// Signs the user out. Ends in `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`
    /// (on iOS after the `navigateToUrl` / `handleExternalURL` round of a regular MVPD).
    public func logout() {
        submit(.logout)
    }

    /// Reports the selected MVPD through `selectedProvider`, from what the SDK stored of it
    /// (no request).
    public func getSelectedProvider() {
        submit(.getSelectedProvider)
    }

    /// The TV provider of the current requestor's last sign-in on this device, or `nil`.
    ///
    /// Kept when that sign-in expires or Adobe Pass ends it, forgotten by ``logout()``: an
    /// app offers "Continue with …" from it (its ``MVPD/displayName`` and ``MVPD/logoURL``)
    /// instead of the whole provider list. A sign-in started from it —
    /// `setSelectedProvider(provider.ID)` with no authentication flow open — asks Adobe Pass
    /// for no configuration. Read synchronously from storage, with no request; `nil` before
    /// the first `setRequestor`, and for a sign-in through TempPass, which is not a provider
    /// to continue with. A provider chosen on a second screen is known by its id until the
    /// SDK next has the configuration (its ``MVPD/displayName`` is then the id).
    public var rememberedProvider: MVPD? {
        guard let requestor = published.snapshot.requestorID else { return nil }
        // What another AccessEnabler over the same storage wrote since.
        store.refreshIfChanged()
        return store.profiles(requestor: requestor).remembered?.facadeMVPD
    }

    /// The current requestor's valid profiles on this device, the one in force first: its
    /// MVPD, the MVPD's name, how the sign-in was made, when it ends. Read synchronously from
    /// storage, with no request (what the last `setRequestor` reconciled with Adobe Pass, and
    /// the sign-ins since); empty before the first `setRequestor`. A device may hold several
    /// (REST API V2 keeps one per MVPD): offer them, and let the person pick with
    /// ``selectProfile(mvpd:)``; when the app does not, the one used last is in force, else the
    /// one that ends last, a TempPass only when nothing else is there.
    public var profiles: [Profile] {
        guard let requestor = published.snapshot.requestorID else { return [] }
        store.refreshIfChanged()
        let now = serverClock.adobeNow(clock)
        return ProfileChoice.list(store.profiles(requestor: requestor), now: now)
    }

    /// Makes the profile of `mvpd` the one in force: checkAuthentication, authorization,
    /// preauthorization and metadata use it from the calls made after this one on (no
    /// request, no callback; it takes effect in call order, like every call). Returns `false`,
    /// and changes nothing, when ``profiles`` lists no profile of that MVPD. The profile it
    /// replaces is kept: a logout ends every profile.
    @discardableResult
    public func selectProfile(mvpd: String) -> Bool {
        guard profiles.contains(where: { $0.mvpd == mvpd }) else { return false }
        submit(.selectProfile(mvpd))
        return true
    }

    /// Reads metadata: `METADATA_OPCODE_KEY` set to `METADATA_AUTHENTICATION`,
    /// `METADATA_AUTHORIZATION` (with `METADATA_RESOURCE_ID_KEY`), `METADATA_DEVICE_ID` or
    /// `METADATA_USER_META` (with `METADATA_USER_META_KEY`). Ends in `setMetadataStatus`.
    public func getMetadata(_ keys: [String: Any]) {
        submit(.getMetadata(MetadataQuery(dictionary: keys), arguments: MetadataArguments(dictionary: keys)))
    }

    // MARK: Test rigs

    /// Waits until the SDK is quiescent — every call made so far has run, no child task is
    /// in flight, no poll is due — or until everything under way waits for the clock to
    /// reach a throttling back-off's end (``Quiescence/waitingForClock(until:)``: with a
    /// manual clock, move it there and wait again). Callbacks produced so far have been
    /// delivered when it returns. For test rigs and scenario runners.
    package func waitUntilQuiescent() async -> Quiescence {
        // An event or a call answered outside the engine counts as under way until its
        // callbacks have reached the delegate, so quiescence means they are delivered.
        await mailbox.activity.waitUntilQuiescent(clock: configuration.clock)
    }

    /// Makes the calls `body` makes reach the engine as one burst: it takes none of them
    /// until the last is made, as when an app makes them while the engine is busy. First
    /// waits until the engine is free to give its turn (no event queued or being handled,
    /// its turn not held); returns `false`, making no call, only when the AccessEnabler was
    /// released. For tests of what the engine does with calls made together (an app's calls
    /// made in one go usually arrive so, but a busy machine can let the engine take the
    /// first before the next is made).
    ///
    /// The body may await (a test that cancels a call while the engine cannot answer it):
    /// the engine takes nothing until it returns.
    package func callTogether(_ body: (AccessEnabler) async -> Void) async -> Bool {
        // Holding the engine's turn: events posted meanwhile wait in the mailbox, in order.
        // An async call returns once its terminal callback reached the app, which is before
        // the engine has finished that call's event: so a burst made right after one waits
        // for the turn instead of finding the engine busy by chance.
        guard await mailbox.claimWhenFree() else { return false }
        await body(self)
        mailbox.releaseClaim { delivered in delivered() }
        return true
    }

    /// What a test rig waits on after releasing this AccessEnabler (see ``ReleaseWatch``).
    package var releaseWatch: ReleaseWatch { ReleaseWatch(mailbox: mailbox, clock: configuration.clock) }

    /// Whether the SDK is quiescent right now (as ``waitUntilQuiescent()`` would answer at
    /// once), or `nil` while it has work under way. For test rigs and scenario runners.
    package var quiescenceNow: Quiescence? {
        mailbox.activity.quiescence(now: configuration.clock.now)
    }

    /// How far the SDK's work has got: a count that moves with every event posted or
    /// handled, every child task, back-off or timer started or ended, and every request sent
    /// or answered. A rig that bounds
    /// a wait compares readings of it, so it gives up on an SDK that is stuck — the count
    /// stands still — and never on one that is only slow. For test rigs and scenario runners.
    package var progress: UInt64 { mailbox.activity.progress }

    /// Waits until every call made so far has run, its callbacks have been delivered and
    /// what it stored is on disk. Waiting for a person (a provider choice, a login page, a
    /// second-screen code) counts as idle; a throttling back-off does not, so with a manual
    /// clock, move the clock past the back-off (``ManualTimeSource/advance(by:)``). For test
    /// rigs and scenario runners; an application never needs it.
    public func waitUntilIdle() async {
        while case .waitingForClock = await mailbox.activity.waitUntilQuiescent(clock: configuration.clock) {
            // Real time moves a wall clock past the back-off: look again shortly.
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        let store = self.store
        guard store.hasQueuedWrites else { return }
        // Resumed by the storage thread once the writes are done: no thread waits meanwhile
        // (thousands of devices waiting at once would otherwise hold as many).
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            store.flush { continuation.resume() }
        }
        // A write that failed reported a status (N500) while it ran: deliver it too.
        await dispatcher.flush()
    }

    /// What this AccessEnabler's waits for another process's storage lock came to, in all
    /// (test rigs check the one-second budget of ``LockWaitBudget``).
    var storageLockWaits: LockWaitBudget.Tally { store.lockWaitsOnCallersPaths }

    // MARK: Helpers

    /// Reports a call of the delegate API whose answer would reach nobody: no `delegate`, or
    /// a delegate that adopts `EntitlementStatus` with no `statusDelegate`.
    private func checkDelegates(for command: Command) {
        guard let answer = command.delegateAnswer else { return }
        let (delegate, hasStatusDelegate) = dispatcher.currentDelegates
        let missing: MissingDelegateDiagnostics.Receiver
        if delegate == nil {
            missing = .delegate
        } else if !hasStatusDelegate, let delegate, delegate is EntitlementStatus {
            missing = .statusDelegate
        } else {
            return
        }
        let message = MissingDelegateDiagnostics.shared.report(
            call: command.legacyName, answer: answer, missing: missing,
            delegateType: delegate.map { String(reflecting: type(of: $0)) })
        configuration.diagnostics?(.noDelegate(call: command.legacyName, message: message))
    }

    private static func stringData(_ data: [String: Any]?) -> [String: String]? {
        data?.mapValues { "\($0)" }
    }

    private static func pickerFilter(_ filter: [String: [String]]) -> PickerFilter {
        PickerFilter(providers: filter[TV_PROVIDERS] ?? [], featured: filter[FEATURED_TV_PROVIDERS] ?? [])
    }
}

/// `getAuthentication(filter:)` dictionary key: the MVPD ids the picker shows, in order.
public let TV_PROVIDERS = "TV_PROVIDERS"
/// `getAuthentication(filter:)` dictionary key: the MVPD ids the picker features.
public let FEATURED_TV_PROVIDERS = "FEATURED_TV_PROVIDERS"
