import Foundation

extension EngineStateMachine {
    /// `logout`: every profile the device holds for the requestor ends — the one in force, a
    /// regular one set aside for a TempPass, those of other MVPDs signed in earlier, and any
    /// logout still pending — with one `GET logout/{mvpd}` per MVPD, all at once. The local
    /// profiles go first, whatever the network says; each logout is pending (stored) until
    /// Adobe Pass confirms it, so one that fails is sent again at the next setRequestor.
    /// An `appleSSO` profile in force ends with VSA203 (the system sign-in must be removed in
    /// the device's settings); a regular one navigates to the MVPD logout page on iOS.
    mutating func logout(call: CallID?, _ step: inout Step) {
        // Before any setRequestor, like every other call: CFG400, then its own terminal callback.
        if standing.state == .notSet, let problem = requestorProblem {
            perform(authentication.logoutRequested(by: call, request: nil), &step)
            step.deliver(.status(problem), to: call)
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call, alsoEnding: authentication.takeCarriedOver())
            return
        }
        let profiles = step.facts.profiles
        let inForce = step.facts.currentProfile
        var ending = profiles.all
        if let inForce { ending.removeAll { $0.mvpd == inForce.mvpd }; ending.insert(inForce, at: 0) }
        var mvpds = ending.map(\.mvpd)
        var logouts = ending.map { PendingLogout(mvpd: $0.mvpd, serviceProviderURL: $0.serviceProviderURL) }
        for pending in profiles.pendingLogouts where !mvpds.contains(pending.mvpd) {
            mvpds.append(pending.mvpd)
            logouts.append(pending)
        }
        guard let requestor = standing.requestorID, let lead = ending.first ?? profiles.pendingLogouts.first.map(Self.placeholder) else {
            perform(authentication.logoutRequested(by: call, request: nil), &step)
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call, alsoEnding: authentication.takeCarriedOver())
            return
        }
        let ticket = newTicket()
        var targets = logouts.map { target(ending: $0, step.facts) }
        if let inForce { targets[0] = target(mvpd: inForce.mvpd, step.facts) }
        perform(authentication.logoutRequested(by: call, request: (ticket, lead)), &step)
        logoutOpensPageFor = inForce.flatMap { $0.type == .appleSSO ? nil : $0.mvpd }
        step.store(ProfileChange(profiles: RequestorProfiles(pendingLogouts: logouts), keepingMediaTokensOf: [], droppingPreauthorizations: true), requestor: requestor)
        step.actions.append(.logOut(ticket, targets))
    }

    /// The logout requests answered.
    mutating func logoutAnswered(_ ticket: RequestTicket, _ answers: LogoutAnswers, _ step: inout Step) {
        guard let (current, profile) = authentication.logoutInFlight, current == ticket else { return }
        let call = authentication.owner
        let pageMVPD = logoutOpensPageFor
        logoutOpensPageFor = nil
        if let requestor = standing.requestorID {
            var profiles = step.facts.profiles
            let failed = answers.failedMVPDs.union(answers.lead.map { if case .failure = $0 { [profile.mvpd] } else { [] } } ?? [])
            let asked = Set(answers.byMVPD.keys).union(answers.lead == nil ? [] : [profile.mvpd])
            profiles.pendingLogouts.removeAll { asked.contains($0.mvpd) && !failed.contains($0.mvpd) }
            if profiles != step.facts.profiles {
                step.store(ProfileChange(profiles: profiles, keepingMediaTokensOf: nil, droppingPreauthorizations: false), requestor: requestor)
            }
        }
        let leadAnswer = answers.answer(for: profile.mvpd) ?? .success([])
        switch leadAnswer {
        case .failure(let error):
            _ = authentication.logoutAnswered(ticket, openingPage: false)
            step.deliver(.status(ErrorClassification.refusedSingleSignOnToken(error) ?? Self.unconfirmed(error, of: nil)), to: call)
            if profile.type == .appleSSO { step.deliver(.status(vsa203), to: call) }
        case .success(let actions):
            let action = actions.first(where: { $0.mvpd == profile.mvpd }) ?? actions.first
            if profile.type == .appleSSO || action?.actionName == .partnerLogout {
                _ = authentication.logoutAnswered(ticket, openingPage: false)
                step.deliver(.status(vsa203), to: call)
            } else if settings.platform == .iOS, pageMVPD == profile.mvpd, let url = action?.url, !url.isEmpty {
                let base = target(mvpd: profile.mvpd, step.facts).serviceProvider ?? settings.primaryServiceProvider
                let absolute = URL(string: url, relativeTo: base)?.absoluteString ?? url
                _ = authentication.logoutAnswered(ticket, openingPage: true)
                // handleExternalURL completes the logout.
                return step.deliver(navigation(to: absolute, mvpd: profile.mvpd), to: call, alsoEnding: authentication.takeCarriedOver())
            } else {
                _ = authentication.logoutAnswered(ticket, openingPage: false)
            }
        }
        // The other MVPDs end without a page; one whose logout failed is said once.
        if let other = answers.failedMVPDs.subtracting([profile.mvpd]).sorted().first, case .failure(let error)? = answers.byMVPD[other] {
            step.deliver(.status(Self.unconfirmed(error, of: other)), to: call)
        }
        step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call, alsoEnding: authentication.takeCarriedOver())
    }

    /// N500: the device is signed out, but Adobe Pass did not confirm the logout (of `mvpd`,
    /// when it is not the profile in force); it is sent again at the next setRequestor.
    private static func unconfirmed(_ error: RESTClientError, of mvpd: String?) -> AdvancedStatus {
        let whose = mvpd.map { " about \($0)" } ?? ""
        let message = "Signed out on this device, but Adobe Pass could not be told\(whose): \(error.message) The logout is sent again at the next setRequestor."
        return StatusCatalog.status(.n500, message: message)
    }

    /// Where a logout of `logout`'s MVPD goes: the service provider that issued its profile
    /// when that one is known, else the catalog's for the MVPD.
    private func target(ending logout: PendingLogout, _ facts: EngineFacts) -> RESTTarget {
        var target = target(mvpd: logout.mvpd, facts)
        if let url = logout.serviceProviderURL, knownServiceProviders.contains(url) { target.serviceProvider = URL(string: url) }
        return target
    }

    /// A stand-in profile for a logout with nothing stored but pending logouts: it opens no
    /// page and names the MVPD.
    private static func placeholder(_ logout: PendingLogout) -> StoredProfile {
        StoredProfile(
            requestor: "", mvpd: logout.mvpd, type: .regular, notBefore: .distantPast, notAfter: .distantPast, attributes: [:],
            tokenSource: nil, partnerProviderID: nil, serviceProviderURL: logout.serviceProviderURL)
    }

    /// VSA203: signed out of the app, still signed in at system level.
    private var vsa203: AdvancedStatus {
        let settingsPath = settings.platform == .tvOS ? "Settings -> Accounts -> TV Provider" : "Settings -> TV Provider"
        return StatusCatalog.status(
            .vsa203,
            message:
                "Signed out of this application. The user is still signed in to the TV provider at system level and must sign out in \(settingsPath), or the next launch signs them in again."
        )
    }
}
