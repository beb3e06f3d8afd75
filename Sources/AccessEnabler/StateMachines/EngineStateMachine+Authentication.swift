import Foundation

extension EngineStateMachine {
    // MARK: Calls

    /// `checkAuthentication`: answered from storage and the cached configuration, with no
    /// network call; the partner framework is asked only when no regular profile decides.
    mutating func checkAuthentication(call: CallID?, _ step: inout Step) {
        if let problem = requestorProblem {
            for callback in AuthenticationCheck.callbacks(requestorProblem: problem) { step.deliver(callback, to: call) }
            return
        }
        withVerdict(.checkAuthentication(call: call), &step)
    }

    /// `getAuthentication` in all its forms.
    mutating func getAuthentication(forced: Bool, filter: PickerFilter?, call: CallID?, _ step: inout Step) {
        if let problem = requestorProblem {
            step.deliver(.status(problem), to: call)
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR), to: call)
            return
        }
        // A request refused because another flow is open needs no look at the user's profile.
        if let refused = authentication.rejection(of: .getAuthentication(call)) { return perform(refused, &step) }
        withVerdict(.getAuthentication(forced: forced, filter: filter, call: call), &step)
    }

    /// `setSelectedProvider`: `nil` backs out (always possible: it needs no requestor); an MVPD
    /// the device knows (the configuration, a profile's or the remembered provider) starts an
    /// authentication session at once — "continue with your provider" asks no configuration;
    /// one it does not know waits for the configuration (when the cached one is not fresh and
    /// no provider dialog is open), and one the configuration does not name is refused.
    mutating func setSelectedProvider(_ id: String?, call: CallID?, _ step: inout Step) {
        if id != nil, let problem = requestorProblem {
            step.deliver(.status(problem), to: call)
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR), to: call)
            return
        }
        guard let id, step.facts.knownProvider(id) == nil else { return perform(authentication.providerSelected(id, by: call), &step) }
        // The dialog on screen shows the list the person chose from; a fresh copy is the list.
        if authentication.state == .choosingProvider || step.facts.hasFreshConfiguration {
            for callback in Self.providerRefusal(id, requestor: standing.requestorID, catalog: step.facts.catalog) { step.deliver(callback, to: call) }
            return
        }
        perform(authentication.providerSelected(id, by: call, known: false), &step)
    }

    /// The callbacks that refuse `id`, which the configuration does not name.
    private static func providerRefusal(_ id: String, requestor: String?, catalog: RequestorCatalog?) -> [DelegateCall] {
        let choices = (catalog?.mvpds ?? []).map(\.id).joined(separator: ", ")
        return [
            .status(
                StatusCatalog.status(.n500, message: "setSelectedProvider was given \(id), which is not an MVPD of requestor \(requestor ?? "?"). Choose one of: \(choices).")),
            .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: PROVIDER_NOT_AVAILABLE_ERROR),
        ]
    }

    /// The configuration an authentication flow waited for arrived (or not): the person
    /// chooses, or the session for the MVPD selected opens — unless the configuration does
    /// not name it. A failure ends the flow's call with the CFG status setRequestor would
    /// have reported.
    mutating func flowConfigurationFetched(_ flow: FlowID, _ result: Result<RequestorCatalog, RESTClientError>, _ step: inout Step) {
        guard let need = authentication.configurationNeed(of: flow) else { return }
        switch result {
        case .failure(let error):
            perform(authentication.configurationFailed(flow, status: ErrorClassification.requestorStatus(error)), &step)
        case .success(let catalog):
            if catalog.requestor == standing.requestorID { configurationArrived(catalog, &step) }
            if case .selectedProvider(let id) = need, step.facts.knownProvider(id) == nil {
                let refusal = Self.providerRefusal(id, requestor: standing.requestorID, catalog: step.facts.catalog)
                guard case .status(let status) = refusal.first else { return }
                return perform(authentication.configurationFailed(flow, status: status, errorCode: PROVIDER_NOT_AVAILABLE_ERROR), &step)
            }
            perform(authentication.configurationArrived(flow, viaPartner: partnerSignInApplies(step.facts)), &step)
        }
    }

    /// `handleExternalURL`: completes a login (the profile by code, polled until it is
    /// there) or a logout.
    mutating func handleExternalURL(_ url: String, call: CallID?, _ step: inout Step) {
        guard RedirectURLMatcher(redirectURL: settings.redirectURL).matches(url) else {
            step.deliver(
                .status(
                    StatusCatalog.status(
                        .n500, message: "handleExternalURL ignored a URL that is not under the redirect URL \(settings.redirectURL); nothing changed.", details: url)), to: call)
            return withVerdict(.reportAuthentication(call: call), &step)
        }
        // A code surely past its end (Adobe's time known) is not asked for.
        let exactNow = step.facts.uncorrectedClockOffset.map { step.facts.now.addingTimeInterval($0) }
        perform(
            authentication.redirectReceived(
                now: step.facts.now, pollInterval: settings.pollInterval, pageTimeout: settings.logoutPageTimeout, exactNow: exactNow, by: call), &step)
    }

    // MARK: Answers

    /// `POST sessions` answered: a login (on this device or a second screen), a profile to
    /// fetch (TempPass, degradation, an existing profile), or a failure.
    mutating func sessionAnswered(_ flow: FlowID, _ result: Result<SessionAction, RESTClientError>, _ step: inout Step) {
        guard case .openingSession(flow, let id, .creating) = authentication.state else { return }
        // A session without an MVPD: the person chooses it on the second screen.
        let mvpd = id.flatMap { step.facts.knownProvider($0)?.facadeMVPD }
        if id != nil && mvpd == nil { return }
        let action: SessionAction
        switch result {
        case .success(let answer):
            action = answer
        case .failure(let error):
            if let id, let ended = integrationEnded(error.enhancedError, mvpd: id, &step) {
                return perform(
                    authentication.sessionFailed(flow, status: ended, errorCode: PROVIDER_NOT_AVAILABLE_ERROR), &step)
            }
            return perform(authentication.sessionFailed(flow, status: sessionFailureStatus(error, mvpd: mvpd)), &step)
        }
        switch action.actionName {
        case .authenticate:
            guard let code = action.code, let url = action.url else { break }
            return loginNeeded(flow, action, code: code, url: url, mvpd: mvpd, &step)
        case .resume where mvpd == nil:
            // Opened without an MVPD: the second screen resumes it with the person's choice.
            guard let code = action.code else { break }
            return loginNeeded(flow, action, code: code, url: action.url ?? "", mvpd: nil, &step)
        case .authorize:
            guard let mvpd else { break }
            return perform(authentication.sessionNeedsProfile(flow, note: Self.sessionNote(action.reasonType, mvpd: mvpd)), &step)
        case .resume, .retry, .partnerProfile, .unknown:
            break
        }
        let subject = mvpd?.id ?? "a TV provider to be chosen on a second screen"
        let answer = "\(action.actionName)/\(action.actionType)"
        let message = "Adobe Pass answered the authentication session for \(subject) with \(answer), which this SDK cannot continue."
        perform(authentication.sessionFailed(flow, status: StatusCatalog.status(.n500, message: message)), &step)
    }

    /// The session needs a login (`mvpd` `nil`: the person also chooses the MVPD on the second screen).
    private mutating func loginNeeded(_ flow: FlowID, _ action: SessionAction, code: String, url: String, mvpd: MVPD?, _ step: inout Step) {
        let base = sessionTarget(mvpd: mvpd?.id, step.facts).serviceProvider ?? settings.primaryServiceProvider
        let absolute = URL(string: url, relativeTo: base)?.absoluteString ?? url
        // The session's end is Adobe's time: the wait is timed on the device clock.
        let notAfter = action.notAfter?.addingTimeInterval(step.facts.now.timeIntervalSince(step.facts.adobeNow))
        let session = AuthenticationSession(mvpd: mvpd?.id, code: code, notAfter: notAfter, now: step.facts.now)
        let name = mvpd?.displayName ?? "your TV provider"
        let actions = authentication.loginNeeded(flow, session: session, url: absolute, displayName: name, screen: settings.loginScreen, now: step.facts.now)
        perform(actions, &step)
    }

    /// The note an `authorize` session answer's sign-in carries: N011 for TempPass, N010
    /// for a degraded MVPD.
    private static func sessionNote(_ reason: ReasonType?, mvpd: MVPD) -> AdvancedStatus? {
        switch reason {
        case .temporary: StatusCatalog.status(.n011, message: "The user is authenticated with TempPass (\(mvpd.displayName)).")
        case .degraded: StatusCatalog.status(.n010, message: "\(mvpd.displayName) is degraded: the user is authenticated by a degradation rule.")
        case .noReason, .authenticated, .authenticatedSSO, .partnerFrameworkStatusFallback, .configurationFallback,
            .missingParametersFallback, .unknown, nil:
            nil
        }
    }

    /// The profile of an `authorize` session answer arrived (or not).
    mutating func sessionProfileAnswered(
        _ flow: FlowID, _ result: Result<[ProfileAnswer], RESTClientError>, _ step: inout Step
    ) {
        guard case .openingSession(flow, let id, .fetchingProfile) = authentication.state, let id, let mvpd = step.facts.knownProvider(id)?.facadeMVPD,
            let requestor = standing.requestorID
        else { return }
        switch result {
        case .success(let profiles):
            guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                let error = RESTClientError.malformedBody(operation: .profileForMVPD, reason: "the profile for \(mvpd.id) was missing from the answer")
                return perform(authentication.sessionFailed(flow, status: ErrorClassification.authenticationStatus(error)), &step)
            }
            let stored = StoredProfile(
                profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil,
                serviceProvider: target(mvpd: mvpd.id, step.facts).serviceProvider ?? settings.primaryServiceProvider)
            perform(authentication.signedInDirectly(flow, profile: stored), &step)
        case .failure(let error):
            if let ended = integrationEnded(error.enhancedError, mvpd: mvpd.id, &step) {
                return perform(
                    authentication.sessionFailed(flow, status: ended, errorCode: PROVIDER_NOT_AVAILABLE_ERROR), &step)
            }
            // A used-up TempPass is refused when its profile is asked for (N111).
            let status = Self.usedUpTempPass(error.enhancedError, mvpd: mvpd) ?? ErrorClassification.authenticationStatus(error)
            perform(authentication.sessionFailed(flow, status: status), &step)
        }
    }

    /// Why a session could not be opened: N111 for a used-up TempPass, `REG500` when a
    /// second screen needed its code, else the authentication status of the failure.
    private func sessionFailureStatus(_ error: RESTClientError, mvpd: MVPD?) -> AdvancedStatus {
        if let mvpd, let usedUp = Self.usedUpTempPass(error.enhancedError, mvpd: mvpd) { return usedUp }
        let status = ErrorClassification.authenticationStatus(error)
        guard case .secondScreen = settings.loginScreen else { return status }
        return StatusCatalog.status(
            .reg500, message: "The registration code for \(mvpd?.displayName ?? "a sign-in on a second screen") could not be obtained from Adobe Pass: \(error.message)",
            details: status.details, enhancedError: status.enhancedError)
    }

    /// N111 when Adobe Pass says the TempPass is used up (its time, or a promotional
    /// TempPass's resources), else `nil`.
    static func usedUpTempPass(_ error: EnhancedError?, mvpd: MVPD) -> AdvancedStatus? {
        guard let error, error.advice == .tempPassUsedUp else { return nil }
        return StatusCatalog.status(
            .n111, message: "The TempPass of \(mvpd.displayName) is used up: choose a regular TV provider to keep watching.",
            details: error.details, enhancedError: error)
    }

    /// A poll answered: a profile, not yet, throttled, a passing failure, or a session the
    /// server no longer knows.
    mutating func pollAnswered(_ flow: FlowID, _ result: Result<[ProfileAnswer], RESTClientError>, _ step: inout Step) {
        guard let polling = authentication.polling, authentication.currentFlow == flow, let requestor = standing.requestorID else { return }
        let session = polling.session
        let answer: ProfilePolling.Answer
        var stored: StoredProfile?
        var failure: AdvancedStatus?
        switch result {
        case .success(let profiles):
            // Without an MVPD in the session, the profile names the one chosen on the second screen.
            if let profile = profiles.first(where: { $0.mvpd == session.mvpd }) ?? profiles.first {
                answer = .profile
                stored = StoredProfile(
                    profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil,
                    serviceProvider: sessionTarget(mvpd: session.mvpd, step.facts).serviceProvider ?? settings.primaryServiceProvider)
            } else {
                answer = .notYet
            }
        case .failure(.throttled(_, let retryAfter)):
            answer = .throttled(retryAfter: retryAfter)
        case .failure(let error):
            answer = ErrorClassification.isSessionGone(error) ? .sessionGone : .transientFailure
            failure = ErrorClassification.authenticationStatus(error)
        }
        perform(authentication.profileAnswered(flow, answer: answer, profile: stored, failure: failure, now: step.facts.now), &step)
    }

    // MARK: Carrying out the authentication machine's actions

    /// Turns the authentication machine's actions into the engine's, in order: one engine
    /// step per action, deciding nothing. What needs the engine's facts to decide (whether
    /// the partner sign-in can start, whether a session can be opened, whether a new
    /// sign-in is in force) is a handler of its own below. An action that answers the
    /// flow's call answers the calls carried over to it too
    /// (``AuthenticationStateMachine/Action/answersCarriedOverCalls``).
    mutating func perform(_ actions: [AuthenticationStateMachine.Action], _ step: inout Step) {
        for action in actions {
            let alsoEnding = action.answersCarriedOverCalls ? authentication.takeCarriedOver() : []
            switch action {
            case .status(let status, let call):
                step.deliver(.status(status), to: call, alsoEnding: alsoEnding)
            case .setAuthenticationStatus(let status, let code, let call):
                step.deliver(.setAuthenticationStatus(status, errorCode: code), to: call, alsoEnding: alsoEnding)
            case .tokenRequestFailed(let pending, let description):
                step.deliver(.tokenRequestFailed(pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: description), to: pending.owner)
            case .presentPicker(let dialog, let call):
                step.deliver(.presentTVProviderDialog(dialog), to: call)
            case .dismissPicker(let dialog, let call):
                step.deliver(.dismissTVProviderDialog(dialog), to: call)
            case .showProviderDialog(let call):
                step.deliver(.displayProviderDialog(step.facts.catalog?.mvpds ?? []), to: call, alsoEnding: alsoEnding)
            case .startPartnerSignIn(let flow, let filter):
                startPartnerSignIn(flow, filter: filter, &step)
            case .cancelPartnerSignIn(let flow):
                step.actions.append(.cancelPartnerSignIn(flow))
            case .trackProviderSelection(let mvpd, let call):
                step.deliver(.sendTrackingData([mvpd] + settings.tracking.deviceFields, event: TRACKING_GET_SELECTED_PROVIDER), to: call)
            case .createSession(let flow, let mvpd, let opened):
                openSession(flow, mvpd: mvpd, opened: opened, &step)
            case .fetchConfiguration(let flow):
                step.actions.append(.fetchConfigurationForFlow(flow, requestor: standing.requestorID ?? "", serviceProviders: serviceProviders))
            case .cancelConfigurationFetch(let flow):
                step.actions.append(.cancelConfigurationFetch(flow))
            case .startLogoutPageTimer(let ticket, let until):
                step.actions.append(.setLogoutPageTimer(ticket, until: until))
            case .stopLogoutPageTimer(let ticket):
                step.actions.append(.cancelLogoutPageTimer(ticket))
            case .fetchSessionProfile(let flow, let mvpd):
                step.actions.append(.fetchSessionProfile(flow, target(mvpd: mvpd, step.facts)))
            case .cancelSession(let flow):
                step.actions.append(.cancelSession(flow))
            case .openPage(let url, let mvpd, let call):
                step.deliver(navigation(to: url, mvpd: mvpd, step.facts), to: call, alsoEnding: alsoEnding)
            case .waitForPoll(let flow, let until):
                step.actions.append(.setPollTimer(flow, until: until))
            case .stopPolling(let flow):
                step.actions.append(.stopPolling(flow))
            case .fetchProfile(let flow, let session):
                step.actions.append(.fetchProfileForCode(flow, code: session.code, sessionTarget(mvpd: session.mvpd, step.facts)))
            case .store(let profile, let call):
                storeSignIn(profile, reportingTo: call, &step)
            case .succeed(let pending, let cached, let call):
                succeed(pending: pending, cached: cached, call: call, alsoEnding: alsoEnding, &step)
            case .fail(let status, let code, let pending, let call):
                fail(status, errorCode: code, pending: pending, call: call, alsoEnding: alsoEnding, &step)
            case .reportCurrentAuthentication(let call):
                withVerdict(.reportAuthentication(call: call), &step)
            }
        }
    }

    /// The partner sign-in starts with the configuration that made it apply. Should it no
    /// longer apply, the person chooses in the app's provider dialog instead.
    private mutating func startPartnerSignIn(_ flow: FlowID, filter: PickerFilter?, _ step: inout Step) {
        guard partnerSignInApplies(step.facts), let catalog = step.facts.catalog else {
            return perform(authentication.partnerSignInFinished(flow, .showProviderDialog(nil)), &step)
        }
        step.actions.append(.startPartnerSignIn(flow, filter, catalog))
    }

    /// `POST sessions` for `mvpd` (`nil`: without one) — or, when the partner fallback
    /// already opened the session, its answer at once. With no requestor, or an MVPD the
    /// requestor does not have, the session fails before any request.
    private mutating func openSession(_ flow: FlowID, mvpd: String?, opened: SessionAction?, _ step: inout Step) {
        if let opened { return sessionAnswered(flow, .success(opened), &step) }
        guard standing.requestorID != nil, mvpd.map({ step.facts.knownProvider($0) != nil }) ?? true else {
            let message = mvpd.map { "\($0) is not an MVPD of the current requestor." } ?? "No requestor is ready for a sign-in: call setRequestor(_:) first."
            return perform(authentication.sessionFailed(flow, status: StatusCatalog.status(.n500, message: message)), &step)
        }
        if let mvpd { endSignInInForce(of: mvpd, &step) }
        // A logout of this MVPD Adobe Pass has not confirmed goes first: the session must not
        // find the sign-in the user ended.
        var target = sessionTarget(mvpd: mvpd, step.facts)
        target.logsOutFirst = step.facts.profiles.pendingLogouts.contains { $0.mvpd == mvpd }
        step.actions.append(.createSession(flow, target))
    }

    /// A new sign-in is stored, after CFG100 when the device's clock is found to differ from Adobe's.
    private func storeSignIn(_ profile: StoredProfile, reportingTo call: CallID?, _ step: inout Step) {
        reportClockDifferenceIfNew(to: call, &step)
        step.storeSignIn(profile)
    }

    /// Authentication failed: the status, tracking, `setAuthenticationStatus(0, code)`,
    /// then the waiting authorization's `tokenRequestFailed`.
    private func fail(_ status: AdvancedStatus?, errorCode code: String, pending: PendingAuthorization?, call: CallID?, alsoEnding: [CallID], _ step: inout Step) {
        if let status { step.deliver(.status(status), to: call) }
        step.deliver(settings.tracking.authentication(succeeded: false, profile: nil, cached: false), to: call)
        step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: code), to: call, alsoEnding: alsoEnding)
        if let pending {
            step.deliver(
                .tokenRequestFailed(
                    pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: "The user could not be authenticated, so \(pending.resource) was not authorized."),
                to: pending.owner)
        }
    }

    /// Authentication succeeded: tracking and `setAuthenticationStatus(1, "")`, then the
    /// waiting authorization — unless the new sign-in is over already by Adobe's time (a
    /// clock set far ahead with no `Date` header to correct it), which is not a success.
    private mutating func succeed(pending: PendingAuthorization?, cached: Bool, call: CallID?, alsoEnding: [CallID], _ step: inout Step) {
        let profile = step.facts.currentProfile
        if !cached, let profile, let problem = Self.clockProblem(profile, at: step.facts.adobeNow) {
            let expired = StatusCatalog.status(.cfg100, message: problem)
            step.deliver(.status(expired), to: call)
            step.deliver(settings.tracking.authentication(succeeded: false, profile: nil, cached: false), to: call)
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR), to: call, alsoEnding: alsoEnding)
            if let pending {
                step.deliver(.tokenRequestFailed(pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: expired.message ?? ""), to: pending.owner)
            }
            return
        }
        step.deliver(settings.tracking.authentication(succeeded: true, profile: profile, cached: cached), to: call)
        step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED), to: call, alsoEnding: alsoEnding)
        if let pending { queue.insert(.authorizePending(pending), at: 0) }
    }

    /// Why a new sign-in is not in force by the time the device knows (a clock set far off
    /// with no `Date` header to correct it), in the words of CFG100; `nil` when it is.
    static func clockProblem(_ profile: StoredProfile, at adobeNow: Date) -> String? {
        switch profile.timing(at: adobeNow) {
        case .inForce:
            return nil
        case .alreadyOver:
            return "The new sign-in with \(profile.mvpd) is already over by this device's clock: check the device's date and time, then sign in again."
        case .notValidYet:
            return
                "The new sign-in with \(profile.mvpd) is not valid yet by this device's clock (it starts more than \(WholeNumber.clamped(StoredProfile.notBeforeTolerance) as Int) s ahead of it): check the device's date and time, then sign in again."
        }
    }

    /// A session for the MVPD whose sign-in is in force (a forced sign-in, or the same
    /// provider chosen again): Adobe Pass would answer at once with that sign-in, so no login
    /// page could come and the person could not switch accounts. The sign-in ends first — on
    /// the device now, at Adobe Pass by `GET logout/{mvpd}` just before `POST sessions` (no
    /// logout page: the login page follows).
    private func endSignInInForce(of mvpd: String, _ step: inout Step) {
        guard let requestor = standing.requestorID, let current = step.facts.currentProfile, current.mvpd == mvpd,
            current.isValid(at: step.facts.adobeNow), current.type != .appleSSO
        else { return }
        var profiles = step.facts.profiles
        if profiles.chosen?.mvpd == mvpd { profiles.chosen = nil }
        if profiles.standby?.mvpd == mvpd { profiles.standby = nil }
        if !profiles.pendingLogouts.contains(where: { $0.mvpd == mvpd }) {
            profiles.pendingLogouts.append(PendingLogout(mvpd: mvpd, serviceProviderURL: current.serviceProviderURL))
        }
        step.store(ProfileChange(profiles: profiles, keepingMediaTokensOf: Set(profiles.all.map(\.mvpd)), droppingPreauthorizations: true), requestor: requestor)
    }

    /// `navigateToUrl`, or its SVC form when the app handles Safari View Controllers and the
    /// MVPD needs one.
    func navigation(to url: String, mvpd: String, _ facts: EngineFacts) -> DelegateCall {
        if options.handleSVC && facts.knownProvider(mvpd)?.requiresSVC == true {
            return .navigateToUrlUsingSVC(url, useSVC: true)
        }
        return .navigateToUrl(url)
    }
}
