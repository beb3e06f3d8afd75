import Foundation

@testable import AccessEnabler

/// Plays the world around ``EngineStateMachine`` with no I/O: keeps the storage the
/// machine writes to, the clock, and the child tasks it started (so a test can answer them),
/// and records every callback with the call it belongs to.
struct MachineHarness {
    /// A child task the machine started and that has not answered yet.
    enum Child: Equatable, CustomStringConvertible {
        case loadRequestor(RequestTicket)
        /// A configuration fetch of the machine's own (setRequestor's partner check, an authorization's refetch).
        case refetch(RequestTicket)
        /// The configuration an authentication flow waits for.
        case flowConfiguration(FlowID)
        /// The timer of a logout page.
        case logoutPageTimer(RequestTicket, until: Date)
        case partner(RequestTicket)
        case silentSignIn(RequestTicket)
        case partnerSignIn(FlowID)
        case session(FlowID)
        case sessionProfile(FlowID)
        case pollTimer(FlowID, until: Date)
        case poll(FlowID)
        case decisions(RequestTicket, DecisionKind, resources: [String])
        case logout(RequestTicket)

        var description: String {
            switch self {
            case .loadRequestor(let t): "loadRequestor(\(t))"
            case .refetch(let t): "refetch(\(t))"
            case .flowConfiguration(let f): "flowConfiguration(\(f))"
            case .logoutPageTimer(let t, _): "logoutPageTimer(\(t))"
            case .partner(let t): "partner(\(t))"
            case .silentSignIn(let t): "silentSignIn(\(t))"
            case .partnerSignIn(let f): "partnerSignIn(\(f))"
            case .session(let f): "session(\(f))"
            case .sessionProfile(let f): "sessionProfile(\(f))"
            case .pollTimer(let f, _): "pollTimer(\(f))"
            case .poll(let f): "poll(\(f))"
            case .decisions(let t, let kind, let resources): "decisions(\(t),\(kind),\(resources))"
            case .logout(let t): "logout(\(t))"
            }
        }
    }

    var machine: EngineStateMachine
    var now: Date
    /// What storage holds, by requestor.
    var profiles: [String: RequestorProfiles] = [:]
    var mediaTokens: [String: [String: StoredAuthorization]] = [:]
    var preauthorizations: [String: [String: StoredPreauthorization]] = [:]
    var storedConfigurations: [String: StoredConfiguration] = [:]
    /// The requestor the machine published last.
    var requestor: String?
    /// The configuration the machine asked to cache.
    var configuration: CachedConfiguration?
    /// Children started and not yet answered or cancelled, oldest first.
    var children: [Child] = []
    /// Every callback delivered, in order, with the calls it belongs to.
    var delivered: [(call: DelegateCall, owners: [CallID])] = []
    /// Whether the facade's turn is held.
    var turnHeld = false
    /// Whether the machine is waiting for a quiet window (``EngineAction/awaitQuietWindow``).
    var quietWindowOpen = false
    /// How many times the machine started its quiet window, or started it again.
    var quietWindowStarts = 0
    private var callCounter: UInt64 = 0

    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    init(settings: EngineSettings = MachineHarness.settings(), now: Date = MachineHarness.start) {
        machine = EngineStateMachine(settings: settings)
        self.now = now
    }

    static func settings(
        partner: Bool = false, loginScreen: AuthenticationStateMachine.LoginScreen = .thisDevice, limit: Int? = 5
    ) -> EngineSettings {
        var settings = EngineSettings()
        settings.partnerConfigured = partner
        settings.loginScreen = loginScreen
        settings.resourceLimit = limit
        settings.deviceIdentifier = "device"
        return settings
    }

    var facts: EngineFacts { facts(requestor: requestor) }

    /// The facts with `requestor`'s storage, as the engine reads them (for a setRequestor:
    /// the requestor it names).
    func facts(requestor: String?) -> EngineFacts {
        var facts = EngineFacts(now: now, adobeNow: now)
        facts.configuration = configuration
        if let requestor {
            facts.profiles = profiles[requestor] ?? .none
            facts.mediaTokens = mediaTokens[requestor] ?? [:]
            facts.preauthorizations = preauthorizations[requestor] ?? [:]
            facts.storedConfiguration = storedConfigurations[requestor]
        }
        return facts
    }

    /// Makes a facade call; returns its id.
    @discardableResult
    mutating func call(_ command: Command) -> CallID {
        callCounter += 1
        let id = CallID(value: callCounter)
        send(.command(command, call: id))
        return id
    }

    /// Hands the machine an event and plays its actions.
    mutating func send(_ event: EngineEvent) {
        for action in machine.handle(event, facts: facts(requestor: event.requestorNamed ?? requestor)) { play(action) }
    }

    /// Tells the machine the mailbox is empty, and then — when that opened a quiet window —
    /// that no event came during it: what an app that makes no more calls for a moment sees.
    mutating func drain() {
        drainOnly()
        if quietWindowOpen { elapseQuietWindow() }
    }

    /// Tells the machine the mailbox is empty, and nothing more.
    mutating func drainOnly() { send(.mailboxDrained) }

    /// Tells the machine that the quiet window it opened passed with no event.
    mutating func elapseQuietWindow() {
        quietWindowOpen = false
        send(.quietWindowElapsed)
    }

    private mutating func play(_ action: EngineAction) {
        switch action {
        case .deliver(let call, let owner, let others):
            delivered.append((call, (owner.map { [$0] } ?? []) + others))
        case .publish(let standing): requestor = standing.requestorID
        case .holdTurn(let held): turnHeld = held
        case .applyOptions, .rememberTempPassIdentity, .clockDifferenceReported: break
        case .loadRequestor(let ticket, _, _, _, _): children.append(.loadRequestor(ticket))
        case .fetchConfiguration(let ticket, _, _): children.append(.refetch(ticket))
        case .fetchConfigurationForFlow(let flow, _, _): children.append(.flowConfiguration(flow))
        case .cancelConfigurationFetch(let flow): children.removeAll { $0 == .flowConfiguration(flow) }
        case .cacheConfiguration(let cached): configuration = cached
        case .setLogoutPageTimer(let ticket, let until):
            children.removeAll { if case .logoutPageTimer(ticket, _) = $0 { true } else { false } }
            children.append(.logoutPageTimer(ticket, until: until))
        case .cancelLogoutPageTimer(let ticket):
            children.removeAll { if case .logoutPageTimer(ticket, _) = $0 { true } else { false } }
        case .awaitQuietWindow:
            quietWindowOpen = true
            quietWindowStarts += 1
        case .endQuietWindow: quietWindowOpen = false
        case .askPartner(let ticket, _): children.append(.partner(ticket))
        case .signInSilently(let ticket, _, _, _): children.append(.silentSignIn(ticket))
        case .startPartnerSignIn(let flow, _, _): children.append(.partnerSignIn(flow))
        case .cancelPartnerSignIn(let flow): children.removeAll { $0 == .partnerSignIn(flow) }
        case .createSession(let flow, _): children.append(.session(flow))
        case .fetchSessionProfile(let flow, _): children.append(.sessionProfile(flow))
        case .cancelSession(let flow): children.removeAll { $0 == .session(flow) || $0 == .sessionProfile(flow) }
        case .setPollTimer(let flow, let until):
            children.removeAll { if case .pollTimer(flow, _) = $0 { true } else { false } }
            children.append(.pollTimer(flow, until: until))
        case .fetchProfileForCode(let flow, _, _): children.append(.poll(flow))
        case .stopPolling(let flow):
            children.removeAll { $0 == .poll(flow) || { if case .pollTimer(flow, _) = $0 { true } else { false } }($0) }
        case .requestDecisions(let ticket, let kind, let resources, _, _):
            children.append(.decisions(ticket, kind, resources: resources))
        case .logOut(let ticket, _): children.append(.logout(ticket))
        case .storeProfiles(let change, let requestor):
            profiles[requestor] = change.profiles
            if let kept = change.keepingMediaTokensOf {
                mediaTokens[requestor] = mediaTokens[requestor]?.filter { kept.contains($0.value.mvpd) }
            }
            if change.droppingPreauthorizations { preauthorizations[requestor] = [:] }
        case .removeProfiles(let requestor):
            profiles[requestor] = profiles[requestor].map {
                RequestorProfiles(pendingLogouts: $0.pendingLogouts, remembered: $0.remembered)
            }
            mediaTokens[requestor] = nil
            preauthorizations[requestor] = nil
        case .storeMediaToken(let token): mediaTokens[token.requestor, default: [:]][token.resource] = token
        case .storePreauthorizations(let answers, let requestor): preauthorizations[requestor] = answers
        case .storeConfiguration(let stored, let requestor): storedConfigurations[requestor] = stored
        }
    }

    /// Takes the oldest child matching `matches` (it answers now).
    mutating func take(_ matches: (Child) -> Bool) -> Child? {
        guard let index = children.firstIndex(where: matches) else { return nil }
        return children.remove(at: index)
    }

    // MARK: Reading what was delivered

    /// The callbacks of `call`, in order.
    func callbacks(of call: CallID) -> [DelegateCall] { delivered.filter { $0.owners.contains(call) }.map(\.call) }

    /// Every callback as a short signature (`setToken(news)`, `status(Z100)`, …).
    var signatures: [String] { delivered.map { Self.signature($0.call) } }

    static func signature(_ call: DelegateCall) -> String {
        let name = call.name.callbackName
        let arguments: String? =
            switch call {
            case .setRequestorComplete(let status): "\(status)"
            case .setAuthenticationStatus(let status, let code): "\(status),\(code)"
            case .setToken(_, let resource): resource
            case .tokenRequestFailed(let resource, let code, _): "\(resource),\(code)"
            case .selectedProvider(let mvpd): mvpd?.id ?? "nil"
            case .preauthorizedResources(let resources): resources.joined(separator: ",")
            case .sendTrackingData(let data, let event): "\(event),\(data.first ?? "")"
            case .status(let status): "\(status.errorId)"
            case .displayProviderDialog, .navigateToUrl, .navigateToUrlUsingSVC, .presentTVProviderDialog,
                .dismissTVProviderDialog, .setMetadataStatus, .preauthorizeResult:
                nil
            }
        return arguments.map { "\(name)(\($0))" } ?? name
    }

    // MARK: Fixtures

    /// A catalog of REF30: a regular MVPD, a TempPass one and a partner-SSO one.
    static let catalog: RequestorCatalog = {
        let json = """
            {"requestor":{"id":"REF30","domains":[],"mvpds":[
              {"id":"Plain1","displayName":"Plain One","enablePlatformServices":false,"displayInPlatformPicker":false,"isTempPass":false,"isProxy":false,"enforcePlatformPermissions":false},
              {"id":"TempPass","displayName":"Temp Pass","enablePlatformServices":false,"displayInPlatformPicker":false,"isTempPass":true,"isProxy":false,"enforcePlatformPermissions":false},
              {"id":"AppleBoarded","displayName":"Apple Boarded","enablePlatformServices":true,"displayInPlatformPicker":true,"boardingStatus":"SUPPORTED","platformMappingId":"AppleBoarded","isTempPass":false,"isProxy":false,"enforcePlatformPermissions":false}
            ]}}
            """
        let configuration = try! JSONDecoder().decode(ServiceConfiguration.self, from: Data(json.utf8))
        return RequestorCatalog(
            requestor: "REF30",
            merging: [.init(serviceProvider: URL(string: "https://api.auth.adobe.com")!, configuration: configuration)])
    }()

    /// A profile of `mvpd` valid for a day from `now`.
    func profile(
        _ mvpd: String, type: StoredProfileType = .regular, lasting seconds: TimeInterval = 86_400
    ) -> ProfileAnswer {
        ProfileAnswer(
            mvpd: mvpd, type: type.rawValue, notBefore: now.addingTimeInterval(-60),
            notAfter: now.addingTimeInterval(seconds), issuer: nil, attributes: [:], sessionId: nil)
    }

    /// The same profile as stored.
    func stored(_ mvpd: String, type: StoredProfileType = .regular) -> StoredProfile {
        StoredProfile(
            profile(mvpd, type: type), requestor: "REF30", tokenSource: nil, partnerProviderID: nil,
            serviceProvider: URL(string: "https://api.auth.adobe.com")!)
    }

    /// A machine whose requestor REF30 is set and whose user is signed in to `mvpd` (a warm
    /// launch: no configuration asked); with `configuration`, the machine also holds a
    /// fresh configuration (a flow needed it a moment ago).
    static func signedIn(_ mvpd: String = "Plain1", settings: EngineSettings = settings(), configuration: Bool = true)
        -> MachineHarness
    {
        var harness = MachineHarness(settings: settings)
        harness.call(.setRequestor("REF30", serviceProviders: nil))
        guard case .loadRequestor(let ticket)? = harness.take({ if case .loadRequestor = $0 { true } else { false } })
        else { return harness }
        harness.send(.requestorLoaded(ticket, .success([])))
        harness.drain()
        harness.profiles["REF30"] = RequestorProfiles(chosen: harness.stored(mvpd))
        if configuration { harness.configuration = CachedConfiguration(catalog: catalog, fetchedAt: harness.now) }
        harness.delivered = []
        return harness
    }

    /// Answers the configuration `flow` waits for with ``catalog`` (`false` when none was asked).
    @discardableResult
    mutating func answerFlowConfiguration(_ result: Result<RequestorCatalog, RESTClientError> = .success(catalog))
        -> Bool
    {
        guard case .flowConfiguration(let flow)? = take({ if case .flowConfiguration = $0 { true } else { false } })
        else { return false }
        send(.flowConfigurationFetched(flow, result))
        return true
    }

    /// A decision for `resource`: permitted with a token, or denied by the MVPD.
    static func decision(_ resource: String, permitted: Bool) -> Decision {
        permitted
            ? Decision(
                resource: resource, source: .mvpd, authorized: true,
                token: DecisionToken(serializedToken: "token-\(resource)"))
            : Decision(
                resource: resource, source: .mvpd, authorized: false,
                error: EnhancedError(
                    status: 403, code: "authorization_denied_by_mvpd", message: "Denied", action: "none"))
    }
}
