import Foundation

extension EngineStateMachine {
    /// `logout`: the local profile goes first, whatever the network says; then Adobe Pass
    /// is told. An `appleSSO` profile ends with VSA203 (the system sign-in must be removed in
    /// the device's settings); a regular one navigates to the MVPD logout page on iOS.
    mutating func logout(call: CallID?, _ step: inout Step) {
        // Before any setRequestor, like every other call: CFG400, then its own terminal callback.
        if standing.state == .notSet, let problem = requestorProblem {
            perform(authentication.logoutRequested(by: call, request: nil), &step)
            step.deliver(.status(problem), to: call)
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call, alsoEnding: authentication.takeCarriedOver())
            return
        }
        guard let requestor = standing.requestorID, let profile = step.facts.currentProfile else {
            perform(authentication.logoutRequested(by: call, request: nil), &step)
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call, alsoEnding: authentication.takeCarriedOver())
            return
        }
        let ticket = newTicket()
        let logoutTarget = target(mvpd: profile.mvpd, step.facts)
        perform(authentication.logoutRequested(by: call, request: (ticket, profile)), &step)
        step.removeProfiles(of: requestor)
        step.actions.append(.logOut(ticket, logoutTarget))
    }

    /// The logout request answered.
    mutating func logoutAnswered(_ ticket: RequestTicket, _ result: Result<[LogoutAction], RESTClientError>, _ step: inout Step) {
        guard let (current, profile) = authentication.logoutInFlight, current == ticket else { return }
        let call = authentication.owner
        switch result {
        case .failure(let error):
            _ = authentication.logoutAnswered(ticket, openingPage: false)
            step.deliver(.status(StatusCatalog.status(.n500, message: "Signed out on this device, but Adobe Pass could not be told: \(error.message)")), to: call)
            if profile.type == .appleSSO { step.deliver(.status(vsa203), to: call) }
        case .success(let actions):
            let action = actions.first(where: { $0.mvpd == profile.mvpd }) ?? actions.first
            if profile.type == .appleSSO || action?.actionName == .partnerLogout {
                _ = authentication.logoutAnswered(ticket, openingPage: false)
                step.deliver(.status(vsa203), to: call)
            } else if settings.platform == .iOS, let url = action?.url, !url.isEmpty {
                let base = target(mvpd: profile.mvpd, step.facts).serviceProvider ?? settings.primaryServiceProvider
                let absolute = URL(string: url, relativeTo: base)?.absoluteString ?? url
                _ = authentication.logoutAnswered(ticket, openingPage: true)
                // handleExternalURL completes the logout.
                return step.deliver(navigation(to: absolute, mvpd: profile.mvpd), to: call, alsoEnding: authentication.takeCarriedOver())
            } else {
                _ = authentication.logoutAnswered(ticket, openingPage: false)
            }
        }
        step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call, alsoEnding: authentication.takeCarriedOver())
    }

    /// VSA203: signed out of the app, still signed in at system level.
    private var vsa203: AdvancedStatus {
        let settingsPath = settings.platform == .tvOS ? "Settings -> Accounts -> TV Provider" : "Settings -> TV Provider"
        return StatusCatalog.status(.vsa203, message: "Signed out of this application. The user is still signed in to the TV provider at system level and must sign out in \(settingsPath), or the next launch signs them in again.")
    }
}
