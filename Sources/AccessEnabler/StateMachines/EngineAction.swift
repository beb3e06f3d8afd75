import Foundation

/// One thing for the engine to carry out, as the state machine decided it: deliver a
/// callback, start or cancel a child task (whose answer comes back as an ``EngineEvent``),
/// write to storage, publish the requestor's state. Carrying out an action never consults
/// the machine.
enum EngineAction: Sendable {
    // MARK: To the application

    /// Deliver `call`, as a callback of the facade call `owner` — and of the calls in
    /// `alsoEnding`, whose flow another call took over before they had an answer (the
    /// delegate receives it once).
    case deliver(DelegateCall, to: CallID?, alsoEnding: [CallID] = [])
    /// Publish the requestor's state for synchronous readers (the facade's checkAuthentication).
    case publish(RequestorStanding)
    /// Keep the facade's turn while the machine has work under way (calls made meanwhile
    /// wait behind it), or give it back.
    case holdTurn(Bool)

    // MARK: What requests carry

    /// `setOptions` takes effect: later requests carry these options.
    case applyOptions(SDKOptions)
    /// Later requests for TempPass MVPDs carry this `AP-TempPass-Identity` value.
    case rememberTempPassIdentity(String)

    // MARK: Child tasks

    /// DCR when needed; the pending logouts (each once, concurrently); then `GET profiles`
    /// of every service provider (by base URL), presenting `partnerStatus` when given (an
    /// `appleSSO` profile in force); answers ``EngineEvent/requestorLoaded(_:_:)``.
    /// No configuration: a flow asks for it when it needs it.
    case loadRequestor(
        RequestTicket, requestor: String, serviceProviders: [URL], pendingLogouts: [RESTTarget],
        partnerStatus: PartnerFrameworkStatus?)
    /// The configuration of every service provider, merged (setRequestor's partner check,
    /// an authorization Adobe Pass advised to fetch it again); answers
    /// ``EngineEvent/configurationFetched(_:_:)``.
    case fetchConfiguration(RequestTicket, requestor: String, serviceProviders: [URL])
    /// The configuration for the authentication `flow` (a provider list, the partner
    /// framework, an MVPD the device does not know); answers
    /// ``EngineEvent/flowConfigurationFetched(_:_:)``.
    case fetchConfigurationForFlow(FlowID, requestor: String, serviceProviders: [URL])
    /// Stop waiting for the configuration of `flow`.
    case cancelConfigurationFetch(FlowID)
    /// The partner framework's silent answers; ``EngineEvent/partnerAnswered(_:_:)``.
    case askPartner(RequestTicket, RequestorCatalog)
    /// Exchange the system-level sign-in for an Adobe profile, without interrupting the
    /// user; ``EngineEvent/silentSignInFinished(_:_:)``.
    case signInSilently(RequestTicket, mvpd: MVPD, partnerStatus: PartnerFrameworkStatus, catalog: RequestorCatalog)
    /// The interactive partner sign-in (permission prompt, system picker, exchange).
    case startPartnerSignIn(FlowID, PickerFilter?, RequestorCatalog)
    /// Stop the partner sign-in of `flow`.
    case cancelPartnerSignIn(FlowID)
    /// `POST sessions`; answers ``EngineEvent/sessionAnswered(_:_:)``.
    case createSession(FlowID, RESTTarget)
    /// The profile of an `authorize` session answer; ``EngineEvent/sessionProfileAnswered(_:_:)``.
    case fetchSessionProfile(FlowID, RESTTarget)
    /// Stop waiting for the session requests of `flow`.
    case cancelSession(FlowID)
    /// Set the poll timer of `flow`; ``EngineEvent/pollDue(_:)``.
    case setPollTimer(FlowID, until: Date)
    /// `GET profiles/code/{code}`; ``EngineEvent/pollAnswered(_:_:)``.
    case fetchProfileForCode(FlowID, code: String, RESTTarget)
    /// Cancel the poll timer and any poll in flight of `flow`.
    case stopPolling(FlowID)
    /// `POST decisions/authorize` or `…/preauthorize` for `resources`, once the clock reads
    /// `notBefore` when given (decisions Adobe Pass asked to request again);
    /// ``EngineEvent/decisionsAnswered(_:_:)``.
    case requestDecisions(RequestTicket, DecisionKind, resources: [String], RESTTarget, notBefore: Date? = nil)
    /// `GET logout/{mvpd}` for each target, concurrently; ``EngineEvent/logoutAnswered(_:_:)``.
    case logOut(RequestTicket, [RESTTarget])
    /// Set the timer of the logout page `ticket`'s call waits on: past `until`, the logout
    /// ends by itself; ``EngineEvent/logoutPageTimedOut(_:)``.
    case setLogoutPageTimer(RequestTicket, until: Date)
    /// Cancel the timer of the logout page `ticket`.
    case cancelLogoutPageTimer(RequestTicket)
    /// Start the quiet window of the round being gathered, or start it again if it runs:
    /// once no event has arrived for ``AuthorizationRound/quietWindow``,
    /// ``EngineEvent/quietWindowElapsed``. Real time, whatever the configuration's clock:
    /// it waits for the app's threads, not for Adobe Pass.
    case awaitQuietWindow
    /// Stop the quiet window: the gathering ended otherwise.
    case endQuietWindow

    // MARK: Caches and storage

    /// Keep `configuration` as the requestor's (`nil`: forget it, the requestor changed).
    case cacheConfiguration(CachedConfiguration?)
    /// Store `configuration` as the requestor's, so a relaunch within its life reuses it.
    case storeConfiguration(StoredConfiguration, requestor: String)

    /// Store the requestor's profiles as ``ProfileSelection`` decided.
    case storeProfiles(ProfileChange, requestor: String)
    /// Remove the requestor's profiles, media tokens and preauthorization answers.
    case removeProfiles(requestor: String)
    /// Store a media token.
    case storeMediaToken(StoredAuthorization)
    /// Replace the requestor's cached preauthorization answers.
    case storePreauthorizations([String: StoredPreauthorization], requestor: String)
    /// The difference between the device clock and Adobe's was reported (CFG100).
    case clockDifferenceReported
}

/// Which decisions endpoint a request goes to.
enum DecisionKind: Sendable, Equatable {
    case authorize
    case preauthorize
}

/// Where a REST request goes and what it carries beyond the request context.
struct RESTTarget: Sendable, Equatable {
    /// The requestor (service provider id) in the path.
    var requestor: String
    /// The MVPD, for requests about one.
    var mvpd: String?
    /// The base URL of the service provider to ask; `nil`: the configured environment.
    var serviceProvider: URL?
    /// The validated `AP-Partner-Framework-Status`, for a profile obtained through partner SSO.
    var partnerStatus: PartnerFrameworkStatus?
    /// Whether the request carries `AP-TempPass-Identity` (a TempPass MVPD).
    var tempPassIdentity: Bool
    /// For `POST sessions`: send the MVPD's pending logout first (its answer does not matter;
    /// the sign-in that follows replaces what it was to end).
    var logsOutFirst = false

    init(
        requestor: String, mvpd: String? = nil, serviceProvider: URL? = nil,
        partnerStatus: PartnerFrameworkStatus? = nil, tempPassIdentity: Bool = false
    ) {
        self.requestor = requestor
        self.mvpd = mvpd
        self.serviceProvider = serviceProvider
        self.partnerStatus = partnerStatus
        self.tempPassIdentity = tempPassIdentity
    }
}
