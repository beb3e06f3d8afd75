import Foundation

extension EngineStateMachine {
    /// `logout`: every profile the device holds for the requestor ends — the one in force, a
    /// regular one set aside for a TempPass, those of other MVPDs signed in earlier, and any
    /// logout still pending — with one `GET logout/{mvpd}` per MVPD, all at once. The local
    /// profiles go first, whatever the network says; each logout is pending (stored) until
    /// Adobe Pass confirms it, so one that fails is sent again at the next setRequestor.
    /// An `appleSSO` profile in force ends with VSA203 (the system sign-in must be removed in
    /// the device's settings); on iOS every MVPD logout page the answers carry is handed
    /// over, one after another (``logoutAnswered(_:_:_:)``).
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
        // Every MVPD the logout ends may have a page to open, the one in force first; an
        // `appleSSO` profile's is the system settings' (VSA203), never a page.
        let appleSSO = Set(ending.filter { $0.type == .appleSSO }.map(\.mvpd))
        logoutOpensPagesFor = mvpds.filter { !appleSSO.contains($0) }
        step.store(ProfileChange(profiles: RequestorProfiles(pendingLogouts: logouts), keepingMediaTokensOf: [], droppingPreauthorizations: true), requestor: requestor)
        step.actions.append(.logOut(ticket, targets))
    }

    /// The logout requests answered: statuses (a logout Adobe Pass did not confirm, VSA203),
    /// then on iOS the MVPD logout pages one after another (each completed by
    /// `handleExternalURL`, or ended by itself when the app does not come back within the
    /// request timeout), and the logout's `setAuthenticationStatus(0, …)` after the last.
    mutating func logoutAnswered(_ ticket: RequestTicket, _ answers: LogoutAnswers, _ step: inout Step) {
        guard let (current, profile) = authentication.logoutInFlight, current == ticket else { return }
        let call = authentication.owner
        let pageMVPDs = logoutOpensPagesFor
        logoutOpensPagesFor = []
        if let requestor = standing.requestorID {
            var profiles = step.facts.profiles
            // A logout refused because the integration is gone needs no second try.
            var leadFailed: Set<String> = []
            if case .failure? = answers.lead { leadFailed = [profile.mvpd] }
            let failed = answers.failedMVPDs.union(leadFailed).filter { mvpd in !answers.integrationEnded(mvpd) }
            let asked = Set(answers.byMVPD.keys).union(answers.lead == nil ? [] : [profile.mvpd])
            profiles.pendingLogouts.removeAll { asked.contains($0.mvpd) && !failed.contains($0.mvpd) }
            if profiles != step.facts.profiles {
                step.store(ProfileChange(profiles: profiles, keepingMediaTokensOf: nil, droppingPreauthorizations: false), requestor: requestor)
            }
        }
        let leadAnswer = answers.answer(for: profile.mvpd) ?? .success([])
        switch leadAnswer {
        case .failure(let error) where IntegrationEnded.applies(to: error.enhancedError):
            if profile.type == .appleSSO { step.deliver(.status(vsa203), to: call) }
        case .failure(let error):
            step.deliver(.status(ErrorClassification.refusedSingleSignOnToken(error) ?? Self.unconfirmed(error, of: nil)), to: call)
            if profile.type == .appleSSO { step.deliver(.status(vsa203), to: call) }
        case .success(let actions):
            let action = actions.first(where: { $0.mvpd == profile.mvpd }) ?? actions.first
            if profile.type == .appleSSO || action?.actionName == .partnerLogout { step.deliver(.status(vsa203), to: call) }
        }
        // The other MVPDs' logouts; one that failed is said once.
        let othersFailed = answers.failedMVPDs.subtracting([profile.mvpd]).filter { !answers.integrationEnded($0) }
        if let other = othersFailed.sorted().first,
            case .failure(let error)? = answers.byMVPD[other]
        {
            step.deliver(.status(Self.unconfirmed(error, of: other)), to: call)
        }
        // tvOS keeps the legacy rule: no navigateToUrl on logout. Each page reaches the app
        // as a status instead, for the person to open on another device.
        var pages = logoutPages(answers, mvpds: pageMVPDs, step.facts)
        if settings.platform != .iOS {
            for page in pages { step.deliver(.status(Self.logoutPageStatus(page)), to: call) }
            pages = []
        }
        guard let opening = authentication.logoutAnswered(ticket, pages: pages, now: step.facts.now, pageTimeout: settings.logoutPageTimeout), !opening.isEmpty else {
            step.deliver(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR), to: call, alsoEnding: authentication.takeCarriedOver())
            return
        }
        perform(opening, &step)
    }

    /// Every MVPD logout page the answers carry (actions `logout` with a URL: Adobe Pass
    /// names one for each profile it deleted), the answers read in the order of `mvpds`, each
    /// URL once, made absolute against the service provider that answered.
    private func logoutPages(_ answers: LogoutAnswers, mvpds: [String], _ facts: EngineFacts) -> [AuthenticationStateMachine.LogoutPage] {
        var pages: [AuthenticationStateMachine.LogoutPage] = []
        for mvpd in mvpds {
            guard case .success(let actions)? = answers.answer(for: mvpd) else { continue }
            let base = target(mvpd: mvpd, facts).serviceProvider ?? settings.primaryServiceProvider
            // One answer may carry several MVPDs' actions (a single logout): each page counts.
            for action in actions where action.actionName == .logout {
                guard let url = action.url, !url.isEmpty else { continue }
                let absolute = URL(string: url, relativeTo: base)?.absoluteString ?? url
                if !pages.contains(where: { $0.url == absolute }) { pages.append(.init(url: absolute, mvpd: action.mvpd)) }
            }
        }
        return pages
    }

    /// LOGOUT_PAGE: an MVPD logout page a device that opens no page hands to the person.
    private static func logoutPageStatus(_ page: AuthenticationStateMachine.LogoutPage) -> AdvancedStatus {
        let message =
            "To finish signing out of \(page.mvpd), the person opens this page on a phone or computer "
            + "(show the URL or a QR code of it); nothing was opened on this device."
        return StatusCatalog.status(.logoutPage, message: message, details: page.url)
    }

    /// The app did not come back from a logout page in time.
    mutating func logoutPageTimedOut(_ ticket: RequestTicket, _ step: inout Step) {
        perform(authentication.logoutPageTimedOut(ticket, pageTimeout: settings.logoutPageTimeout), &step)
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
