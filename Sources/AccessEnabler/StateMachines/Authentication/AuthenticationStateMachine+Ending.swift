import Foundation

/// How a flow ends, and what it owes when it does: the answers that end it (a sign-in, a
/// failure, its caller's status), the flow another call ends, and the calls that end every
/// flow (setRequestor, the app's release).
extension AuthenticationStateMachine {
    // MARK: The answers that end a flow

    /// Delivers `callback`, which answers the flow's call: the calls carried over to the flow
    /// end with it too (``carriedOver``) — its `setAuthenticationStatus`, or a hand-over (the
    /// provider dialog, a login or logout page, the registration code).
    mutating func answer(_ callback: DelegateCall, to call: CallID?, _ step: inout Step) {
        step.deliver(callback, to: call, alsoEnding: takeCarriedOver())
    }

    /// Delivers `setAuthenticationStatus(0, code)` to `call`, the answer of the flow's call.
    mutating func answerUnauthenticated(_ code: String, to call: CallID?, _ step: inout Step) {
        answer(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: code), to: call, &step)
    }

    /// Delivers `tokenRequestFailed(resource, USER_NOT_AUTHENTICATED_ERROR, description)` to
    /// the waiting authorization's own call.
    func failAuthorization(_ pending: PendingAuthorization, _ description: String, _ step: inout Step) {
        step.deliver(
            .tokenRequestFailed(pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: description),
            to: pending.owner)
    }

    /// Stores a new sign-in, after CFG100 when the device's clock is found to differ from Adobe's.
    func store(_ profile: StoredProfile, reportingTo call: CallID?, _ step: inout Step) {
        step.reportClockDifferenceIfNew(to: call)
        step.storeSignIn(profile)
    }

    /// Authentication succeeded (`cached`: an existing profile answered): tracking and
    /// `setAuthenticationStatus(1, "")`, then the waiting authorization runs — unless the new
    /// sign-in is over already by Adobe's time (a clock set far ahead with no `Date` header to
    /// correct it), which is not a success.
    mutating func succeed(
        pending: PendingAuthorization?, cached: Bool, to call: CallID?, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        let alsoEnding = takeCarriedOver()
        let profile = step.facts.currentProfile
        let tracking = context.settings.tracking
        if !cached, let profile, let problem = EngineStateMachine.clockProblem(profile, at: step.facts.adobeNow) {
            let expired = StatusCatalog.status(.cfg100, message: problem)
            step.deliver(.status(expired), to: call)
            step.deliver(tracking.authentication(succeeded: false, profile: nil, cached: false), to: call)
            step.deliver(
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR),
                to: call, alsoEnding: alsoEnding)
            if let pending { failAuthorization(pending, expired.message ?? "", &step) }
            return
        }
        step.deliver(tracking.authentication(succeeded: true, profile: profile, cached: cached), to: call)
        step.deliver(
            .setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED), to: call,
            alsoEnding: alsoEnding)
        if let pending { step.followUps.append(.authorize(pending)) }
    }

    /// Authentication failed: the status, tracking, `setAuthenticationStatus(0, code)`, then
    /// `tokenRequestFailed` for the waiting authorization, if any.
    mutating func fail(
        _ status: AdvancedStatus?, errorCode code: String, pending: PendingAuthorization?, to call: CallID?,
        _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        let alsoEnding = takeCarriedOver()
        if let status { step.deliver(.status(status), to: call) }
        step.deliver(context.settings.tracking.authentication(succeeded: false, profile: nil, cached: false), to: call)
        step.deliver(
            .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: code), to: call, alsoEnding: alsoEnding)
        if let pending {
            failAuthorization(pending, StatusSentences.notAuthenticatedSoNotAuthorized(pending.resource), &step)
        }
    }

    /// The flow in progress fails for its owner, with its waiting authorization: the end of
    /// every flow that could not go on.
    mutating func failFlow(
        _ status: AdvancedStatus?, errorCode code: String = GENERIC_AUTHENTICATION_ERROR,
        _ context: AuthenticationContext, _ step: inout Step
    ) {
        state = .idle
        ownerAnswered = true
        fail(status, errorCode: code, pending: takePending(), to: owner, context, &step)
    }

    /// The flow in progress signs in with `profile` for its owner (`note`: the status the
    /// sign-in carries, after the store), with its waiting authorization.
    mutating func signIn(
        _ profile: StoredProfile, note: AdvancedStatus? = nil, _ context: AuthenticationContext, _ step: inout Step
    ) {
        state = .idle
        ownerAnswered = true
        store(profile, reportingTo: owner, &step)
        if let note { step.deliver(.status(note), to: owner) }
        succeed(pending: takePending(), cached: false, to: owner, context, &step)
    }

    // MARK: Ending the open flow

    /// Ends whatever flow is open: a partner sign-in is cancelled and its picker closed, a
    /// code is never polled again, a logout page's redirect is no longer awaited (that
    /// logout ends now, with its status). A waiting authorization is the caller's to decide:
    /// a new flow carries it on, a call that ends everything fails it. A session being opened
    /// is abandoned (its caller answered); a logout under way ends without Adobe's answer.
    mutating func endOpenFlow(carryingOver: Bool = true, _ step: inout Step) {
        switch state {
        case .signingInThroughPartner(let flow, let dialog):
            step.actions.append(.cancelPartnerSignIn(flow))
            if let dialog { step.deliver(.dismissTVProviderDialog(dialog), to: owner) }
        case .polling(let flow, _):
            step.actions.append(.stopPolling(flow))
            // The call that handed the code over still waits for the sign-in's end (the
            // async API's second stage): the status that ends this flow ends it too.
            if carryingOver, let owner, owner != pendingAuthorization?.owner, !carriedOver.contains(owner) {
                carriedOver.append(owner)
            }
        case .awaitingLogoutRedirect(let ticket, _, _):
            step.actions.append(.cancelLogoutPageTimer(ticket))
            answerUnauthenticated(USER_NOT_AUTHENTICATED_ERROR, to: owner, &step)
        case .openingSession, .awaitingConfiguration:
            abandonOpeningSession(.replaced, &step)
        case .loggingOut:
            // The local profile is gone already; the logout ends without Adobe's answer.
            answerUnauthenticated(USER_NOT_AUTHENTICATED_ERROR, to: owner, &step)
        case .idle, .choosingProvider, .awaitingRedirect:
            break
        }
        // A caller that has had no answer is answered by the call that takes over (a
        // getAuthorization's own answer is its token, which it gets whatever happens).
        if carryingOver, !ownerAnswered, let owner, owner != pendingAuthorization?.owner, !carriedOver.contains(owner) {
            carriedOver.append(owner)
        }
        ownerAnswered = true
        state = .idle
    }

    /// A waiting authorization left with no flow to carry it (the session it waited for was
    /// abandoned by a call that then started nothing, an unknown MVPD say) fails now.
    mutating func failOrphanedAuthorization(_ step: inout Step) {
        guard state == .idle, let pending = takePending() else { return }
        failAuthorization(pending, StatusSentences.authenticationEndedWithoutSignIn(pending.resource), &step)
    }

    // MARK: Calls that end every flow

    /// `setRequestor` starts. A login page or provider dialog of the same requestor
    /// survives (apps call setRequestor again when they return to the foreground, while the
    /// user finishes in the web view); a partner sign-in or a code being polled ends, as does
    /// everything of another requestor.
    mutating func requestorChanged(sameRequestor: Bool, _ step: inout Step) {
        switch state {
        case .choosingProvider, .awaitingRedirect:
            if sameRequestor { return }
        case .idle:
            // A session abandoned as this setRequestor arrived may have left its authorization.
            guard !sameRequestor, let pending = takePending() else { return }
            return failAuthorization(pending, StatusSentences.requestorEndedAuthentication(pending.resource), &step)
        case .openingSession, .awaitingConfiguration:
            // Another requestor's setRequestor abandons the session as it arrives.
            abandonOpeningSession(.requestorChanged, &step)
            if let pending = takePending() {
                failAuthorization(pending, StatusSentences.requestorEndedAuthentication(pending.resource), &step)
            }
            return
        default:
            break
        }
        endEverything(StatusSentences.requestorEndedAuthenticationUnderWay, &step)
        if let pending = takePending() {
            failAuthorization(pending, StatusSentences.requestorEndedAuthentication(pending.resource), &step)
        }
    }

    /// The app released the AccessEnabler: no answer will be read any more, so every
    /// authentication in the SDK's hands (a session being opened, a partner sign-in, a code
    /// being polled, a logout under way) ends now with the callbacks it owes, and a waiting
    /// authorization fails. A provider dialog or a login page the app still shows needs
    /// nothing: its call ended with the hand-over.
    mutating func released(_ step: inout Step) {
        switch state {
        case .openingSession, .awaitingConfiguration:
            abandonOpeningSession(.released, &step)
        default:
            endEverything(StatusSentences.releasedBeforeAuthenticationEnded, &step)
        }
        if let pending = takePending() {
            failAuthorization(pending, StatusSentences.releasedBeforeAuthorization(pending.resource), &step)
        }
    }

    /// Ends the open flow with no call to carry it on; an authentication in the SDK's hands (a
    /// partner sign-in, a code being polled) ends its owner with N500 saying `why`.
    private mutating func endEverything(_ why: String, _ step: inout Step) {
        let ownsAuthentication: Bool =
            switch state {
            case .signingInThroughPartner, .polling: true
            default: false
            }
        let flowOwner = owner
        endOpenFlow(carryingOver: false, &step)
        guard ownsAuthentication else { return }
        step.deliver(.status(StatusCatalog.status(.n500, message: why)), to: flowOwner)
        answerUnauthenticated(GENERIC_AUTHENTICATION_ERROR, to: flowOwner, &step)
    }
}
