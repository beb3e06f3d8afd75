import Foundation

extension EngineStateMachine {
    /// `setRequestor`: the pending logouts, DCR when there are no stored credentials or
    /// token, and `GET profiles` of every service provider — a warm launch is one request —
    /// then, with a partner framework, its silent checks (and the configuration they need
    /// while no profile is in force). Delivers only `setRequestorComplete` (plus advanced
    /// statuses).
    mutating func setRequestor(_ id: String, serviceProviders named: [String]?, call: CallID?, _ step: inout Step) {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            return failRequestor(
                StatusCatalog.status(.cfg400, message: StatusSentences.emptyRequestorID), call: call, &step)
        }
        if !settings.configurationProblems.isEmpty {
            let refusal = StatusCatalog.status(
                .cfg400, message: StatusSentences.configurationRefused(settings.configurationProblems))
            return failRequestor(refusal, call: call, &step)
        }
        if let refusal = settings.transportSecurity.refusal(
            for: settings.primaryServiceProvider, role: "The environment")
        {
            return failRequestor(StatusCatalog.status(.cfg400, message: refusal), call: call, &step)
        }
        var urls = [settings.primaryServiceProvider]
        if let named, !named.isEmpty {
            var parsed: [URL] = []
            for text in named {
                guard let url = ServiceProviderAddress.url(text) else {
                    return failRequestor(
                        StatusCatalog.status(.cfg404, message: StatusSentences.unreadableServiceProvider(text)),
                        call: call, &step)
                }
                if let refusal = settings.transportSecurity.refusal(for: url, role: "The service provider URL") {
                    return failRequestor(StatusCatalog.status(.cfg404, message: refusal), call: call, &step)
                }
                parsed.append(url)
            }
            urls = parsed
        }
        // Apps call setRequestor again when they come back to the foreground; a login the
        // user is finishing in the web view for the same requestor survives that (the
        // authentication machine decides what ends, and delivers what the ended flow owes).
        let sameRequestor = standing.requestorID == trimmed
        if !sameRequestor { learnedPreauthorizationLimit = nil }
        forward(&step) { machine, _, step in machine.requestorChanged(sameRequestor: sameRequestor, &step) }
        // The cached configuration is this requestor's, from these service providers.
        if !sameRequestor || urls != serviceProviders, step.facts.configuration != nil {
            step.facts.configuration = nil
            step.actions.append(.cacheConfiguration(nil))
            setStanding({ $0.catalog = nil }, &step)
        }
        setStanding({ $0.requestorID = trimmed }, &step)
        rememberServiceProviders(urls)
        let ticket = newTicket()
        // An `appleSSO` profile in force: Adobe Pass shows it only to a profiles request that
        // presents the partner framework's status, so that is asked first (no request).
        if settings.partnerConfigured, let current = step.facts.currentProfile, current.type == .appleSSO,
            current.isValid(at: step.facts.adobeNow)
        {
            foreground = .requestor(.checkingPartnerFirst(ticket, call: call))
            return step.actions.append(.askPartner(ticket, step.facts.knownCatalog(requestor: trimmed)))
        }
        foreground = .requestor(.loading(ticket, call: call, partner: nil))
        // Logouts Adobe Pass has not confirmed go first, before the profiles are asked.
        let pending = pendingLogoutTargets(step.facts.pendingLogouts[trimmed] ?? [])
        step.actions.append(
            .loadRequestor(
                ticket, requestor: trimmed, serviceProviders: urls, pendingLogouts: pending, partnerStatus: nil))
    }

    /// The partner framework answered before the profiles were asked: the profiles request
    /// presents its status when the answer validates one (permission granted, the account
    /// of a provider the device knows, not expired).
    mutating func loadProfiles(presenting snapshot: PartnerSnapshot, call: CallID?, _ step: inout Step) {
        guard let requestor = standing.requestorID else { return }
        let known = step.facts.knownCatalog(requestor: requestor)
        let status = PartnerStatusValidation.validatedStatus(
            access: snapshot.access, account: snapshot.account, knownMappingIDs: known.knownMappingIDs,
            now: step.facts.now)
        let ticket = newTicket()
        let answer = LaunchPartnerAnswer(snapshot: snapshot, presented: status)
        foreground = .requestor(.loading(ticket, call: call, partner: answer))
        let pending = pendingLogoutTargets(step.facts.pendingLogouts[requestor] ?? [])
        step.actions.append(
            .loadRequestor(
                ticket, requestor: requestor, serviceProviders: serviceProviders, pendingLogouts: pending,
                partnerStatus: status))
    }

    /// The profiles arrived (or could not be had): a warm launch is ready with this one
    /// request; a partner framework may still need the configuration and its silent answers.
    mutating func requestorLoaded(_ ticket: RequestTicket, _ load: RequestorLoad, _ step: inout Step) {
        guard case .requestor(.loading(ticket, let call, let partner))? = foreground,
            let requestor = standing.requestorID
        else { return }
        foreground = nil
        restoreStoredConfiguration(requestor: requestor, &step)
        forgetConfirmedLogouts(load.logoutsConfirmed, requestor: requestor, &step)
        // Logouts of this requestor not sent yet (stored while its setRequestor waited)
        // go first, then the profiles are asked again.
        if load.logoutsSent.isEmpty, !step.facts.profiles.pendingLogouts.isEmpty {
            let next = newTicket()
            foreground = .requestor(.loading(next, call: call, partner: partner))
            let pending = pendingLogoutTargets(step.facts.profiles.pendingLogouts)
            step.actions.append(
                .loadRequestor(
                    next, requestor: requestor, serviceProviders: serviceProviders, pendingLogouts: pending,
                    partnerStatus: partner?.presented))
            return
        }
        switch load.profiles {
        case .success(let answered)?:
            let change = ProfileReconciliation.reconcile(
                step.facts.profiles, answered: answered, vouchedProvider: partner?.presented?.providerID,
                now: step.facts.adobeNow)
            step.store(change, requestor: requestor)
        case .failure(let error)?:
            // A refused single sign-on token is said, and a refusal of the requestor or the
            // application fails it; when Adobe Pass could not answer (unreachable, failing),
            // what the device stored stands.
            if let refused = ErrorClassification.refusedSingleSignOnToken(error) {
                step.deliver(.status(refused), to: call)
            } else if Self.failsTheRequestor(error), !Self.keepsTheStoredProfiles(error, step.facts.profiles) {
                let status = ErrorClassification.requestorStatus(error, requestor: requestor)
                return failRequestor(status, call: call, &step)
            }
        case nil:
            break
        }
        setStanding({ $0.state = .ready }, &step)
        step.reportClockDifferenceIfNew(to: call)
        checkPartner(call: call, asked: partner?.snapshot, &step)
    }

    /// With a partner framework: a regular profile in force needs nothing more; an
    /// `appleSSO` one is checked with the partner framework's silent answers (about the
    /// provider the device remembers, no configuration); with no profile in force the
    /// configuration tells whether partner single sign-on applies, and the partner framework
    /// whether a system-level sign-in can be exchanged silently. The answers `asked` before
    /// the profiles judge an `appleSSO` profile still in force (the partner is not asked twice).
    private mutating func checkPartner(call: CallID?, asked: PartnerSnapshot?, _ step: inout Step) {
        guard settings.partnerConfigured, let requestor = standing.requestorID else {
            return completeRequestor(call: call, &step)
        }
        let now = step.facts.adobeNow
        if let current = step.facts.currentProfile, current.isValid(at: now) {
            guard current.type == .appleSSO else { return completeRequestor(call: call, &step) }
            if let asked { return reconcilePartnerSignIn(asked, call: call, &step) }
            let ticket = newTicket()
            foreground = .requestor(.checkingPartner(ticket, call: call))
            return step.actions.append(.askPartner(ticket, step.facts.knownCatalog(requestor: requestor)))
        }
        withConfiguration(call: call, then: .askPartner, &step)
    }

    /// Runs `next` with the configuration: the cached one when it is fresh, else once it is fetched.
    private mutating func withConfiguration(call: CallID?, then next: PartnerCheck, _ step: inout Step) {
        guard step.facts.hasFreshConfiguration, let catalog = step.facts.catalog else {
            let ticket = newTicket()
            foreground = .requestor(.loadingConfiguration(ticket, call: call, next: next))
            return step.actions.append(
                .fetchConfiguration(ticket, requestor: standing.requestorID ?? "", serviceProviders: serviceProviders))
        }
        switch next {
        case .askPartner:
            guard partnerSignInApplies(step.facts) else { return completeRequestor(call: call, &step) }
            let ticket = newTicket()
            foreground = .requestor(.checkingPartner(ticket, call: call))
            step.actions.append(.askPartner(ticket, catalog))
        case .judge(let snapshot):
            reconcilePartnerSignIn(snapshot, call: call, &step)
        }
    }

    /// Whether a failed `GET profiles` fails setRequestor: the application could not register
    /// or get its access token (nothing would work), Adobe Pass refused the requestor or the
    /// application (an unknown requestor is CFG400, as it was when the configuration told it;
    /// a refused access token R401), or throttled the device (CFG429). A server that could not
    /// answer the profiles leaves the stored profiles standing.
    static func failsTheRequestor(_ error: RESTClientError) -> Bool {
        if error.operation == .dcrRegister || error.operation == .dcrToken { return true }
        return switch ErrorClassification.requestorStatus(error).errorId {
        case .cfg400, .cfg429, .r400, .r401: true
        default: false
        }
    }

    /// Whether a refused access token at setRequestor leaves the requestor ready with what the
    /// device stored: a `401` to `GET profiles` that a renewed token did not cure (a bad minute
    /// at Adobe Pass must not sign the person out for the session) when a profile is stored —
    /// as a server failure does. Each later call that needs the server tries a new token once
    /// more before it reports R401. With nothing stored, setRequestor fails with R401 (a
    /// software statement that does not cover the requestor, say).
    static func keepsTheStoredProfiles(_ error: RESTClientError, _ profiles: RequestorProfiles) -> Bool {
        error.operation == .profiles && error.httpStatus == 401 && !profiles.all.isEmpty
    }

    /// Where the requestor's pending logouts go.
    func pendingLogoutTargets(_ logouts: [PendingLogout]) -> [RESTTarget] {
        logouts.map { logout in
            RESTTarget(
                requestor: standing.requestorID ?? "", mvpd: logout.mvpd,
                serviceProvider: logout.serviceProviderURL.flatMap {
                    knownServiceProviders.contains($0) ? URL(string: $0) : nil
                })
        }
    }

    /// Logouts Adobe Pass confirmed are no longer pending.
    mutating func forgetConfirmedLogouts(_ confirmed: [PendingLogout], requestor: String, _ step: inout Step) {
        let mvpds = Set(confirmed.map(\.mvpd))
        guard !mvpds.isEmpty, step.facts.profiles.pendingLogouts.contains(where: { mvpds.contains($0.mvpd) }) else {
            return
        }
        var profiles = step.facts.profiles
        profiles.pendingLogouts.removeAll { mvpds.contains($0.mvpd) }
        step.store(
            ProfileChange(profiles: profiles, keepingMediaTokensOf: nil, droppingPreauthorizations: false),
            requestor: requestor)
    }

    /// The silent part of setRequestor with a partner framework: report a permission
    /// problem, drop an `appleSSO` profile whose system sign-in is gone, and exchange a
    /// system sign-in for an Adobe profile when no valid profile is stored.
    mutating func reconcilePartnerSignIn(_ snapshot: PartnerSnapshot, call: CallID?, _ step: inout Step) {
        foreground = nil
        if let status = PartnerPermission.status(snapshot.access, errorID: .appl) {
            step.deliver(.status(status), to: call)
            return completeRequestor(call: call, &step)
        }
        if let error = snapshot.metadataError {
            let unreadable = StatusCatalog.status(
                .appl, message: StatusSentences.partnerAccountUnreadable, details: "\(error.code): \(error.message)")
            step.deliver(.status(unreadable), to: call)
            return completeRequestor(call: call, &step)
        }
        guard let requestor = standing.requestorID else { return completeRequestor(call: call, &step) }
        let now = step.facts.adobeNow
        let configured = step.facts.catalog?.mvpdsByID
        if let stored = step.facts.currentProfile, stored.type == .appleSSO,
            ProfileValidity.evaluate(stored, configuredMVPDs: configured, partner: snapshot, now: now)
                == .partnerSignInGone
        {
            step.removeProfiles(of: requestor)
        }
        if let current = step.facts.currentProfile,
            ProfileValidity.evaluate(current, configuredMVPDs: configured, partner: snapshot, now: now) == .valid
        {
            return completeRequestor(call: call, &step)
        }
        guard let providerID = snapshot.signedInProvider(at: step.facts.now) else {
            return completeRequestor(call: call, &step)
        }
        // A system-level sign-in with no profile in force: what the provider is for this
        // requestor is the configuration's to say.
        guard step.facts.hasFreshConfiguration, let catalog = step.facts.catalog else {
            return withConfiguration(call: call, then: .judge(snapshot), &step)
        }
        guard case .partnerExchange(let mvpd, _) = PickerOutcome.classify(providerID: providerID, mvpds: catalog.mvpds),
            let status = PartnerStatusValidation.validatedStatus(
                access: snapshot.access, account: snapshot.account, knownMappingIDs: catalog.knownMappingIDs,
                now: step.facts.now)
        else { return completeRequestor(call: call, &step) }
        let ticket = newTicket()
        foreground = .requestor(.signingInSilently(ticket, call: call))
        step.actions.append(.signInSilently(ticket, mvpd: mvpd, partnerStatus: status, catalog: catalog))
    }

    /// The silent exchange ended; any failure simply leaves the user unauthenticated.
    mutating func silentSignInFinished(_ ticket: RequestTicket, _ profile: StoredProfile?, _ step: inout Step) {
        guard case .requestor(.signingInSilently(ticket, let call))? = foreground else { return }
        foreground = nil
        if let profile { step.storeSignIn(profile) }
        completeRequestor(call: call, &step)
    }

    private func completeRequestor(call: CallID?, _ step: inout Step) {
        step.deliver(.setRequestorComplete(ACCESS_ENABLER_STATUS_SUCCESS), to: call)
    }

    private mutating func failRequestor(_ status: AdvancedStatus, call: CallID?, _ step: inout Step) {
        setStanding({ $0.state = .failed(status) }, &step)
        step.deliver(.status(status), to: call)
        step.deliver(.setRequestorComplete(ACCESS_ENABLER_STATUS_ERROR), to: call)
    }

    /// A configuration fetch of the machine's own (`ticket`) answered: setRequestor's partner
    /// check goes on, or an authorization that Adobe Pass advised to fetch it is sent again
    /// (with the cached copy when the fetch failed).
    mutating func configurationFetched(
        _ ticket: RequestTicket, _ result: Result<RequestorCatalog, RESTClientError>, _ step: inout Step
    ) {
        if case .success(let catalog) = result, catalog.requestor == standing.requestorID {
            configurationArrived(catalog, &step)
        }
        switch foreground {
        case .requestor(.loadingConfiguration(ticket, let call, let next))?:
            foreground = nil
            switch result {
            case .failure(let error):
                let status = ErrorClassification.requestorStatus(error, requestor: standing.requestorID)
                failRequestor(status, call: call, &step)
            case .success:
                withConfiguration(call: call, then: next, &step)
            }
        case .authorizing(var round)?:
            guard round.configurationRefetched(ticket) else { return }
            foreground = .authorizing(round)
            resend(ticket, &step)
        case .preauthorizing(var round)?:
            guard round.configurationRefetched(ticket) else { return }
            foreground = .preauthorizing(round)
            askNextPreauthorizationBatch(&step)
        default:
            break
        }
    }

    /// A relaunched app's first setRequestor takes up the configuration an earlier process
    /// stored, when it is these service providers' and still young enough to reuse
    /// (``CachedConfiguration/isFresh(at:)`` on the device clock): as if this process had
    /// fetched it then.
    mutating func restoreStoredConfiguration(requestor: String, _ step: inout Step) {
        guard step.facts.configuration == nil, let stored = step.facts.storedConfiguration,
            let cached = stored.cached(requestor: requestor, serviceProviders: serviceProviders),
            cached.isFresh(at: step.facts.now)
        else { return }
        step.facts.configuration = cached
        step.actions.append(.cacheConfiguration(cached))
        setStanding({ $0.catalog = cached.catalog }, &step)
    }

    /// A configuration arrived: it is cached and published, and the providers the device
    /// stored knowing only their id are described with it.
    mutating func configurationArrived(_ catalog: RequestorCatalog, _ step: inout Step) {
        step.cacheConfiguration(catalog)
        setStanding({ $0.catalog = catalog }, &step)
        guard let requestor = standing.requestorID else { return }
        step.keepArrivedConfiguration(catalog, requestor: requestor, serviceProviders: serviceProviders)
    }
}
