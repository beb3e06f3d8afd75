import Foundation
import Testing

@testable import AccessEnabler

/// The engine's state machine checked the way a model checker would: thousands of seeded
/// random sequences — facade calls in any order, child tasks answering in any order with
/// any outcome (or late, after their work was abandoned), timers, an empty mailbox — then
/// everything answered, and the invariants checked:
///
/// - every call ends exactly once with its documented terminal callback (an interactive
///   call: a hand-over or one `setAuthenticationStatus`, never two), and nothing reaches a
///   call after its end;
/// - no event is lost: once every child task has answered, nothing is under way and no call
///   is still waiting;
/// - no state is unreachable: across the sequences, every state of the machine was visited.
@Suite("Engine state machine, model-checked")
struct StateMachineModelTests {
    static let sequences = 3_000
    static let steps = 40

    @Test func randomSequencesKeepEveryInvariant() async {
        var visited: Set<String> = []
        var failures: [String] = []
        for seed in 1...UInt64(Self.sequences) {
            // Pure work on the shared pool: let the suite's other tests run between sequences.
            await Task.yield()
            var world = RandomWorld(seed: seed)
            for _ in 0..<Self.steps { world.step() }
            world.settle()
            visited.formUnion(world.visited)
            let problems = world.problems()
            if !problems.isEmpty {
                failures.append(
                    "seed \(seed): " + problems.joined(separator: "; ")
                        + (failures.isEmpty ? "\n  played: " + world.log.joined(separator: " | ") : ""))
            }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        let missing = RandomWorld.allStates.subtracting(visited)
        #expect(missing.isEmpty, "never reached: \(missing.sorted())")
    }

    /// The app releases the AccessEnabler at any point of a sequence: every call still
    /// waiting — under way, queued, an authentication in the SDK's hands, an authorization
    /// waiting for it — ends at once, exactly once, with its documented terminal callback,
    /// and nothing is left under way.
    @Test func releasingTheAccessEnablerAtAnyPointEndsEveryCallOnce() async {
        var failures: [String] = []
        for seed in 1...UInt64(Self.sequences / 3) {
            await Task.yield()
            var world = RandomWorld(seed: seed)
            for _ in 0..<Int(seed % UInt64(Self.steps)) + 1 { world.step() }
            world.release()
            let problems = world.problems()
            if !problems.isEmpty {
                failures.append(
                    "seed \(seed): " + problems.joined(separator: "; ")
                        + (failures.isEmpty ? "\n  played: " + world.log.joined(separator: " | ") : ""))
            }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func theSameSeedPlaysTheSameSequence() {
        var first = RandomWorld(seed: 42)
        var second = RandomWorld(seed: 42)
        for _ in 0..<Self.steps {
            first.step()
            second.step()
        }
        #expect(first.harness.signatures == second.harness.signatures)
        #expect(!first.harness.signatures.isEmpty)
    }
}

/// SplitMix64: a small seeded generator, so a failing sequence can be played again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One random world around the machine: what the app calls, how every child task answers.
struct RandomWorld {
    /// Every state the machine can be in, as ``state(of:)`` names them.
    static let allStates: Set<String> = [
        "auth.idle", "auth.awaitingConfiguration.providerChoice", "auth.awaitingConfiguration.selectedProvider",
        "auth.choosingProvider",
        "auth.signingInThroughPartner", "auth.openingSession.creating", "auth.openingSession.fetchingProfile",
        "auth.awaitingRedirect",
        "auth.polling", "auth.loggingOut", "auth.awaitingLogoutRedirect", "auth.awaitingLogoutRedirect.more",
        "foreground.none", "foreground.requestor.loading", "foreground.requestor.loadingConfiguration",
        "foreground.requestor.checkingPartner",
        "foreground.requestor.checkingPartnerFirst", "foreground.requestor.signingInSilently",
        "foreground.awaitingPartner", "foreground.authorizing.gathering", "foreground.authorizing.asking",
        "foreground.preauthorizing.gathering", "foreground.preauthorizing.asking", "queue.waiting",
    ]

    /// What kind of call a call id is, to know its terminal callback.
    enum CallKind {
        case setRequestor, checkAuthentication, interactive, authorization, preauthorized, preauthorize,
            selectedProvider, metadata, options
    }

    var harness: MachineHarness
    var random: SeededGenerator
    var calls: [CallID: CallKind] = [:]
    var visited: Set<String> = []
    /// What was played, to read a failing seed.
    var log: [String] = []
    private var staleTicket: UInt64 = 100_000

    static let resources = ["news", "sports", "movies", "kids"]

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
        let partner = Bool.random(using: &random)
        let screen: AuthenticationStateMachine.LoginScreen =
            Bool.random(using: &random) ? .thisDevice : .secondScreen(pollInterval: 5)
        var settings = MachineHarness.settings(
            partner: partner, loginScreen: screen, limit: [nil, 2, 5].randomElement(using: &random)!)
        // With a second screen, half the worlds let the person choose the provider there.
        if case .secondScreen = screen { settings.providerOnSecondScreen = Bool.random(using: &random) }
        settings.platform = Bool.random(using: &random) ? .iOS : .tvOS
        harness = MachineHarness(settings: settings)
        // Half the worlds start with the user signed in (a relaunch).
        if Bool.random(using: &random) {
            harness.profiles["REF30"] = RequestorProfiles(
                chosen: Bool.random(using: &random) ? harness.stored("Plain1") : partnerProfile())
        }
        record()
    }

    // MARK: Steps

    mutating func step() {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<40: command()
        case 40..<75: answer(allowTimers: true)
        case 75..<85: harness.drain()
        case 85..<90: harness.now.addTimeInterval(Double(Int.random(in: 1...600, using: &random)))
        case 90..<95: stale()
        case 95..<98: picker()
        default: harness.send(.signedOutByNewRegistration(["REF30"]))
        }
        checkQueue()
        record()
    }

    /// Everything under way answers, timers fire, until nothing is left; then the app ends
    /// what waits for a person (the user backs out; a logout page comes back).
    mutating func settle() {
        for _ in 0..<2_000 {
            harness.drain()
            record()
            if harness.children.isEmpty {
                switch harness.machine.authentication.state {
                case .idle: return
                case .awaitingLogoutRedirect: call(.handleExternalURL("adobepass://ios.app/logout"), .interactive)
                default: call(.setSelectedProvider(nil), .interactive)
                }
                continue
            }
            answer(allowTimers: true, settling: true)
            checkQueue()
            record()
        }
    }

    /// The app releases the AccessEnabler: the engine cancels every child task (their
    /// answers will never be read) and the machine hears that it was released.
    mutating func release() {
        harness.children.removeAll()
        harness.send(.released)
        record()
    }

    private mutating func call(_ command: Command, _ kind: CallKind) {
        let id = harness.call(command)
        calls[id] = kind
        log.append("#\(id.value) \(command)")
    }

    private mutating func command() {
        let resource = Self.resources.randomElement(using: &random)!
        switch Int.random(in: 0..<17, using: &random) {
        case 0, 1:
            call(
                .setRequestor(
                    ["REF30", "REF30", "REF30", "OTHER", " "].randomElement(using: &random)!, serviceProviders: nil),
                .setRequestor)
        case 2: call(.checkAuthentication, .checkAuthentication)
        case 3, 4:
            call(.getAuthentication(forceAuthn: Bool.random(using: &random), data: nil, filter: nil), .interactive)
        case 5, 6:
            call(
                .setSelectedProvider(
                    ["Plain1", "TempPass", "AppleBoarded", "Unknown", nil].randomElement(using: &random)!), .interactive
            )
        case 7:
            call(
                .handleExternalURL(
                    Bool.random(using: &random) ? "adobepass://ios.app/done" : "https://elsewhere.example/"),
                .interactive)
        case 8, 9: call(.checkAuthorization(resource, data: nil), .authorization)
        case 10: call(.getAuthorization(resource, data: nil), .authorization)
        case 11:
            call(
                .checkPreauthorizedResources(
                    Array(Self.resources.shuffled(using: &random).prefix(3)), cache: Bool.random(using: &random)),
                .preauthorized)
        case 12:
            call(
                .preauthorize(
                    PreauthorizeRequest(resources: [resource, "kids"]),
                    AccessEnablerCallback(onResponse: { _ in }, onFailure: { _ in })), .preauthorize)
        case 13: call(.logout, .interactive)
        case 14: call(.getSelectedProvider, .selectedProvider)
        case 15:
            call(
                .getMetadata(
                    [.authentication, .deviceID, .userMeta(name: "zip"), .authorization(resource: resource)]
                        .randomElement(using: &random)!,
                    arguments: MetadataArguments(dictionary: [:])), .metadata)
        default: call(.setOptions(SDKOptions()), .options)
        }
    }

    /// An answer for a ticket or flow nobody waits for: it must change nothing.
    private mutating func stale() {
        staleTicket += 1
        let ticket = RequestTicket(value: staleTicket)
        let flow = FlowID(value: staleTicket)
        let before = harness.delivered.count
        switch Int.random(in: 0..<7, using: &random) {
        case 0: harness.send(.decisionsAnswered(ticket, .success([MachineHarness.decision("news", permitted: true)])))
        case 1:
            harness.send(
                .sessionAnswered(
                    flow,
                    .success(SessionAction(actionName: .authenticate, actionType: .interactive, code: "X", url: "/x"))))
        case 2: harness.send(.pollAnswered(flow, .success([harness.profile("Plain1")])))
        case 3: harness.send(.flowConfigurationFetched(flow, .success(MachineHarness.catalog)))
        case 4: harness.send(.logoutPageTimedOut(ticket))
        case 5: harness.send(.configurationFetched(ticket, .success(MachineHarness.catalog)))
        default: harness.send(.logoutAnswered(ticket, .failure(.transport(operation: .logout, .timedOut))))
        }
        if harness.delivered.count != before { lateAnswerDelivered = true }
    }

    /// The system picker of an interactive partner sign-in opens or closes.
    private mutating func picker() {
        guard
            case .partnerSignIn(let flow)? = harness.children.first(where: {
                if case .partnerSignIn = $0 { true } else { false }
            })
        else { return }
        let dialog = TVProviderDialog(providers: ["AppleBoarded"], featured: [])
        harness.send(Bool.random(using: &random) ? .pickerPresented(flow, dialog) : .pickerDismissed(flow, dialog))
    }

    /// One outstanding child answers, with a random outcome.
    private mutating func answer(allowTimers: Bool, settling: Bool = false) {
        guard !harness.children.isEmpty else { return }
        let child = harness.children.remove(at: Int.random(in: 0..<harness.children.count, using: &random))
        let now = harness.now
        log.append("answer \(child)")
        switch child {
        case .loadRequestor(let ticket):
            let profileAnswers: [Result<[StoredProfile], RESTClientError>?] = [
                nil, .success([]), .success([]), .success([harness.stored("Plain1")]),
                .success([harness.stored("Plain1")]),
                .success([partnerProfile(), harness.stored("Plain1")]),
                .failure(.transport(operation: .profiles, .timedOut)),
                .failure(.throttled(operation: .profiles, retryAfter: nil)),
                .failure(
                    .server(
                        operation: .profiles, httpStatus: 400,
                        error: EnhancedError(status: 400, code: "invalid_parameter_service_provider"))),
            ]
            // The pending logouts went first; Adobe Pass confirms each, or not.
            let sent = harness.profiles[harness.requestor ?? "REF30"]?.pendingLogouts ?? []
            let load = RequestorLoad(
                profiles: profileAnswers.randomElement(using: &random)!, logoutsSent: sent,
                logoutsConfirmed: sent.filter { _ in chance(0.7) })
            harness.send(.requestorLoaded(ticket, load))
        case .refetch(let ticket):
            harness.send(
                .configurationFetched(
                    ticket,
                    chance(0.7)
                        ? .success(catalog())
                        : .failure(.server(operation: .configuration, httpStatus: 503, error: nil))))
        case .flowConfiguration(let flow):
            harness.send(
                .flowConfigurationFetched(
                    flow, chance(0.8) ? .success(catalog()) : .failure(.transport(operation: .configuration, .timedOut))
                ))
        case .logoutPageTimer(let ticket, let until):
            guard allowTimers else { return harness.children.append(child) }
            if harness.now < until { harness.now = until }
            harness.send(.logoutPageTimedOut(ticket))
        case .partner(let ticket):
            harness.send(.partnerAnswered(ticket, snapshot()))
        case .silentSignIn(let ticket):
            harness.send(.silentSignInFinished(ticket, chance(0.6) ? partnerProfile() : nil))
        case .partnerSignIn(let flow):
            let outcomes: [AuthenticationStateMachine.PartnerSignInOutcome] = [
                .showProviderDialog(nil), .showProviderDialog(StatusCatalog.status(.n005, message: "cancelled")),
                .regularLogin(mvpd: "Plain1", opened: nil),
                .regularLogin(
                    mvpd: "Plain1",
                    opened: SessionAction(
                        actionName: .authenticate, actionType: .interactive, code: "P", url: "/p", mvpd: "Plain1")),
                .signedIn(partnerProfile(), status: nil), .failed(StatusCatalog.status(.n500, message: "failed")),
            ]
            harness.send(.partnerSignInFinished(flow, outcomes.randomElement(using: &random)!))
        case .session(let flow):
            let answers: [Result<SessionAction, RESTClientError>] = [
                .success(
                    SessionAction(
                        actionName: .authenticate, actionType: .interactive, code: "C\(flow.value)",
                        url: "/authenticate", notAfter: now.addingTimeInterval(120))),
                .success(SessionAction(actionName: .authorize, actionType: .direct, reasonType: .temporary)),
                .success(SessionAction(actionName: .resume, actionType: .interactive)),
                // A session opened without an MVPD: the code for the second screen.
                .success(
                    SessionAction(
                        actionName: .resume, actionType: .direct, code: "R\(flow.value)", missingParameters: ["mvpd"],
                        notAfter: now.addingTimeInterval(120))),
                .failure(
                    .server(
                        operation: .createSession, httpStatus: 500,
                        error: EnhancedError(status: 500, code: "internal_server_error"))),
                .failure(
                    .server(
                        operation: .createSession, httpStatus: 403,
                        error: EnhancedError(
                            status: 403, code: "temporary_access_duration_limit_exceeded", action: "authentication"))),
                .failure(.transport(operation: .createSession, .timedOut)),
            ]
            harness.send(.sessionAnswered(flow, answers.randomElement(using: &random)!))
        case .sessionProfile(let flow):
            harness.send(
                .sessionProfileAnswered(
                    flow,
                    chance(0.7)
                        ? .success([
                            harness.profile(["TempPass", "Plain1"].randomElement(using: &random)!, type: .temporary)
                        ])
                        : chance(0.5) ? .success([]) : .failure(.transport(operation: .profileForMVPD, .timedOut))))
        case .pollTimer(let flow, let until):
            guard allowTimers else { return harness.children.append(child) }
            if harness.now < until { harness.now = until }
            harness.send(.pollDue(flow))
        case .poll(let flow):
            let answers: [Result<[ProfileAnswer], RESTClientError>] = [
                .success([harness.profile("Plain1")]), .success([]), .success([]),
                .failure(.throttled(operation: .profileForCode, retryAfter: nil)),
                .failure(.server(operation: .profileForCode, httpStatus: 404, error: nil)),
                .failure(.server(operation: .profileForCode, httpStatus: 500, error: nil)),
            ]
            harness.send(
                .pollAnswered(flow, settling && chance(0.5) ? answers[0] : answers.randomElement(using: &random)!))
        case .decisions(let ticket, _, let resources):
            harness.send(.decisionsAnswered(ticket, decisions(resources)))
        case .logout(let ticket):
            let answers: [Result<[LogoutAction], RESTClientError>] = [
                .success([LogoutAction(mvpd: "Plain1", actionName: .logout, actionType: .interactive, url: "/logout")]),
                // A single logout: two MVPDs' pages in one answer, opened one after another.
                .success([
                    LogoutAction(mvpd: "Plain1", actionName: .logout, actionType: .interactive, url: "/logout"),
                    LogoutAction(
                        mvpd: "TempPass", actionName: .logout, actionType: .interactive, url: "/logout-temppass"),
                ]),
                .success([
                    LogoutAction(mvpd: "AppleBoarded", actionName: .partnerLogout, actionType: .partnerInteractive)
                ]),
                .success([]), .failure(.transport(operation: .logout, .timedOut)),
            ]
            harness.send(
                .logoutAnswered(ticket, LogoutAnswers(byMVPD: [:], lead: answers.randomElement(using: &random)!)))
        }
    }

    private mutating func decisions(_ resources: [String]) -> Result<[Decision], RESTClientError> {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return .failure(
                .server(
                    operation: .authorize, httpStatus: 500,
                    error: EnhancedError(status: 500, code: "internal_server_error")))
        case 1: return .failure(.throttled(operation: .authorize, retryAfter: nil))
        case 2:
            return .failure(
                .server(
                    operation: .authorize, httpStatus: 403,
                    error: EnhancedError(status: 403, code: "authenticated_profile_expired", action: "authentication")))
        case 3:
            return .failure(
                .server(
                    operation: .authorize, httpStatus: 403,
                    error: EnhancedError(status: 403, code: "too_many_resources", action: "configuration")))
        case 4:
            return .failure(
                .server(
                    operation: .authorize, httpStatus: 500,
                    error: EnhancedError(status: 500, code: "invalid_configuration_platform", action: "configuration")))
        default:
            var answered: [Decision] = []
            for resource in resources {
                switch Int.random(in: 0..<5, using: &random) {
                case 0: continue  // missing from the answer
                case 1:
                    answered.append(
                        Decision(
                            resource: resource, authorized: false,
                            error: EnhancedError(
                                status: 403, code: "authorization_denied_by_session_invalidated",
                                action: "authentication"))
                    )
                case 2: answered.append(MachineHarness.decision(resource, permitted: false))
                default: answered.append(MachineHarness.decision(resource, permitted: true))
                }
            }
            return .success(answered)
        }
    }

    private mutating func snapshot() -> PartnerSnapshot {
        let account = PartnerAccountMetadata(
            accountProviderIdentifier: "AppleBoarded",
            authenticationExpirationDate: harness.now.addingTimeInterval(3_600), samlResponse: nil)
        let snapshots = [
            PartnerSnapshot(access: .granted, account: account, metadataError: nil),
            PartnerSnapshot(access: .granted, account: nil, metadataError: nil),
            PartnerSnapshot(access: .denied, account: nil, metadataError: nil),
            PartnerSnapshot(access: .notDetermined, account: nil, metadataError: nil),
            PartnerSnapshot.timedOut,
        ]
        return snapshots.randomElement(using: &random)!
    }

    private func partnerProfile() -> StoredProfile {
        var profile = harness.stored("AppleBoarded", type: .appleSSO)
        profile.tokenSource = "Apple"
        profile.partnerProviderID = "AppleBoarded"
        return profile
    }

    private func catalog() -> RequestorCatalog {
        let id = harness.requestor ?? "REF30"
        guard id != "REF30" else { return MachineHarness.catalog }
        return RequestorCatalog(requestor: id, merging: [])
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    // MARK: Invariants

    /// Set when a late answer for abandoned work delivered something.
    private(set) var lateAnswerDelivered = false
    /// Set when calls waited while nothing was under way.
    private(set) var queueStuck = false

    private mutating func checkQueue() {
        let machine = harness.machine
        if !machine.queue.isEmpty, machine.foreground == nil, !machine.authentication.awaitsServer { queueStuck = true }
    }

    private mutating func record() {
        visited.insert(Self.state(of: harness.machine.authentication.state))
        visited.insert(Self.state(of: harness.machine.foreground))
        if !harness.machine.queue.isEmpty { visited.insert("queue.waiting") }
    }

    static func state(of state: AuthenticationStateMachine.State) -> String {
        switch state {
        case .idle: "auth.idle"
        case .awaitingConfiguration(_, .providerChoice): "auth.awaitingConfiguration.providerChoice"
        case .awaitingConfiguration(_, .selectedProvider): "auth.awaitingConfiguration.selectedProvider"
        case .choosingProvider: "auth.choosingProvider"
        case .signingInThroughPartner: "auth.signingInThroughPartner"
        case .openingSession(_, _, .creating): "auth.openingSession.creating"
        case .openingSession(_, _, .fetchingProfile): "auth.openingSession.fetchingProfile"
        case .awaitingRedirect: "auth.awaitingRedirect"
        case .polling: "auth.polling"
        case .loggingOut: "auth.loggingOut"
        case .awaitingLogoutRedirect(_, _, let remaining):
            remaining.isEmpty ? "auth.awaitingLogoutRedirect" : "auth.awaitingLogoutRedirect.more"
        }
    }

    static func state(of foreground: EngineStateMachine.Foreground?) -> String {
        switch foreground {
        case nil: "foreground.none"
        case .requestor(.loading)?: "foreground.requestor.loading"
        case .requestor(.loadingConfiguration)?: "foreground.requestor.loadingConfiguration"
        case .requestor(.checkingPartner)?: "foreground.requestor.checkingPartner"
        case .requestor(.checkingPartnerFirst)?: "foreground.requestor.checkingPartnerFirst"
        case .requestor(.signingInSilently)?: "foreground.requestor.signingInSilently"
        case .awaitingPartner?: "foreground.awaitingPartner"
        case .authorizing(let round)?:
            round.isGathering ? "foreground.authorizing.gathering" : "foreground.authorizing.asking"
        case .preauthorizing(let round)?:
            round.isGathering ? "foreground.preauthorizing.gathering" : "foreground.preauthorizing.asking"
        }
    }

    /// What broke, if anything, once everything has answered.
    func problems() -> [String] {
        var problems: [String] = []
        if lateAnswerDelivered { problems.append("a late answer for abandoned work delivered a callback") }
        if queueStuck { problems.append("calls waited while nothing was under way") }
        if !harness.children.isEmpty { problems.append("children never answered: \(harness.children)") }
        if harness.machine.isBusy { problems.append("still busy after everything answered") }
        if harness.turnHeld { problems.append("the facade's turn is still held") }
        for (call, kind) in calls.sorted(by: { $0.key.value < $1.key.value }) {
            let got = harness.callbacks(of: call)
            if let problem = Self.problem(got, kind) {
                problems.append("call \(call.value) (\(kind)): \(problem): \(got.map(MachineHarness.signature))")
            }
        }
        return problems
    }

    /// Whether `callbacks` end a call of `kind` as documented.
    static func problem(_ callbacks: [DelegateCall], _ kind: CallKind) -> String? {
        func count(_ matches: (DelegateCall) -> Bool) -> Int { callbacks.filter(matches).count }
        let authenticationStatuses = count { if case .setAuthenticationStatus = $0 { true } else { false } }
        if authenticationStatuses > 1 { return "two setAuthenticationStatus" }
        let terminal: (DelegateCall) -> Bool
        switch kind {
        case .options: return callbacks.isEmpty ? nil : "setOptions delivers nothing"
        case .interactive:
            let handOvers = count {
                switch $0 {
                case .displayProviderDialog, .navigateToUrl, .navigateToUrlUsingSVC: true
                case .status(let status): status.errorId == .regcode
                default: false
                }
            }
            return authenticationStatuses + handOvers >= 1 ? nil : "no end"
        case .setRequestor: terminal = { if case .setRequestorComplete = $0 { true } else { false } }
        case .checkAuthentication: terminal = { if case .setAuthenticationStatus = $0 { true } else { false } }
        case .authorization:
            terminal = { if case .setToken = $0 { true } else if case .tokenRequestFailed = $0 { true } else { false } }
        case .preauthorized: terminal = { if case .preauthorizedResources = $0 { true } else { false } }
        case .preauthorize: terminal = { if case .preauthorizeResult = $0 { true } else { false } }
        case .selectedProvider: terminal = { if case .selectedProvider = $0 { true } else { false } }
        case .metadata: terminal = { if case .setMetadataStatus = $0 { true } else { false } }
        }
        let terminals = count(terminal)
        if terminals != 1 { return "\(terminals) terminal callbacks" }
        if let last = callbacks.last, !terminal(last) { return "a callback after its end" }
        return nil
    }
}
