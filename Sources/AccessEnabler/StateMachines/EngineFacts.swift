import Foundation

/// What the state machine reads of the world when an event arrives: the clocks and what
/// storage holds for the current requestor. The engine reads it just before each event;
/// the machine decides from it and never reads storage itself.
struct EngineFacts: Sendable {
    /// The device clock: what poll timers are set on.
    var now: Date
    /// Adobe Pass's time as this device can tell it (the device clock corrected by the
    /// measured difference when it is significant): profiles and tokens are judged with it.
    var adobeNow: Date
    /// The current requestor's profiles as stored.
    var profiles: RequestorProfiles = .none
    /// The current requestor's media tokens, by resource.
    var mediaTokens: [String: StoredAuthorization] = [:]
    /// The current requestor's cached preauthorization answers, by resource.
    var preauthorizations: [String: StoredPreauthorization] = [:]
    /// Every requestor's logouts Adobe Pass has not confirmed, by requestor (a setRequestor
    /// for another requestor, or the first after a launch, sends them first).
    var pendingLogouts: [String: [PendingLogout]] = [:]
    /// A significant difference between the device clock and Adobe's not yet reported
    /// (seconds to add to the device clock), if any.
    var unreportedClockOffset: TimeInterval?
    /// The measured difference ``adobeNow`` leaves out because it is small (seconds to add):
    /// with it, whether an instant of Adobe's has surely passed. `nil` while no answer has
    /// told Adobe's time.
    var uncorrectedClockOffset: TimeInterval?
    /// The current requestor's configuration as the engine cached it, with the instant it
    /// was fetched: its age is judged on ``now`` (the configuration's clock); `nil` until a
    /// flow needed it.
    var configuration: CachedConfiguration?
    /// The current requestor's configuration as stored, by this process or an earlier one
    /// (``StoredConfiguration``), whatever its age.
    var storedConfiguration: StoredConfiguration?

    /// The profile in force (``ProfileSelection``), expired or not.
    var currentProfile: StoredProfile? { ProfileSelection.current(profiles, now: adobeNow) }

    /// The configuration, whatever its age.
    var catalog: RequestorCatalog? { configuration?.catalog }

    /// Whether a flow that needs the configuration may use the cached one (younger than
    /// ``CachedConfiguration/lifetime``).
    var hasFreshConfiguration: Bool { configuration?.isFresh(at: now) == true }

    /// What the device knows of `mvpd`: the configuration's description when it has one,
    /// else what was stored with a profile of that MVPD or remembered of the last sign-in.
    func knownProvider(_ mvpd: String) -> StoredProvider? {
        if let catalog, let described = catalog.storedProvider(mvpd) { return described }
        let stored = profiles.all.first { $0.mvpd == mvpd }?.provider
        let remembered = profiles.remembered?.id == mvpd ? profiles.remembered : nil
        // A provider known by its id alone yields to a described one.
        return [stored, remembered].compactMap { $0 }.first(where: \.isDescribed) ?? stored ?? remembered
    }

    /// The catalog partner questions and request targets read: the configuration when the
    /// SDK has one, else the providers the device remembers.
    func knownCatalog(requestor: String) -> RequestorCatalog {
        RequestorCatalog.known(configuration: catalog, requestor: requestor, profiles: profiles)
    }
}

/// What the state machine knows of the configuration: fixed for the engine's life.
struct EngineSettings: Sendable {
    var platform: AccessEnablerConfiguration.Platform = .iOS
    /// Where the MVPD login happens.
    var loginScreen: AuthenticationStateMachine.LoginScreen = .thisDevice
    /// Whether the person chooses the provider on the second screen (``ProviderChoice/onSecondScreen``
    /// with a second-screen login): authentication then opens a session without an MVPD.
    var providerOnSecondScreen: Bool = false
    /// Seconds between polls for a profile after a redirect (a second screen's interval is in `loginScreen`).
    var pollInterval: TimeInterval = 5
    /// Seconds the app has to come back from an MVPD logout page (`handleExternalURL`)
    /// before the logout ends by itself: the configuration's request timeout.
    var logoutPageTimeout: TimeInterval = 30
    var redirectURL: String = "adobepass://ios.app"
    /// The base URL of the configured environment (the service provider when none is named).
    var primaryServiceProvider = URL(string: "https://sp.auth.adobe.com")!
    /// Plain `http://` to a host other than this machine is refused unless this allows it
    /// (`AccessEnablerConfiguration.allowsInsecureHTTP`).
    var transportSecurity = TransportSecurityPolicy(allowsInsecureHTTP: false)
    /// Whether a partner framework is configured.
    var partnerConfigured: Bool = false
    /// The configuration's numbers outside their ranges (``ConfigurationRanges``), one
    /// sentence each: setRequestor refuses such a configuration.
    var configurationProblems: [String] = []
    /// At most this many resources per decisions request (`nil`: the defaults below).
    var resourceLimit: Int?
    /// The device identifier (`METADATA_DEVICE_ID`), read when metadata asks for it.
    var deviceIdentity = DeviceIdentity(fixed: "")
    /// The device identifier (see ``deviceIdentity``).
    var deviceIdentifier: String {
        get { deviceIdentity.value }
        set { deviceIdentity = DeviceIdentity(fixed: newValue) }
    }
    /// The fields of the tracking events.
    var tracking: TrackingFields = TrackingFields(platform: .iOS)

    /// Resources per authorization request when no limit is configured: Adobe Pass's usual
    /// limit ("usually up to 5").
    static let defaultAuthorizationLimit = 5

    /// Whether the partner framework signs the user in (else the app's provider dialog): one
    /// is configured and the requestor's configuration has an MVPD with platform services.
    func partnerSignInApplies(_ facts: EngineFacts) -> Bool {
        partnerConfigured && facts.catalog?.hasPlatformServices == true
    }

    /// At most this many resources per `decisions/authorize` request.
    var authorizationLimit: Int { max(1, resourceLimit ?? Self.defaultAuthorizationLimit) }
    /// At most this many per `decisions/preauthorize` request (`nil`: one request; a
    /// `too_many_resources` answer splits it).
    var preauthorizationLimit: Int? { resourceLimit.map { max(1, $0) } }
}

/// The requestor as the last setRequestor left it, for synchronous readers.
struct RequestorStanding: Sendable {
    /// The state of `setRequestor`.
    enum State: Sendable, Equatable {
        case notSet
        case ready
        /// (Boxed: the status is large and rarely there, the standing is held for life.)
        indirect case failed(AdvancedStatus)
    }

    var requestorID: String?
    var state: State = .notSet
    /// The configuration, once a flow needed it (`nil` after a warm launch).
    var catalog: RequestorCatalog?

    /// `nil` when the requestor is ready; otherwise the status a call reports, whether the
    /// engine or the facade's quick checkAuthentication answers it.
    var problem: AdvancedStatus? {
        switch state {
        case .ready: nil
        case .failed(let status): status
        case .notSet: StatusCatalog.status(.cfg400, message: StatusSentences.noRequestor)
        }
    }
}
