import Foundation

extension EngineStateMachine {
    // MARK: Calls

    /// `checkAuthentication`: answered from storage and the cached configuration, with no
    /// network call; the partner framework is asked only when no regular profile decides.
    mutating func checkAuthentication(call: CallID?, _ step: inout Step) {
        if let problem = requestorProblem {
            for callback in AuthenticationCheck.callbacks(requestorProblem: problem) {
                step.deliver(callback, to: call)
            }
            return
        }
        withVerdict(.checkAuthentication(call: call), &step)
    }

    /// `getAuthentication` in all its forms.
    mutating func getAuthentication(forced: Bool, filter: PickerFilter?, call: CallID?, _ step: inout Step) {
        if let problem = requestorProblem {
            step.deliver(.status(problem), to: call)
            step.deliver(
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR), to: call
            )
            return
        }
        // A request refused because another flow is open needs no look at the user's profile.
        var refused = false
        forward(&step) { machine, _, step in refused = machine.refuses(.getAuthentication(call), &step) }
        if refused { return }
        withVerdict(.getAuthentication(forced: forced, filter: filter, call: call), &step)
    }

    /// `setSelectedProvider`: `nil` backs out (always possible: it needs no requestor); an
    /// MVPD goes to the authentication machine, which opens its session, refuses it, or waits
    /// for the configuration to know it.
    mutating func setSelectedProvider(_ id: String?, call: CallID?, _ step: inout Step) {
        if id != nil, let problem = requestorProblem {
            step.deliver(.status(problem), to: call)
            step.deliver(
                .setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR), to: call
            )
            return
        }
        forward(&step) { machine, context, step in machine.providerSelected(id, by: call, context, &step) }
    }

    /// `handleExternalURL`: completes a login (the profile by code, polled until it is
    /// there) or a logout; a URL not under the redirect URL changes nothing.
    mutating func handleExternalURL(_ url: String, call: CallID?, _ step: inout Step) {
        guard RedirectURLMatcher(redirectURL: settings.redirectURL).matches(url) else {
            let ignored = StatusCatalog.status(
                .n500, message: StatusSentences.notUnderRedirectURL(settings.redirectURL), details: url)
            step.deliver(.status(ignored), to: call)
            return withVerdict(.reportAuthentication(call: call), &step)
        }
        forward(&step) { machine, context, step in machine.redirectReceived(by: call, context, &step) }
    }

    // MARK: Forwarding to the authentication machine

    /// What the authentication machine decides by besides its own state: handed in with each
    /// event, never read back.
    var authenticationContext: AuthenticationContext {
        AuthenticationContext(targets: targets, settings: settings, handlesSVC: options.handleSVC)
    }

    /// Hands an event to the authentication machine — `transition` is the one transition it
    /// runs, with the context of the moment — then does at once what it asked of this
    /// machine (``Step/FollowUp``). Every event the authentication machine hears comes
    /// through here; the engine's machine never reads its state to interpret an answer.
    mutating func forward(
        _ step: inout Step, _ transition: (inout AuthenticationStateMachine, AuthenticationContext, inout Step) -> Void
    ) {
        let context = authenticationContext
        transition(&authentication, context, &step)
        runFollowUps(&step)
    }

    /// Does what the authentication machine (or a change of the step's facts) asked of this
    /// machine, oldest first.
    mutating func runFollowUps(_ step: inout Step) {
        for followUp in step.takeFollowUps() {
            switch followUp {
            case .authorize(let pending):
                queue.insert(.authorizePending(pending), at: 0)
            case .reportAuthentication(let call):
                withVerdict(.reportAuthentication(call: call), &step)
            case .publishConfiguration:
                let catalog = step.facts.catalog
                setStanding({ $0.catalog = catalog }, &step)
            }
        }
    }

    /// Why a new sign-in is not in force by the time the device knows (a clock set far off
    /// with no `Date` header to correct it), in the words of CFG100; `nil` when it is.
    static func clockProblem(_ profile: StoredProfile, at adobeNow: Date) -> String? {
        switch profile.timing(at: adobeNow) {
        case .inForce:
            return nil
        case .alreadyOver:
            return StatusSentences.signInAlreadyOver(mvpd: profile.mvpd)
        case .notValidYet:
            return StatusSentences.signInNotValidYet(
                mvpd: profile.mvpd, tolerance: WholeNumber.clamped(StoredProfile.notBeforeTolerance))
        }
    }
}
