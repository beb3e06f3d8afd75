import Foundation

extension EngineStateMachine {
    /// `checkAuthorization` (an authenticated user only) and `getAuthorization`
    /// (authenticating first when needed).
    mutating func authorization(_ work: VerdictWork, _ step: inout Step) {
        let (resource, call): (String, CallID?) =
            switch work {
            case .checkAuthorization(let resource, let call), .getAuthorization(let resource, _, let call):
                (resource, call)
            default: ("", nil)
            }
        if let problem = requestorProblem {
            step.deliver(.status(problem), to: call)
            step.deliver(
                .tokenRequestFailed(
                    resource, errorCode: problem.errorId.authorizationErrorCode, description: problem.message ?? ""),
                to: call)
            return
        }
        withVerdict(work, &step)
    }

    /// Starts a round of authorizations with `call` (an authenticated user's); calls that
    /// arrive while it gathers join it.
    mutating func authorize(
        _ call: AuthorizationRound.Call, profile: StoredProfile, snapshot: PartnerSnapshot?, _ step: inout Step
    ) {
        foreground = .authorizing(
            AuthorizationRound(
                first: call, profile: profile,
                partnerStatus: decisionPartnerStatus(for: profile, snapshot: snapshot, step.facts), snapshot: snapshot))
        sendFullRequests(&step)
    }

    /// Sends the requests of the round being gathered that are full: they wait for nothing.
    private mutating func sendFullRequests(_ step: inout Step) {
        guard case .authorizing(var round)? = foreground, round.isGathering else { return }
        let full = round.takeFullRequests(limit: settings.authorizationLimit)
        guard !full.isEmpty else { return }
        foreground = .authorizing(round)
        for resources in full { send(AuthorizationRound.Request(resources: resources, attempt: 1), &step) }
    }

    /// Whether the waiting `work` can join the round being gathered (an authorization of the
    /// same signed-in user), and does so.
    mutating func joinGatheredRound(_ work: Work, _ step: inout Step) -> Bool {
        guard case .command(let command, let call) = work else { return false }
        switch (foreground, command) {
        case (.authorizing(var round)?, .checkAuthorization(let resource, let data)),
            (.authorizing(var round)?, .getAuthorization(let resource, let data)):
            guard round.isGathering, requestorProblem == nil,
                judgedSignedIn(step.facts, snapshot: round.snapshot) == round.profile
            else { return false }
            rememberTempPassIdentity(data, &step)
            round.join(AuthorizationRound.Call(resource: resource, owner: call))
            foreground = .authorizing(round)
            sendFullRequests(&step)
            return true
        case (.preauthorizing(var round)?, .checkPreauthorizedResources(let resources, let cache)):
            guard round.isGathering, requestorProblem == nil,
                judgedSignedIn(step.facts, snapshot: round.snapshot) == round.profile
            else { return false }
            round.join(
                PreauthorizationRound.Call(
                    owner: call, answer: .legacy, ledger: ledger(resources, useCache: cache, step.facts)))
            foreground = .preauthorizing(round)
            return true
        case (.preauthorizing(var round)?, .preauthorize(let request, let callback)):
            guard round.isGathering, requestorProblem == nil,
                judgedSignedIn(step.facts, snapshot: round.snapshot) == round.profile
            else { return false }
            round.join(
                PreauthorizationRound.Call(
                    owner: call, answer: .preauthorizeAPI(callback),
                    ledger: ledger(request.resources, useCache: request.isEnabled(.LOCAL_CACHE), step.facts)))
            foreground = .preauthorizing(round)
            return true
        default:
            return false
        }
    }

    /// The valid profile, judged now with the partner answer a round was judged with —
    /// `nil` when there is none, or when judging would need a fresh partner answer.
    private func judgedSignedIn(_ facts: EngineFacts, snapshot: PartnerSnapshot?) -> StoredProfile? {
        let profile = facts.currentProfile
        if snapshot == nil,
            AuthenticationCheck.needsPartner(
                profile: profile, catalog: facts.catalog, partnerConfigured: settings.partnerConfigured,
                now: facts.adobeNow)
        {
            return nil
        }
        return AuthenticationCheck.verdict(
            profile: profile, catalog: facts.catalog, snapshot: snapshot, now: facts.adobeNow
        ).profile
    }

    /// Whether a round is gathering calls.
    var isGathering: Bool {
        switch foreground {
        case .authorizing(let round)?: round.isGathering
        case .preauthorizing(let round)?: round.isGathering
        default: false
        }
    }

    /// The mailbox is empty while a round gathers: the round waits for the quiet window
    /// (``AuthorizationRound/quietWindow``), which each new event restarts, before its last
    /// requests go out (or, when every request it gathered was full and has gone, before it
    /// stops taking calls).
    mutating func awaitQuietWindow(_ step: inout Step) {
        guard isGathering else { return }
        quietWindowOpen = true
        step.actions.append(.awaitQuietWindow)
    }

    /// The gathering ends (no event came for the quiet window, or a call that cannot join
    /// is waiting): the round's requests go out.
    mutating func sendGatheredWork(_ step: inout Step) {
        if quietWindowOpen {
            quietWindowOpen = false
            step.actions.append(.endQuietWindow)
        }
        switch foreground {
        case .authorizing(var round)? where round.isGathering:
            let batches = round.close(limit: settings.authorizationLimit)
            foreground = .authorizing(round)
            for resources in batches { send(AuthorizationRound.Request(resources: resources, attempt: 1), &step) }
            // Every request was full and has answered already.
            if case .authorizing(let current)? = foreground, current.isComplete { finish(current, &step) }
        case .preauthorizing(var round)? where round.isGathering:
            round.close(limit: [settings.preauthorizationLimit, learnedPreauthorizationLimit].compactMap { $0 }.min())
            foreground = .preauthorizing(round)
            askNextPreauthorizationBatch(&step)
        default:
            break
        }
    }

    /// Sends one request of the authorization round (once the clock reads `notBefore`, when given).
    private mutating func send(_ request: AuthorizationRound.Request, notBefore: Date? = nil, _ step: inout Step) {
        guard case .authorizing(var round)? = foreground else { return }
        let ticket = newTicket()
        round.sent(request, as: ticket)
        foreground = .authorizing(round)
        step.actions.append(
            .requestDecisions(
                ticket, .authorize, resources: request.resources,
                target(mvpd: round.profile.mvpd, partnerStatus: round.partnerStatus, step.facts),
                notBefore: notBefore))
    }

    /// Sends again the request that waited for the configuration refetch `ticket`.
    mutating func resend(_ ticket: RequestTicket, _ step: inout Step) {
        guard case .authorizing(var round)? = foreground, let request = round.takeRefetched(ticket) else { return }
        foreground = .authorizing(round)
        send(request, &step)
    }

    /// A decisions request answered.
    mutating func decisionsAnswered(
        _ ticket: RequestTicket, _ result: Result<[Decision], RESTClientError>, _ step: inout Step
    ) {
        switch foreground {
        case .authorizing(var round)?:
            guard let request = round.answered(ticket) else { return }
            foreground = .authorizing(round)
            switch result {
            case .success(let decisions):
                let again = round.recordAnswer(decisions, for: request)
                foreground = .authorizing(round)
                // Decisions whose error asks for it go again together, after the back-off's wait.
                let notBefore = step.facts.now.addingTimeInterval(round.retries.wait(before: again))
                for start in stride(from: 0, to: again.count, by: settings.authorizationLimit) {
                    let batch = Array(again[start..<min(start + settings.authorizationLimit, again.count)])
                    send(
                        AuthorizationRound.Request(resources: batch, attempt: request.attempt), notBefore: notBefore,
                        &step)
                }
            case .failure(let error) where error.advice == .tooManyResources && request.resources.count > 1:
                // More resources than the integration allows: each on its own.
                for resource in request.resources {
                    send(AuthorizationRound.Request(resources: [resource], attempt: request.attempt), &step)
                }
            case .failure(let error) where error.advice?.asksForConfiguration == true && request.attempt == 1:
                // A dashboard change the cached configuration does not know: fetch it, then ask once more.
                let refetch = newTicket()
                round.awaitRefetch(request, as: refetch)
                foreground = .authorizing(round)
                step.actions.append(
                    .fetchConfiguration(refetch, requestor: round.profile.requestor, serviceProviders: serviceProviders)
                )
            case .failure(let error):
                round.record(error, for: request)
                foreground = .authorizing(round)
            }
            if case .authorizing(let current)? = foreground, current.isComplete { finish(current, &step) }
        case .preauthorizing?:
            preauthorizationAnswered(ticket, result, &step)
        default:
            break
        }
    }

    /// Every request of the round answered: each call gets its callbacks, in call order.
    private mutating func finish(_ round: AuthorizationRound, _ step: inout Step) {
        foreground = nil
        var signedOut = false
        for call in round.calls {
            tell(call, round.outcomes[call.resource] ?? .missing, round: round, signedOut: &signedOut, &step)
        }
    }

    /// One call's callbacks: status (when one explains), tracking, then `setToken` or
    /// `tokenRequestFailed`. A sign-in that Adobe Pass says is over goes (once), and the
    /// call reports it as such.
    private mutating func tell(
        _ call: AuthorizationRound.Call, _ outcome: AuthorizationRound.Outcome, round: AuthorizationRound,
        signedOut: inout Bool, _ step: inout Step
    ) {
        let resource = call.resource
        let profile = round.profile
        let tracking = settings.tracking
        switch outcome {
        case .missing:
            step.deliver(
                .status(StatusCatalog.status(.z500, message: StatusSentences.noDecision(resource), resource: resource)),
                to: call.owner)
            step.deliver(
                .tokenRequestFailed(
                    resource, errorCode: GENERIC_AUTHORIZATION_ERROR, description: StatusSentences.noDecisionReturned),
                to: call.owner)
        case .failure(let error):
            // The dashboard ended the integration: "not authenticated" with that MVPD.
            if let ended = integrationEnded(error.enhancedError, mvpd: profile.mvpd, resource: resource, &step) {
                let (code, details) = (error.enhancedError?.code ?? "", error.enhancedError?.details ?? "")
                step.deliver(.status(ended), to: call.owner)
                let tracked = tracking.authorization(success: false, profile: profile, error: code, details: details)
                step.deliver(tracked, to: call.owner)
                let failed = DelegateCall.tokenRequestFailed(
                    resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: ended.message ?? "")
                step.deliver(failed, to: call.owner)
                return
            }
            if let ended = signInEnded(error.enhancedError, resource: resource, signedOut: &signedOut, &step) {
                step.deliver(.status(ended), to: call.owner)
                step.deliver(
                    tracking.authorization(
                        success: false, profile: profile, error: error.enhancedError?.code ?? StatusID.n130.description,
                        details: error.enhancedError?.details ?? ""),
                    to: call.owner)
                step.deliver(
                    .tokenRequestFailed(
                        resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: ended.message ?? ""),
                    to: call.owner)
                return
            }
            // A refusal about the MVPD or the resource (Z100 — throttling too —, Z120, Z130,
            // Z169) is "not authorized" even when it came for the whole request; only
            // failures with no published reason (Z500) are generic.
            let status = ErrorClassification.authorizationStatus(error, resource: resource)
            step.deliver(.status(status), to: call.owner)
            step.deliver(
                tracking.authorization(
                    success: false, profile: profile, error: status.errorId.description, details: error.message),
                to: call.owner)
            step.deliver(
                .tokenRequestFailed(
                    resource, errorCode: status.errorId.authorizationErrorCode, description: error.message),
                to: call.owner)
        case .decision(let decision):
            if decision.authorized, let token = decision.token {
                let adobeNow = step.facts.adobeNow
                step.actions.append(
                    .storeMediaToken(
                        StoredAuthorization(
                            requestor: profile.requestor, mvpd: profile.mvpd, resource: resource,
                            serializedToken: token.serializedToken,
                            notBefore: token.notBefore ?? adobeNow,
                            notAfter: token.notAfter ?? decision.notAfter ?? adobeNow)))
                switch decision.source {
                case .degradation:
                    let degraded = StatusSentences.authorizedByDegradation(resource, mvpd: profile.mvpd)
                    step.deliver(
                        .status(StatusCatalog.status(.z010, message: degraded, resource: resource)), to: call.owner)
                case .temppass:
                    let tempPass = StatusSentences.authorizedThroughTempPass(resource, mvpd: profile.mvpd)
                    step.deliver(
                        .status(StatusCatalog.status(.z011, message: tempPass, resource: resource)), to: call.owner)
                case .mvpd, .dummy, .unknown, nil:
                    break
                }
                step.deliver(
                    tracking.authorization(success: true, profile: profile, error: "", details: ""), to: call.owner)
                step.deliver(.setToken(token.serializedToken, resource: resource), to: call.owner)
                return
            }
            if let ended = signInEnded(decision.error, resource: resource, signedOut: &signedOut, &step) {
                step.deliver(.status(ended), to: call.owner)
                step.deliver(
                    tracking.authorization(
                        success: false, profile: profile, error: decision.error?.code ?? StatusID.n130.description,
                        details: decision.error?.details ?? ""),
                    to: call.owner)
                step.deliver(
                    .tokenRequestFailed(
                        resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: ended.message ?? ""),
                    to: call.owner)
                return
            }
            let id: StatusID = decision.authorized ? .z500 : ErrorClassification.decisionStatusID(for: decision.error)
            let message =
                decision.error?.message
                ?? (decision.authorized
                    ? StatusSentences.authorizedWithoutToken(resource) : StatusSentences.deniedByMVPD(resource))
            step.deliver(
                .status(
                    StatusCatalog.status(
                        id, message: message, details: decision.error?.details, resource: resource,
                        enhancedError: decision.error)), to: call.owner)
            step.deliver(
                tracking.authorization(
                    success: false, profile: profile, error: decision.error?.code ?? id.description,
                    details: decision.error?.details ?? ""), to: call.owner)
            // The MVPD's own words (the enhanced error's details) when it gave some.
            let description =
                [decision.error?.details, decision.error?.message].compactMap { $0 }.first { !$0.isEmpty } ?? ""
            step.deliver(
                .tokenRequestFailed(resource, errorCode: id.authorizationErrorCode, description: description),
                to: call.owner)
        }
    }

    /// When Adobe Pass says the user's sign-in is over (``ServerAdvice/signInEnded``, or a
    /// used-up TempPass), the device's profile goes too (once: `signedOut`), so
    /// checkAuthentication answers 0 at once. Returns the status that tells the app why —
    /// `nil` when the error says nothing about the sign-in, or for a used-up TempPass, which
    /// the caller reports as the denial it is.
    mutating func signInEnded(
        _ error: EnhancedError?, resource: String? = nil, signedOut: inout Bool, _ step: inout Step
    ) -> AdvancedStatus? {
        guard let error, let requestor = standing.requestorID else { return nil }
        switch error.advice {
        case .signInEnded, .tempPassUsedUp:
            if !signedOut {
                signedOut = true
                step.removeProfiles(of: requestor)
            }
        case .requestRefused, .invalidResource, .integrationUnavailable, .authenticationSessionGone, .deniedByMVPD,
            .deniedByDegradationRule, .tooManyResources, .configurationChanged, .clientUnknown, .authorizationNeeded,
            .transient,
            .serverFailure:
            return nil
        }
        if error.advice == .tempPassUsedUp { return nil }
        return StatusCatalog.status(
            .n130,
            message: StatusSentences.signInNoLongerHeld(code: error.code),
            details: error.details, resource: resource, enhancedError: error)
    }

    /// The partner status decisions carry for an `appleSSO` profile (never prompting): the
    /// validated answer of the partner framework.
    func decisionPartnerStatus(for profile: StoredProfile, snapshot: PartnerSnapshot?, _ facts: EngineFacts)
        -> PartnerFrameworkStatus?
    {
        guard profile.type == .appleSSO, settings.partnerConfigured, let snapshot else { return nil }
        let known = facts.knownCatalog(requestor: profile.requestor)
        return PartnerStatusValidation.validatedStatus(
            access: snapshot.access, account: snapshot.account, knownMappingIDs: known.knownMappingIDs, now: facts.now)
    }
}
