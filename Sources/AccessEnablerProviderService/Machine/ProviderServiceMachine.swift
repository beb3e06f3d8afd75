import Foundation

/// The provider service's decisions, with no I/O: requests and the results of the service's
/// own work come in as events, and what to do comes out as actions (answer this request,
/// tell the subscribers, save, run the prompt, ask the identity service, set a timer). The
/// driver (``ProviderService``) carries the actions out and posts their results back.
///
/// The rules it keeps:
/// - an app's permission answers `accessStatus`; a prompt asks the person through the
///   device's hook, once per app at a time, and every request waiting on it gets the answer;
/// - `accountMetadata` answers a permitted app from the household's sign-in; with a SAML
///   request it asks the provider's identity service for the SAML response;
/// - with nobody signed in, an interactive request starts the household sign-in (or joins
///   the one under way) and waits for the person, at most as long as it asked; waiting
///   ends in the sign-in's answer, or in `userCancelled` naming the code to type;
/// - a sign-in under way goes on after its waiters gave up, until its code expires: the
///   person may finish it, and every app's next check finds it;
/// - a sign-out forgets the sign-in at once, saves, revokes the credential and tells the
///   subscribers.
package struct ProviderServiceMachine: Sendable {
    /// What the machine is told.
    package enum Event: Sendable {
        /// A request read from a connection.
        case request(Ticket, ServiceRequest, PeerRole)
        /// The device's prompt ended: the person's answer, or `nil` (dismissed, no answer in time).
        case promptAnswered(AppIdentity, AppPermission?)
        /// The identity service opened a household sign-in, or could not.
        case signInCodeIssued(Result<IssuedSignInCode, IdentityProviderFailure>)
        /// The time for the next poll of the sign-in under way has come.
        case pollDue
        /// A poll's result.
        case signInPolled(Result<HouseholdPollOutcome, IdentityProviderFailure>)
        /// The SAML response for the request `Ticket`, or why there is none.
        case samlAnswered(Ticket, Result<String, IdentityProviderFailure>)
        /// The time a request may wait for the person has passed.
        case waitEnded(Ticket)
        /// A connection closed: its requests are answered to nobody.
        case connectionClosed(Int)
    }

    /// What the driver does.
    package enum Action: Sendable, Equatable {
        /// Answers the request.
        case answer(Ticket, ServiceAnswer)
        /// Tells every subscriber.
        case broadcast(ServiceEvent)
        /// The connection receives events from now on.
        case subscribe(connection: Int)
        /// Saves the household's sign-in and the permissions (one file, replaced at once).
        case save(StoredServiceState)
        /// Asks the person, through the device's prompt hook, whether the app may use the sign-in.
        case runPrompt(AppIdentity)
        /// Asks the identity service for a household sign-in code.
        case requestSignInCode(supported: [String], featured: [String])
        /// Posts ``Event/pollDue`` after this many seconds.
        case schedulePoll(after: TimeInterval)
        /// Polls the identity service for the sign-in with this device code.
        case pollSignIn(deviceCode: String)
        /// Posts ``Event/waitEnded(_:)`` for the request at this time.
        case scheduleWaitEnd(Ticket, at: Date)
        /// Asks the identity service for the SAML response to `samlRequest`.
        case askSAML(Ticket, samlRequest: String, credential: String)
        /// Ends the credential at the identity service (best effort).
        case revoke(credential: String)
        /// Tells the device's owner that a code is ready (the log, the device's screen).
        case announce(SignInCode)
    }

    /// What the driver chose at start.
    package struct Settings: Sendable {
        /// A prompt hook is configured: prompting asks the person.
        package var canPrompt: Bool
        /// How long an interactive request waits for the person when it does not say.
        package var defaultWait: TimeInterval
        /// The longest any request may wait.
        package var maximumWait: TimeInterval
        /// The most requests that may wait for the person at once.
        package var maximumWaiters: Int

        package init(
            canPrompt: Bool, defaultWait: TimeInterval = 300, maximumWait: TimeInterval = 900, maximumWaiters: Int = 64
        ) {
            self.canPrompt = canPrompt
            self.defaultWait = defaultWait
            self.maximumWait = maximumWait
            self.maximumWaiters = maximumWaiters
        }
    }

    /// A request waiting for the household sign-in.
    struct Waiter: Sendable {
        let ticket: Ticket
        let question: ServiceRequest.MetadataQuestion
    }

    /// The household sign-in under way.
    struct SignInUnderWay: Sendable {
        /// `nil` while the identity service is asked for the code.
        var issued: IssuedSignInCode?
        /// Interactive requests waiting for its end.
        var waiters: [Waiter] = []
        /// Administrators' `signIn` requests waiting for the code.
        var codeWaiters: [Ticket] = []
    }

    package private(set) var household: HouseholdSignIn?
    package private(set) var permissions: [AppIdentity: AppPermission]
    private(set) var signIn: SignInUnderWay?
    /// Requests waiting for the prompt of each app.
    private var prompts: [AppIdentity: [Ticket]] = [:]
    /// Requests waiting for a SAML response, with what they asked and the sign-in asked about.
    private var samlWaits: [Ticket: (question: ServiceRequest.MetadataQuestion, household: HouseholdSignIn)] = [:]
    private let settings: Settings

    /// A machine starting from what the store kept.
    package init(settings: Settings, stored: StoredServiceState) {
        self.settings = settings
        household = stored.household
        permissions = stored.permissions
    }

    /// The sign-in under way, once its code is known.
    package var pendingCode: SignInCode? { signIn?.issued?.code }

    /// What the store keeps.
    package var stored: StoredServiceState { StoredServiceState(household: household, permissions: permissions) }

    // MARK: Events

    /// Handles `event` at `now`; returns what to do, in order.
    package mutating func handle(_ event: Event, now: Date) -> [Action] {
        switch event {
        case .request(let ticket, let request, let role): return handle(request, ticket: ticket, role: role, now: now)
        case .promptAnswered(let app, let answer): return promptEnded(app, answer: answer)
        case .signInCodeIssued(let result): return codeIssued(result)
        case .pollDue: return pollDue(now: now)
        case .signInPolled(let result): return polled(result, now: now)
        case .samlAnswered(let ticket, let result): return samlAnswered(ticket, result)
        case .waitEnded(let ticket): return waitEnded(ticket)
        case .connectionClosed(let connection): return connectionClosed(connection)
        }
    }

    private mutating func handle(_ request: ServiceRequest, ticket: Ticket, role: PeerRole, now: Date) -> [Action] {
        if request.needsAdministrator, role != .administrator {
            return [
                .answer(
                    ticket,
                    .failure(
                        ServiceError(
                            .notPermitted,
                            "Only the service's own user (or root) may ask this; apps ask hello, accessStatus, "
                                + "accountMetadata and subscribe."
                        )))
            ]
        }
        switch request {
        case .hello:
            return [.answer(ticket, .hello)]
        case .subscribe:
            return [.subscribe(connection: ticket.connection), .answer(ticket, .subscribed)]
        case .status:
            let list = permissions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return [
                .answer(ticket, .status(ServiceStatus(household: household, signIn: pendingCode, permissions: list)))
            ]
        case .changePermission(let app, let change):
            return changePermission(app, to: change.permission, ticket: ticket)
        case .signIn(let supported, let featured):
            if let code = pendingCode { return [.answer(ticket, .signInCode(code))] }
            if signIn != nil {
                signIn?.codeWaiters.append(ticket)
                return []
            }
            signIn = SignInUnderWay(codeWaiters: [ticket])
            return [.requestSignInCode(supported: supported, featured: featured)]
        case .signOut:
            guard let ended = household else { return [.answer(ticket, .signedOut(wasSignedIn: false))] }
            household = nil
            return [
                .save(stored), .revoke(credential: ended.credential), .broadcast(.signedOut),
                .answer(ticket, .signedOut(wasSignedIn: true)),
            ]
        case .accessStatus(let app, let prompt):
            let permission = permissions[app] ?? .notDetermined
            guard permission == .notDetermined, prompt, settings.canPrompt else {
                return [.answer(ticket, .accessStatus(permission))]
            }
            let asking = prompts[app] != nil
            prompts[app, default: []].append(ticket)
            return asking ? [] : [.runPrompt(app)]
        case .accountMetadata(let app, let question):
            return accountMetadata(app, question, ticket: ticket, now: now)
        }
    }

    // MARK: Permissions

    private mutating func changePermission(
        _ app: AppIdentity, to permission: AppPermission, ticket: Ticket
    ) -> [Action] {
        permissions[app] = permission == .notDetermined ? nil : permission
        var actions: [Action] = [
            .save(stored), .broadcast(.permissionChanged(app, permission)),
            .answer(ticket, .permission(app, permission)),
        ]
        // Requests waiting on this app's prompt get the administrator's answer.
        if permission != .notDetermined, let waiting = prompts.removeValue(forKey: app) {
            actions += waiting.map { .answer($0, .accessStatus(permission)) }
        }
        return actions
    }

    private mutating func promptEnded(_ app: AppIdentity, answer: AppPermission?) -> [Action] {
        guard let waiting = prompts.removeValue(forKey: app) else { return [] }
        var actions: [Action] = []
        if let answer, answer != .notDetermined, permissions[app] == nil {
            permissions[app] = answer
            actions += [.save(stored), .broadcast(.permissionChanged(app, answer))]
        }
        let permission = permissions[app] ?? .notDetermined
        return actions + waiting.map { .answer($0, .accessStatus(permission)) }
    }

    // MARK: Account metadata

    private mutating func accountMetadata(
        _ app: AppIdentity, _ question: ServiceRequest.MetadataQuestion, ticket: Ticket, now: Date
    ) -> [Action] {
        let permission = permissions[app] ?? .notDetermined
        guard permission == .granted else {
            return [
                .answer(
                    ticket,
                    .failure(
                        ServiceError(
                            .accessNotGranted,
                            "\(app.name) may not use this device's TV provider sign-in: its permission is "
                                + "\(permission.rawValue). An administrator "
                                + "grants it with `accessenabler provider-service grant`.")))
            ]
        }
        if let household {
            if household.isValid(at: now) { return answer(question, from: household, ticket: ticket) }
            // An expired sign-in still names its provider to a silent read, as Video
            // Subscriber Account does with an expired device token; the app decides.
            if !question.isInterruptionAllowed, question.samlRequest == nil {
                return [.answer(ticket, Self.metadata(question, household))]
            }
        }
        guard question.isInterruptionAllowed else {
            return [.answer(ticket, .metadata(provider: nil, expiresAt: nil, samlResponse: nil))]
        }
        let waiting = signIn?.waiters.count ?? 0
        guard waiting < settings.maximumWaiters else {
            return [
                .answer(
                    ticket,
                    .failure(
                        ServiceError(.busy, "Too many apps are waiting for the TV provider sign-in; try again shortly.")
                    ))
            ]
        }
        let seconds = min(question.waitSeconds ?? settings.defaultWait, settings.maximumWait)
        var actions: [Action] = []
        if signIn == nil {
            signIn = SignInUnderWay()
            actions.append(
                .requestSignInCode(
                    supported: question.supportedAccountProviderIdentifiers,
                    featured: question.featuredAccountProviderIdentifiers))
        }
        signIn?.waiters.append(Waiter(ticket: ticket, question: question))
        actions.append(.scheduleWaitEnd(ticket, at: now.addingTimeInterval(seconds)))
        return actions
    }

    /// The answer for a valid sign-in: at once, or after the identity service's SAML response.
    private mutating func answer(
        _ question: ServiceRequest.MetadataQuestion, from household: HouseholdSignIn, ticket: Ticket
    ) -> [Action] {
        guard let samlRequest = question.samlRequest else {
            return [.answer(ticket, Self.metadata(question, household))]
        }
        samlWaits[ticket] = (question, household)
        return [.askSAML(ticket, samlRequest: samlRequest, credential: household.credential)]
    }

    private static func metadata(
        _ question: ServiceRequest.MetadataQuestion, _ household: HouseholdSignIn, saml: String? = nil
    ) -> ServiceAnswer {
        .metadata(
            provider: question.includeAccountProviderIdentifier ? household.provider : nil,
            expiresAt: question.includeAuthenticationExpirationDate ? household.expiresAt : nil, samlResponse: saml)
    }

    private mutating func samlAnswered(
        _ ticket: Ticket, _ result: Result<String, IdentityProviderFailure>
    ) -> [Action] {
        guard let (question, asked) = samlWaits.removeValue(forKey: ticket) else { return [] }
        switch result {
        case .success(let saml):
            return [.answer(ticket, Self.metadata(question, asked, saml: saml))]
        case .failure(.refusedCredential):
            // The provider ended the sign-in: it is over for every app.
            var actions: [Action] = []
            if household?.credential == asked.credential {
                household = nil
                actions += [.save(stored), .broadcast(.signedOut)]
            }
            return actions + [
                .answer(
                    ticket, .failure(ServiceError(.providerRejected, IdentityProviderFailure.refusedCredential.message))
                )
            ]
        case .failure(.unknownSAMLRequest):
            return [
                .answer(
                    ticket,
                    .failure(
                        ServiceError(.invalidVerificationToken, IdentityProviderFailure.unknownSAMLRequest.message)))
            ]
        case .failure(.providerRejected(let reason)):
            return [.answer(ticket, .failure(ServiceError(.providerRejected, reason)))]
        case .failure(let failure):
            return [.answer(ticket, .failure(ServiceError(.serviceTemporarilyUnavailable, failure.message)))]
        }
    }

    // MARK: The household sign-in

    private mutating func codeIssued(_ result: Result<IssuedSignInCode, IdentityProviderFailure>) -> [Action] {
        guard var underWay = signIn, underWay.issued == nil else { return [] }
        switch result {
        case .success(let issued):
            underWay.issued = issued
            let codeWaiters = underWay.codeWaiters
            underWay.codeWaiters = []
            signIn = underWay
            return [.announce(issued.code), .broadcast(.signInStarted(issued.code))]
                + codeWaiters.map { .answer($0, .signInCode(issued.code)) }
                + [.schedulePoll(after: issued.interval)]
        case .failure(let failure):
            signIn = nil
            let error = ServiceError(.serviceTemporarilyUnavailable, failure.message)
            return (underWay.codeWaiters + underWay.waiters.map(\.ticket)).map { .answer($0, .failure(error)) }
        }
    }

    private mutating func pollDue(now: Date) -> [Action] {
        guard let issued = signIn?.issued else { return [] }
        guard now < issued.code.expiresAt else { return ended(.expired) }
        return [.pollSignIn(deviceCode: issued.deviceCode)]
    }

    private mutating func polled(
        _ result: Result<HouseholdPollOutcome, IdentityProviderFailure>, now: Date
    ) -> [Action] {
        guard let underWay = signIn, let issued = underWay.issued else { return [] }
        switch result {
        case .success(.pending), .failure:
            // A failed poll is tried again: the code's lifetime and each waiter's own bound end it.
            guard now < issued.code.expiresAt else { return ended(.expired) }
            return [.schedulePoll(after: issued.interval)]
        case .success(.signedIn(let new)):
            signIn = nil
            let previous = household
            household = new
            var actions: [Action] = [
                .save(stored),
                .broadcast(.signedIn(provider: new.provider, providerName: new.providerName, expiresAt: new.expiresAt)),
            ]
            if let previous, previous.credential != new.credential {
                actions.append(.revoke(credential: previous.credential))
            }
            for waiter in underWay.waiters { actions += answer(waiter.question, from: new, ticket: waiter.ticket) }
            return actions
        case .success(let outcome):
            return ended(outcome)
        }
    }

    /// Ends the sign-in under way without a household sign-in, answering its waiters.
    private mutating func ended(_ outcome: HouseholdPollOutcome) -> [Action] {
        guard let underWay = signIn else { return [] }
        signIn = nil
        let code = underWay.issued?.code
        let reason: String
        let answer: ServiceAnswer
        switch outcome {
        case .chosenOnly(let provider):
            reason = "chosenOnly"
            answer = .metadata(provider: provider, expiresAt: nil, samlResponse: nil)
        case .otherProvider:
            reason = "otherProvider"
            answer = .failure(
                ServiceError(.otherProviderSelected, "The person chose Other TV Provider on the sign-in page."))
        case .cancelled:
            reason = "cancelled"
            answer = .failure(ServiceError(.userCancelled, "The person cancelled the TV provider sign-in."))
        case .expired, .pending, .signedIn:
            reason = "expired"
            let shown = code.map { " \($0.code)" } ?? ""
            answer = .failure(
                ServiceError(
                    .userCancelled, "Nobody signed this device in to a TV provider before the code\(shown) expired."))
        }
        return [.broadcast(.signInEnded(reason: reason))] + underWay.waiters.map { .answer($0.ticket, answer) }
    }

    private mutating func waitEnded(_ ticket: Ticket) -> [Action] {
        guard let index = signIn?.waiters.firstIndex(where: { $0.ticket == ticket }) else { return [] }
        signIn?.waiters.remove(at: index)
        let code = pendingCode
        let message =
            code.map {
                "Nobody has signed this device in to a TV provider yet. To sign in, open \($0.url) "
                    + "and type the code \($0.code)."
            }
            ?? "Nobody has signed this device in to a TV provider yet."
        return [.answer(ticket, .failure(ServiceError(.userCancelled, message, signIn: code)))]
    }

    private mutating func connectionClosed(_ connection: Int) -> [Action] {
        signIn?.waiters.removeAll { $0.ticket.connection == connection }
        signIn?.codeWaiters.removeAll { $0.connection == connection }
        for app in prompts.keys { prompts[app]?.removeAll { $0.connection == connection } }
        samlWaits = samlWaits.filter { $0.key.connection != connection }
        // A prompt already asked stays asked: its answer is still kept.
        return []
    }
}

/// Where an answer goes: the connection a request came on, and the request's id.
package struct Ticket: Hashable, Sendable {
    package var connection: Int
    package var id: RequestID

    package init(connection: Int, id: RequestID) {
        self.connection = connection
        self.id = id
    }
}

/// What a connected process may ask, judged from its user (``PeerPolicy``).
package enum PeerRole: Sendable, Equatable {
    /// An app: `hello`, `accessStatus`, `accountMetadata`, `subscribe`.
    case app
    /// The service's own user or root: everything, `status`, `grant`, `signOut` … too.
    case administrator
}

/// What the service keeps on disk.
package struct StoredServiceState: Sendable, Equatable {
    package var household: HouseholdSignIn?
    package var permissions: [AppIdentity: AppPermission]

    package init(household: HouseholdSignIn? = nil, permissions: [AppIdentity: AppPermission] = [:]) {
        self.household = household
        self.permissions = permissions
    }
}
