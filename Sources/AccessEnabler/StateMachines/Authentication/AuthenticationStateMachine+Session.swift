import Foundation

/// Opening an authentication session: `POST sessions` for the MVPD chosen (or without one,
/// the person choosing on the second screen), its answer as Adobe Pass gave it — a login on
/// this device or a second screen, a profile to fetch, a failure — and the calls that abandon
/// it before Adobe Pass answers.
extension AuthenticationStateMachine {
    /// `POST sessions` for `mvpd` (`nil`: without one) — or, when the partner fallback already
    /// opened the session, its answer at once. With no requestor, or an MVPD the requestor
    /// does not have, the session fails before any request. The state is already
    /// ``State/openingSession(_:mvpd:step:)``.
    mutating func openSession(
        _ flow: FlowID, mvpd: String?, opened: SessionAction?, _ context: AuthenticationContext, _ step: inout Step
    ) {
        if let opened { return sessionAnswered(flow, .success(opened), context, &step) }
        guard context.requestor != nil, mvpd.map({ step.facts.knownProvider($0) != nil }) ?? true else {
            let message =
                mvpd.map(StatusSentences.notAnMVPDOfTheCurrentRequestor) ?? StatusSentences.noRequestorForSignIn
            return failFlow(StatusCatalog.status(.n500, message: message), context, &step)
        }
        if let mvpd { endSignInInForce(of: mvpd, context, &step) }
        // A logout of this MVPD Adobe Pass has not confirmed goes first: the session must not
        // find the sign-in the user ended.
        var target = context.targets.sessionTarget(mvpd: mvpd, step.facts)
        target.logsOutFirst = step.facts.profiles.pendingLogouts.contains { $0.mvpd == mvpd }
        step.actions.append(.createSession(flow, target))
    }

    /// A session for the MVPD whose sign-in is in force (a forced sign-in, or the same
    /// provider chosen again): Adobe Pass would answer at once with that sign-in, so no login
    /// page could come and the person could not switch accounts. The sign-in ends first — on
    /// the device now, at Adobe Pass by `GET logout/{mvpd}` just before `POST sessions` (no
    /// logout page: the login page follows).
    private func endSignInInForce(of mvpd: String, _ context: AuthenticationContext, _ step: inout Step) {
        guard let requestor = context.requestor, let current = step.facts.currentProfile, current.mvpd == mvpd,
            current.isValid(at: step.facts.adobeNow), current.type != .appleSSO
        else { return }
        var profiles = step.facts.profiles
        if profiles.chosen?.mvpd == mvpd { profiles.chosen = nil }
        if profiles.standby?.mvpd == mvpd { profiles.standby = nil }
        if !profiles.pendingLogouts.contains(where: { $0.mvpd == mvpd }) {
            profiles.pendingLogouts.append(PendingLogout(mvpd: mvpd, serviceProviderURL: current.serviceProviderURL))
        }
        let change = ProfileChange(
            profiles: profiles, keepingMediaTokensOf: Set(profiles.all.map(\.mvpd)), droppingPreauthorizations: true)
        step.store(change, requestor: requestor)
    }

    // MARK: The session's answers

    /// `POST sessions` of `flow` answered: a login (on this device or a second screen), a
    /// profile to fetch (TempPass, degradation, an existing profile), or a failure.
    mutating func sessionAnswered(
        _ flow: FlowID, _ result: Result<SessionAction, RESTClientError>, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        guard case .openingSession(flow, let id, .creating) = state else { return }
        // A session without an MVPD: the person chooses it on the second screen.
        let mvpd = id.flatMap { step.facts.knownProvider($0)?.facadeMVPD }
        if id != nil && mvpd == nil { return }
        let action: SessionAction
        switch result {
        case .success(let answer):
            action = answer
        case .failure(let error):
            if let id, let ended = step.endIntegration(error.enhancedError, mvpd: id, requestor: context.requestor) {
                return failFlow(ended, errorCode: PROVIDER_NOT_AVAILABLE_ERROR, context, &step)
            }
            return failFlow(Self.sessionFailureStatus(error, mvpd: mvpd, context), context, &step)
        }
        switch action.actionName {
        case .authenticate:
            guard let code = action.code, let url = action.url else { break }
            return loginNeeded(flow, action, code: code, url: url, mvpd: mvpd, context, &step)
        case .resume where mvpd == nil:
            // Opened without an MVPD: the second screen resumes it with the person's choice.
            guard let code = action.code else { break }
            return loginNeeded(flow, action, code: code, url: action.url ?? "", mvpd: nil, context, &step)
        case .authorize:
            guard let mvpd, let id else { break }
            // The profile is fetched next; the sign-in carries the answer's note.
            state = .openingSession(
                flow, mvpd: id, step: .fetchingProfile(note: Self.sessionNote(action.reasonType, mvpd: mvpd)))
            return step.actions.append(.fetchSessionProfile(flow, context.targets.target(mvpd: id, step.facts)))
        case .resume, .retry, .partnerProfile, .unknown:
            break
        }
        let message = StatusSentences.sessionAnswerNotContinued(
            mvpd: mvpd?.id, answer: "\(action.actionName)/\(action.actionType)")
        failFlow(StatusCatalog.status(.n500, message: message), context, &step)
    }

    /// The session needs a login (`mvpd` `nil`: the person also chooses the MVPD on the
    /// second screen): on this device (the login page) or on a second screen (status
    /// `REGCODE` with the code, then polling).
    private mutating func loginNeeded(
        _ flow: FlowID, _ action: SessionAction, code: String, url: String, mvpd: MVPD?,
        _ context: AuthenticationContext, _ step: inout Step
    ) {
        let base = context.targets.sessionServiceProvider(mvpd: mvpd?.id, step.facts)
        let absolute = URL(string: url, relativeTo: base)?.absoluteString ?? url
        // The session's end is Adobe's time: the wait is timed on the device clock.
        let notAfter = action.notAfter?.addingTimeInterval(step.facts.now.timeIntervalSince(step.facts.adobeNow))
        let session = AuthenticationSession(mvpd: mvpd?.id, code: code, notAfter: notAfter, now: step.facts.now)
        ownerAnswered = true
        switch context.settings.loginScreen {
        case .thisDevice:
            guard let mvpd = session.mvpd else { break }
            state = .awaitingRedirect(flow, session)
            return answer(context.navigation(to: absolute, mvpd: mvpd, step.facts), to: owner, &step)
        case .secondScreen(let interval):
            let polling = ProfilePolling(
                session: session, origin: .secondScreen, interval: interval, now: step.facts.now)
            state = .polling(flow, polling)
            let displayName = session.mvpd == nil ? nil : mvpd?.displayName ?? StatusSentences.yourTVProvider
            let message = StatusSentences.signInOnSecondScreen(
                code: session.code, displayName: displayName, interval: WholeNumber.clamped(polling.interval))
            var regcode = StatusCatalog.status(.regcode, message: message, details: session.code)
            regcode.expiresAt = session.notAfter
            // The code hands the authentication over: it answers the calls carried over too.
            answer(.status(regcode), to: owner, &step)
            return carryOut(polling.firstStep, flow: flow, polling: polling, context, &step)
        }
        // A session without an MVPD cannot open a login page on this device.
        failFlow(
            StatusCatalog.status(.n500, message: StatusSentences.sessionWithoutProviderNeedsSecondScreen), context,
            &step)
    }

    /// The note an `authorize` session answer's sign-in carries: N011 for TempPass, N010
    /// for a degraded MVPD.
    private static func sessionNote(_ reason: ReasonType?, mvpd: MVPD) -> AdvancedStatus? {
        switch reason {
        case .temporary: StatusCatalog.status(.n011, message: StatusSentences.signedInWithTempPass(mvpd.displayName))
        case .degraded: StatusCatalog.status(.n010, message: StatusSentences.signedInByDegradation(mvpd.displayName))
        case .noReason, .authenticated, .authenticatedSSO, .partnerFrameworkStatusFallback, .configurationFallback,
            .missingParametersFallback, .unknown, nil:
            nil
        }
    }

    /// The profile of an `authorize` session answer arrived (or not): signed in, with the
    /// note of the session's answer.
    mutating func sessionProfileAnswered(
        _ flow: FlowID, _ result: Result<[ProfileAnswer], RESTClientError>, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        guard case .openingSession(flow, let id?, .fetchingProfile(let note)) = state,
            let mvpd = step.facts.knownProvider(id)?.facadeMVPD,
            let requestor = context.requestor
        else { return }
        switch result {
        case .success(let profiles):
            guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                let error = RESTClientError.malformedBody(
                    operation: .profileForMVPD, reason: StatusSentences.profileMissing(mvpd: mvpd.id))
                return failFlow(ErrorClassification.authenticationStatus(error), context, &step)
            }
            let stored = StoredProfile(
                profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil,
                serviceProvider: context.targets.serviceProvider(mvpd: mvpd.id, step.facts))
            signIn(stored, note: note, context, &step)
        case .failure(let error):
            if let ended = step.endIntegration(error.enhancedError, mvpd: mvpd.id, requestor: requestor) {
                return failFlow(ended, errorCode: PROVIDER_NOT_AVAILABLE_ERROR, context, &step)
            }
            // A used-up TempPass is refused when its profile is asked for (N111).
            let status =
                Self.usedUpTempPass(error.enhancedError, mvpd: mvpd) ?? ErrorClassification.authenticationStatus(error)
            failFlow(status, context, &step)
        }
    }

    /// Why a session could not be opened: N111 for a used-up TempPass, `REG500` when a
    /// second screen needed its code, else the authentication status of the failure.
    private static func sessionFailureStatus(_ error: RESTClientError, mvpd: MVPD?, _ context: AuthenticationContext)
        -> AdvancedStatus
    {
        if let mvpd, let usedUp = usedUpTempPass(error.enhancedError, mvpd: mvpd) { return usedUp }
        let status = ErrorClassification.authenticationStatus(error)
        guard case .secondScreen = context.settings.loginScreen else { return status }
        return StatusCatalog.status(
            .reg500, message: StatusSentences.registrationCodeUnavailable(mvpd?.displayName, reason: error.message),
            details: status.details, enhancedError: status.enhancedError)
    }

    /// N111 when Adobe Pass says the TempPass is used up (its time, or a promotional
    /// TempPass's resources), else `nil`.
    static func usedUpTempPass(_ error: EnhancedError?, mvpd: MVPD) -> AdvancedStatus? {
        guard let error, error.advice == .tempPassUsedUp else { return nil }
        return StatusCatalog.status(
            .n111, message: StatusSentences.tempPassUsedUp(mvpd.displayName), details: error.details,
            enhancedError: error)
    }

    // MARK: Abandoning the session

    /// A call abandons the session being opened (or the configuration it waits for) before
    /// Adobe Pass answered: its requests are cancelled, and the call that asked for it —
    /// which has had no answer yet — ends now, with a status that says why. A waiting
    /// authorization stays for the abandoning call to decide (a new flow carries it on;
    /// logout, setRequestor and backing out fail it). Nothing happens when no session is
    /// being opened.
    mutating func abandonOpeningSession(_ reason: Abandonment, _ step: inout Step) {
        let subject: String
        switch state {
        case .openingSession(let flow, let mvpd, _):
            subject = StatusSentences.sessionBeingOpened(mvpd: mvpd)
            step.actions.append(.cancelSession(flow))
        case .awaitingConfiguration(let flow, .selectedProvider(let mvpd)):
            subject = StatusSentences.authenticationWaitingForConfiguration(mvpd: mvpd)
            step.actions.append(.cancelConfigurationFetch(flow))
        case .awaitingConfiguration(let flow, .providerChoice):
            subject = StatusSentences.authenticationWaitingForConfiguration(mvpd: nil)
            step.actions.append(.cancelConfigurationFetch(flow))
        default:
            return
        }
        state = .idle
        ownerAnswered = true
        let (id, code, why): (StatusID, String, String) =
            switch reason {
            case .backedOut: (.n005, PROVIDER_NOT_SELECTED_ERROR, StatusSentences.backedOut)
            case .replaced: (.n500, GENERIC_AUTHENTICATION_ERROR, StatusSentences.replacedByNewAuthentication)
            case .loggedOut: (.n500, USER_NOT_AUTHENTICATED_ERROR, StatusSentences.loggedOut)
            case .requestorChanged: (.n500, GENERIC_AUTHENTICATION_ERROR, StatusSentences.requestorChanged)
            case .released: (.n500, GENERIC_AUTHENTICATION_ERROR, StatusSentences.released)
            }
        step.deliver(
            .status(StatusCatalog.status(id, message: StatusSentences.abandoned(subject, why: why))), to: owner)
        answerUnauthenticated(code, to: owner, &step)
    }
}
