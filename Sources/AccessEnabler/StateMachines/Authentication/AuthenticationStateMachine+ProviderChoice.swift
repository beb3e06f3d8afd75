import Foundation

/// Starting an authentication and choosing the provider: the partner framework's picker or
/// the app's provider dialog, `setSelectedProvider`, and the configuration a choice waits for
/// when the device has no fresh copy.
extension AuthenticationStateMachine {
    // MARK: Starting

    /// `getAuthentication` (or `getAuthorization`'s authentication) once the requestor is
    /// ready. `authenticated`: a valid profile exists.
    ///
    /// With the provider chosen on the second screen (``EngineSettings/providerOnSecondScreen``)
    /// neither the partner framework nor the app's provider dialog is asked: a session without
    /// an MVPD is opened at once, and its code is shown (status `REGCODE`). Otherwise the
    /// partner framework signs in when it applies (``AuthenticationContext/partnerSignInApplies(_:)``),
    /// else the app's provider dialog opens — each first waiting for the configuration when no
    /// fresh copy is cached (``configurationFetched(_:_:_:_:)``).
    mutating func authenticationRequested(
        by caller: Caller, authenticated: Bool, forced: Bool, filter: PickerFilter?, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        if refuses(caller, &step) { return }
        endOpenFlow(&step)
        if case .getAuthorization(let pending) = caller {
            // An earlier authorization still waiting (its flow was abandoned a moment ago)
            // does not ride on this one.
            if let earlier = takePending() {
                failAuthorization(
                    earlier, StatusSentences.authorizationReplaced(earlier.resource, by: pending.resource), &step)
            }
            pendingAuthorization = pending
        }
        owner = caller.call
        ownerAnswered = true
        if authenticated && !forced {
            state = .idle
            return succeed(pending: takePending(), cached: true, to: caller.call, context, &step)
        }
        if context.settings.providerOnSecondScreen {
            let flow = newFlow()
            state = .openingSession(flow, mvpd: nil, step: .creating)
            ownerAnswered = false
            openSession(flow, mvpd: nil, opened: nil, context, &step)
        } else if !step.facts.hasFreshConfiguration {
            let flow = newFlow()
            state = .awaitingConfiguration(flow, for: .providerChoice(filter))
            ownerAnswered = false
            fetchConfiguration(flow, context, &step)
        } else if context.partnerSignInApplies(step.facts) {
            let flow = newFlow()
            state = .signingInThroughPartner(flow, dialog: nil)
            ownerAnswered = false
            startPartnerSignIn(flow, filter, context, &step)
        } else {
            state = .choosingProvider
            showProviderDialog(to: caller.call, &step)
        }
    }

    /// Refuses `caller` because another flow is open (a picker, a login page, a provider
    /// dialog or a code an authorization cannot join): delivers the refusal and says so.
    /// Changes nothing but the calls carried over to the open flow, which a refused
    /// `getAuthentication`'s status answers too, as every `setAuthenticationStatus` of the
    /// flow's does.
    mutating func refuses(_ caller: Caller, _ step: inout Step) -> Bool {
        switch (state, caller) {
        case (.signingInThroughPartner, _), (.awaitingConfiguration, _), (.openingSession, _), (.awaitingRedirect, _),
            (.choosingProvider, .getAuthorization), (.polling, .getAuthorization):
            break
        default:
            return false
        }
        let message =
            switch state {
            case .signingInThroughPartner: StatusSentences.partnerSignInStillOpen
            case .awaitingRedirect, .openingSession, .awaitingConfiguration: StatusSentences.loginPageAlreadyOpen
            case .polling: StatusSentences.secondScreenUnderWay
            default: StatusSentences.providerDialogWaiting
            }
        switch caller {
        case .getAuthentication(let call):
            step.deliver(.status(StatusCatalog.status(.n500, message: message)), to: call)
            answerUnauthenticated(GENERIC_AUTHENTICATION_ERROR, to: call, &step)
        case .getAuthorization(let pending):
            let refusal = StatusSentences.authorizationRefused(message, resource: pending.resource)
            step.deliver(.status(StatusCatalog.status(.n500, message: refusal)), to: pending.owner)
            failAuthorization(pending, StatusSentences.flowInProgress, &step)
        }
        return true
    }

    /// Delivers `displayProviderDialog` with the requestor's MVPDs: the answer of `call`.
    mutating func showProviderDialog(to call: CallID?, _ step: inout Step) {
        answer(.displayProviderDialog(step.facts.catalog?.mvpds ?? []), to: call, &step)
    }

    // MARK: The provider chosen

    /// `setSelectedProvider` with an MVPD (`nil`: the user backed out). An MVPD the device
    /// knows (the configuration, or what it stored of an earlier sign-in) opens a session at
    /// once; one it does not know is refused when the list the person chose from is at hand
    /// (the provider dialog on screen, or a fresh configuration), else the flow first waits for
    /// the configuration to say whether it is one of the requestor's.
    mutating func providerSelected(
        _ mvpd: String?, by call: CallID?, _ context: AuthenticationContext, _ step: inout Step
    ) {
        guard let mvpd else {
            endOpenFlow(&step)
            let pending = takePending()
            owner = nil
            step.deliver(
                .status(StatusCatalog.status(.n005, message: StatusSentences.providerSelectionCancelled)), to: call)
            answerUnauthenticated(PROVIDER_NOT_SELECTED_ERROR, to: call, &step)
            if let pending { failAuthorization(pending, StatusSentences.authenticationCancelled, &step) }
            return
        }
        let known = step.facts.knownProvider(mvpd) != nil
        if !known, state == .choosingProvider || step.facts.hasFreshConfiguration {
            // The dialog on screen shows the list the person chose from; a fresh copy is the list.
            let refusal = Self.providerRefusal(mvpd, context, step.facts)
            step.deliver(.status(refusal), to: call)
            step.deliver(
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: PROVIDER_NOT_AVAILABLE_ERROR), to: call
            )
            return
        }
        endOpenFlow(&step)
        let flow = newFlow()
        owner = call
        ownerAnswered = false
        guard known else {
            state = .awaitingConfiguration(flow, for: .selectedProvider(mvpd))
            return fetchConfiguration(flow, context, &step)
        }
        state = .openingSession(flow, mvpd: mvpd, step: .creating)
        trackProviderSelection(mvpd, to: call, context, &step)
        openSession(flow, mvpd: mvpd, opened: nil, context, &step)
    }

    /// N500 refusing `id`, which the configuration does not name.
    private static func providerRefusal(_ id: String, _ context: AuthenticationContext, _ facts: EngineFacts)
        -> AdvancedStatus
    {
        let choices = (facts.catalog?.mvpds ?? []).map(\.id)
        return StatusCatalog.status(
            .n500, message: StatusSentences.notAnMVPDOfTheRequestor(id, requestor: context.requestor, choices: choices))
    }

    /// Delivers `sendTrackingData(…, TRACKING_GET_SELECTED_PROVIDER)` for the MVPD chosen.
    func trackProviderSelection(
        _ mvpd: String, to call: CallID?, _ context: AuthenticationContext, _ step: inout Step
    ) {
        step.deliver(
            .sendTrackingData([mvpd] + context.settings.tracking.deviceFields, event: TRACKING_GET_SELECTED_PROVIDER),
            to: call)
    }

    // MARK: The configuration a flow waits for

    /// Asks for the requestor's configuration for `flow` (``configurationFetched(_:_:_:_:)``).
    func fetchConfiguration(_ flow: FlowID, _ context: AuthenticationContext, _ step: inout Step) {
        step.actions.append(
            .fetchConfigurationForFlow(
                flow, requestor: context.requestor ?? "", serviceProviders: context.targets.serviceProviders))
    }

    /// The configuration `flow` waited for arrived, or could not be had. The current
    /// requestor's is kept (cached, stored, published: a follow-up); then the person chooses
    /// (the partner framework's picker or the app's provider dialog), or the session for the
    /// MVPD selected opens — unless the configuration does not name it. A failure ends the
    /// flow's call with the CFG status setRequestor would have reported.
    mutating func configurationFetched(
        _ flow: FlowID, _ result: Result<RequestorCatalog, RESTClientError>, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        guard case .awaitingConfiguration(flow, let need) = state else { return }
        let catalog: RequestorCatalog
        switch result {
        case .failure(let error):
            return configurationFailed(status: ErrorClassification.requestorStatus(error), &step)
        case .success(let fetched):
            catalog = fetched
        }
        if let requestor = context.requestor, catalog.requestor == requestor {
            step.cacheConfiguration(catalog)
            step.followUps.append(.publishConfiguration)
            step.keepArrivedConfiguration(
                catalog, requestor: requestor, serviceProviders: context.targets.serviceProviders)
        }
        switch need {
        case .selectedProvider(let mvpd) where step.facts.knownProvider(mvpd) == nil:
            configurationFailed(
                status: Self.providerRefusal(mvpd, context, step.facts), errorCode: PROVIDER_NOT_AVAILABLE_ERROR, &step)
        case .selectedProvider(let mvpd):
            state = .openingSession(flow, mvpd: mvpd, step: .creating)
            trackProviderSelection(mvpd, to: owner, context, &step)
            openSession(flow, mvpd: mvpd, opened: nil, context, &step)
        case .providerChoice(let filter) where context.partnerSignInApplies(step.facts):
            state = .signingInThroughPartner(flow, dialog: nil)
            startPartnerSignIn(flow, filter, context, &step)
        case .providerChoice:
            state = .choosingProvider
            ownerAnswered = true
            showProviderDialog(to: owner, &step)
        }
    }

    /// The configuration the flow waited for could not be had (`status`: the CFG status
    /// setRequestor reports for the same failure), or does not name the MVPD selected
    /// (`errorCode` `PROVIDER_NOT_AVAILABLE_ERROR`): the flow's call ends, with a waiting
    /// authorization's `tokenRequestFailed`.
    private mutating func configurationFailed(
        status: AdvancedStatus, errorCode: String = GENERIC_AUTHENTICATION_ERROR, _ step: inout Step
    ) {
        state = .idle
        ownerAnswered = true
        step.deliver(.status(status), to: owner)
        answerUnauthenticated(errorCode, to: owner, &step)
        if let pending = takePending() {
            failAuthorization(
                pending, StatusSentences.authenticationCouldNotStart(pending.resource, because: status.message ?? ""),
                &step)
        }
    }
}
