import Foundation

extension EntitlementEngine {
    // MARK: checkAuthentication

    /// `checkAuthentication`: answered from storage and the cached configuration, with no
    /// network call; the partner framework is asked only when no regular profile decides.
    func checkAuthentication() async {
        if let problem = requestorProblem() {
            AuthenticationCheck.callbacks(requestorProblem: problem).forEach(emit)
            return
        }
        let verdict = await currentAuthentication()
        AuthenticationCheck.callbacks(profile: verdict.profile, status: verdict.partnerStatus, tracking: tracking).forEach(emit)
    }

    /// The answer to "is the user authenticated?" and, when not, the partner permission
    /// status that explains it (VSA403, VSA404, APPL_ERROR).
    struct AuthenticationVerdict: Sendable {
        var profile: StoredProfile?
        var partnerStatus: AdvancedStatus?
        var snapshot: PartnerSnapshot?
    }

    func currentAuthentication() async -> AuthenticationVerdict {
        guard let requestor = requestorID else { return AuthenticationVerdict() }
        let stored = store.profile(requestor: requestor)
        var snapshot: PartnerSnapshot?
        if AuthenticationCheck.needsPartner(profile: stored, catalog: catalog, partnerConfigured: configuration.partnerFramework != nil, now: adobeNow),
           let signIn = partnerSignIn() {
            snapshot = await signIn.snapshot()
        }
        let verdict = AuthenticationCheck.verdict(profile: stored, catalog: catalog, snapshot: snapshot, now: adobeNow)
        return AuthenticationVerdict(profile: verdict.profile, partnerStatus: verdict.status, snapshot: snapshot)
    }

    // MARK: getAuthentication

    /// `getAuthentication` in all its forms, and the authentication `getAuthorization`
    /// needs first (`caller`).
    func getAuthentication(forceAuthn: Bool, data: [String: String]?, filter: PickerFilter?, caller: AuthenticationStateMachine.Caller = .getAuthentication) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR))
            return
        }
        if let refused = machine.rejection(of: caller) {
            await perform(refused)
            return
        }
        let verdict = await currentAuthentication()
        await perform(machine.authenticationRequested(
            by: caller, authenticated: verdict.profile != nil, forced: forceAuthn, viaPartner: ssoPartner != nil, filter: filter))
    }

    // MARK: setSelectedProvider

    /// `setSelectedProvider`: `nil` backs out, an unknown id is refused, a known one starts
    /// an authentication session.
    func setSelectedProvider(_ id: String?) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR))
            return
        }
        if let id, mvpdsByID[id] == nil {
            emitStatus(StatusCatalog.status(.n500, message: "setSelectedProvider was given \(id), which is not an MVPD of requestor \(requestorID ?? "?"). Choose one of: \(mvpds.map(\.id).joined(separator: ", "))."))
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: PROVIDER_NOT_AVAILABLE_ERROR))
            return
        }
        await perform(machine.providerSelected(id))
    }

    /// Opens the authentication session for `mvpd` — unless Adobe Pass already opened one
    /// (`opened`, from a partner SSO fallback) — and reports its answer to the state machine.
    func openSession(_ flow: FlowID, mvpd id: String, opened: SessionAction?) async {
        guard let requestor = requestorID, let mvpd = mvpdsByID[id] else {
            await perform(machine.sessionFailed(flow, status: StatusCatalog.status(.n500, message: "\(id) is not an MVPD of the current requestor.")))
            return
        }
        emit(.sendTrackingData([mvpd.id] + trackingDeviceFields, event: TRACKING_GET_SELECTED_PROVIDER))
        let client = client(for: mvpd.id)
        let screen = loginScreen
        let action: SessionAction
        if let opened {
            action = opened
        } else {
            do {
                action = try await client.createSession(serviceProvider: requestor, mvpd: mvpd.id, domainName: configuration.domainName, redirectURL: configuration.redirectURL, context: context())
            } catch {
                await perform(machine.sessionFailed(flow, status: sessionFailureStatus(error, screen: screen, mvpd: mvpd)))
                return
            }
        }
        switch action.actionName {
        case .authenticate:
            guard let code = action.code, let url = action.url else { break }
            let absolute = URL(string: url, relativeTo: client.baseURL)?.absoluteString ?? url
            // The session's end is Adobe's time: the wait is timed on the device clock.
            let notAfter = action.notAfter?.addingTimeInterval(-serverClock.correction)
            let session = AuthenticationSession(mvpd: mvpd.id, code: code, notAfter: notAfter, now: now)
            await perform(machine.loginNeeded(flow, session: session, url: absolute, displayName: mvpd.displayName, screen: screen, now: now))
            return
        case .authorize:
            do throws(RESTClientError) {
                let profiles = try await client.profile(serviceProvider: requestor, mvpd: mvpd.id, context: context(mvpd: mvpd.id))
                guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                    throw RESTClientError.malformedBody(operation: .profileForMVPD, reason: "the profile for \(mvpd.id) was missing from the answer")
                }
                let note: AdvancedStatus? = switch action.reasonType {
                case .temporary: StatusCatalog.status(.n011, message: "The user is authenticated with TempPass (\(mvpd.displayName)).")
                case .degraded: StatusCatalog.status(.n010, message: "\(mvpd.displayName) is degraded: the user is authenticated by a degradation rule.")
                case .noReason, .authenticated, .authenticatedSSO, .partnerFrameworkStatusFallback, .configurationFallback,
                     .missingParametersFallback, .unknown, nil: nil
                }
                let stored = StoredProfile(profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil, serviceProvider: client.baseURL)
                await perform(machine.signedInDirectly(flow, profile: stored, status: note))
            } catch {
                // A used-up TempPass is refused when its profile is asked for (N111).
                let status = Self.usedUpTempPass(error.enhancedError, mvpd: mvpd) ?? ErrorClassification.authenticationStatus(error)
                await perform(machine.sessionFailed(flow, status: status))
            }
            return
        case .resume, .retry, .partnerProfile, .unknown:
            break
        }
        await perform(machine.sessionFailed(flow, status: StatusCatalog.status(.n500, message: "Adobe Pass answered the authentication session for \(mvpd.id) with \(action.actionName)/\(action.actionType), which this SDK cannot continue.")))
    }

    /// Why a session could not be opened: `REG500` when a second screen needed its code,
    /// else the authentication status of the failure.
    private func sessionFailureStatus(_ error: RESTClientError, screen: AuthenticationStateMachine.LoginScreen, mvpd: MVPD) -> AdvancedStatus {
        if let usedUp = Self.usedUpTempPass(error.enhancedError, mvpd: mvpd) { return usedUp }
        let status = ErrorClassification.authenticationStatus(error)
        guard case .secondScreen = screen else { return status }
        return StatusCatalog.status(
            .reg500, message: "The registration code for \(mvpd.displayName) could not be obtained from Adobe Pass: \(error.message)",
            details: status.details, enhancedError: status.enhancedError)
    }

    /// N111 when Adobe Pass says the TempPass is used up (its time, or a promotional
    /// TempPass's resources), else `nil`.
    static func usedUpTempPass(_ error: EnhancedError?, mvpd: MVPD) -> AdvancedStatus? {
        guard let error, error.code == "temporary_access_duration_limit_exceeded" || error.code == "temporary_access_resources_limit_exceeded" else { return nil }
        return StatusCatalog.status(
            .n111, message: "The TempPass of \(mvpd.displayName) is used up: choose a regular TV provider to keep watching.",
            details: error.details, enhancedError: error)
    }

    /// `navigateToUrl`, or its SVC form when the app handles Safari View Controllers and the
    /// MVPD needs one.
    func emitNavigation(to url: String, mvpd: String) {
        if options.handleSVC && catalog?.svcMVPDs.contains(mvpd) == true {
            emit(.navigateToUrlUsingSVC(url, useSVC: true))
        } else {
            emit(.navigateToUrl(url))
        }
    }

    // MARK: handleExternalURL and polling

    /// `handleExternalURL`: completes a login (the profile by code, polled until it is
    /// there) or a logout.
    func handleExternalURL(_ url: String) async {
        guard RedirectURLMatcher(redirectURL: configuration.redirectURL).matches(url) else {
            emitStatus(StatusCatalog.status(.n500, message: "handleExternalURL ignored a URL that is not under the redirect URL \(configuration.redirectURL); nothing changed.", details: url))
            await reportCurrentAuthentication()
            return
        }
        let actions = machine.redirectReceived(now: now, pollInterval: configuration.secondScreenPollInterval)
        // A redirect while the profile is already being fetched joins that fetch: this call
        // carries the flow on, and the flow's one setAuthenticationStatus ends it.
        if actions.isEmpty, let flow = machine.currentFlow { carryOn(flow) }
        await perform(actions)
    }

    /// A poll answered: a profile, not yet, throttled, a passing failure, or a session the
    /// server no longer knows.
    func pollAnswered(_ flow: FlowID, session: AuthenticationSession, _ result: Result<[Profile], RESTClientError>) async {
        guard let requestor = requestorID else { return }
        let answer: ProfilePolling.Answer
        var stored: StoredProfile?
        var failure: AdvancedStatus?
        switch result {
        case .success(let profiles):
            if let profile = profiles.first(where: { $0.mvpd == session.mvpd }) ?? profiles.first {
                answer = .profile
                stored = StoredProfile(profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil, serviceProvider: client(for: session.mvpd).baseURL)
            } else {
                answer = .notYet
            }
        case .failure(.throttled(_, let retryAfter)):
            answer = .throttled(retryAfter: retryAfter)
        case .failure(let error):
            answer = ErrorClassification.isSessionGone(error) ? .sessionGone : .transientFailure
            failure = ErrorClassification.authenticationStatus(error)
        }
        await perform(machine.profileAnswered(flow, answer: answer, profile: stored, failure: failure, now: now))
    }

    /// Reports the current state without changing it (used where a call must end in
    /// `setAuthenticationStatus` but may not alter the session).
    func reportCurrentAuthentication() async {
        if await currentAuthentication().profile != nil {
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED))
        } else {
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
        }
    }
}
