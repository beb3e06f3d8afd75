import Foundation

/// Waiting for the login: the login page's redirect (`handleExternalURL`), then the polls of
/// `GET profiles/code/{code}` — after the redirect, or for a second screen's code — with
/// their answers as Adobe Pass gave them. ``ProfilePolling`` keeps the polls' rhythm; this
/// file turns its steps into the engine's actions.
extension AuthenticationStateMachine {
    /// `handleExternalURL` with a URL under the redirect URL. After a logout page, the next
    /// page opens (the app has the configuration's request timeout to come back from it), or
    /// the logout ends. A login whose session had surely ended by Adobe's time (the device
    /// clock with the whole measured difference, when an answer told it) ends without asking
    /// for the profile. With nothing waiting for a redirect, N130 and the authentication as
    /// it stands (a follow-up: judging it may need the partner framework).
    mutating func redirectReceived(by call: CallID?, _ context: AuthenticationContext, _ step: inout Step) {
        let now = step.facts.now
        switch state {
        case .awaitingRedirect(let flow, let session):
            // REST API V2 (FAQ authentication 14): poll from the moment the redirect is reached.
            let polling = ProfilePolling(
                session: session, origin: .redirect, interval: context.settings.pollInterval, now: now)
            state = .polling(flow, polling)
            owner = call
            ownerAnswered = false
            // A code already past its end signs nobody in: no request (Adobe's checklist stops
            // polling once the session and its code expired).
            let exactNow = step.facts.uncorrectedClockOffset.map { now.addingTimeInterval($0) }
            let surelyOver = exactNow.map { $0 >= session.notAfter } ?? false
            carryOut(surelyOver ? .expired : polling.firstStep, flow: flow, polling: polling, context, &step)
        case .polling(let flow, var polling):
            // Already waiting for this session's profile: a redirect means "look now". An
            // earlier redirect's call still waiting for its answer is answered with this one's.
            if !ownerAnswered, let owner, owner != call { carriedOver.append(owner) }
            owner = call
            ownerAnswered = false
            guard let next = polling.pollNow() else { return }
            state = .polling(flow, polling)
            step.actions.append(.stopPolling(flow))
            carryOut(next, flow: flow, polling: polling, context, &step)
        case .awaitingLogoutRedirect(let ticket, _, let remaining):
            nextLogoutPage(ticket, remaining: remaining, by: call, context, &step)
        case .idle, .choosingProvider, .awaitingConfiguration, .signingInThroughPartner, .openingSession, .loggingOut:
            step.deliver(.status(StatusCatalog.status(.n130, message: StatusSentences.nothingAwaitsRedirect)), to: call)
            step.followUps.append(.reportAuthentication(call: call))
        }
    }

    /// The poll timer of `flow` fired.
    mutating func pollTimerFired(_ flow: FlowID, _ context: AuthenticationContext, _ step: inout Step) {
        guard case .polling(flow, var polling) = state, let next = polling.timerFired(now: step.facts.now) else {
            return
        }
        state = .polling(flow, polling)
        carryOut(next, flow: flow, polling: polling, context, &step)
    }

    /// A poll of `flow` answered: a profile (the one of the session's MVPD, or — without an
    /// MVPD in the session — the one chosen on the second screen), not yet, throttled, a
    /// passing failure, or a session the server no longer knows.
    mutating func pollAnswered(
        _ flow: FlowID, _ result: Result<[ProfileAnswer], RESTClientError>, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        guard case .polling(flow, var polling) = state, let requestor = context.requestor else { return }
        let now = step.facts.now
        let (answer, profile, failure) = Self.reading(
            result, polling.session, requestor: requestor, context, step.facts)
        // The person at the TV hears when the wait cannot be checked, and when it can again.
        if let notice = polling.reachability(after: answer, now: now) {
            step.deliver(.status(Self.reachabilityStatus(notice, polling: polling, now: now)), to: owner)
        }
        let next = polling.answered(answer, now: now)
        state = .polling(flow, polling)
        if next == .signedIn, let profile { return signIn(profile, context, &step) }
        if next == .sessionGone || next == .failed, let failure { return failFlow(failure, context, &step) }
        carryOut(next, flow: flow, polling: polling, context, &step)
    }

    /// What a poll's answer says for the wait (a profile only when one came back), the
    /// profile as stored, and what explains a failed answer.
    private static func reading(
        _ result: Result<[ProfileAnswer], RESTClientError>, _ session: AuthenticationSession, requestor: String,
        _ context: AuthenticationContext,
        _ facts: EngineFacts
    ) -> (ProfilePolling.Answer, StoredProfile?, AdvancedStatus?) {
        switch result {
        case .success(let profiles):
            // Without an MVPD in the session, the profile names the one chosen on the second screen.
            guard let profile = profiles.first(where: { $0.mvpd == session.mvpd }) ?? profiles.first else {
                return (.notYet, nil, nil)
            }
            let stored = StoredProfile(
                profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil,
                serviceProvider: context.targets.sessionServiceProvider(mvpd: session.mvpd, facts))
            return (.profile, stored, nil)
        case .failure(.throttled(_, let retryAfter)):
            return (.throttled(retryAfter: retryAfter), nil, nil)
        case .failure(let error):
            let answer: ProfilePolling.Answer =
                ErrorClassification.isSessionGone(error) ? .sessionGone : .transientFailure
            return (answer, nil, ErrorClassification.authenticationStatus(error))
        }
    }

    /// REG404 when a second-screen sign-in has not been checkable for a while, REG200 when it
    /// is again; each with the code and its end, so the TV can keep showing them.
    private static func reachabilityStatus(
        _ notice: ProfilePolling.ReachabilityNotice, polling: ProfilePolling, now: Date
    ) -> AdvancedStatus {
        let session = polling.session
        var status: AdvancedStatus
        switch notice {
        case .lost(let since):
            let message = StatusSentences.secondScreenUnreachable(
                code: session.code, silence: WholeNumber.clamped(now.timeIntervalSince(since)),
                interval: WholeNumber.clamped(polling.interval))
            status = StatusCatalog.status(.reg404, message: message, details: session.code)
        case .restored:
            status = StatusCatalog.status(
                .reg200, message: StatusSentences.secondScreenReachable(code: session.code), details: session.code)
        }
        status.expiresAt = session.notAfter
        return status
    }

    /// Carries out what the polls' rhythm says: a poll now, a timer, or the end of a wait
    /// that signed nobody in (N130 for the flow's owner).
    mutating func carryOut(
        _ next: ProfilePolling.Step, flow: FlowID, polling: ProfilePolling, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        let session = polling.session
        switch next {
        case .ask:
            step.actions.append(
                .fetchProfileForCode(
                    flow, code: session.code, context.targets.sessionTarget(mvpd: session.mvpd, step.facts)))
        case .wait(let until):
            step.actions.append(.setPollTimer(flow, until: until))
        case .signedIn, .sessionGone, .expired, .failed:
            let message =
                next == .expired
                ? StatusSentences.codeExpired(code: session.code, mvpd: session.mvpdName)
                : StatusSentences.sessionGone(code: session.code, mvpd: session.mvpdName)
            failFlow(StatusCatalog.status(.n130, message: message, details: session.code), context, &step)
        }
    }
}
