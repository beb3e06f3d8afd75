import Foundation

extension EngineStateMachine {
    /// `setRequestor`: DCR (cached), configuration from every service provider concurrently,
    /// then the partner framework's silent checks. Delivers only `setRequestorComplete`
    /// (plus advanced statuses).
    mutating func setRequestor(_ id: String, serviceProviders named: [String]?, call: CallID?, _ step: inout Step) {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            return failRequestor(StatusCatalog.status(.cfg400, message: "setRequestor needs a requestor id; an empty one was given."), call: call, &step)
        }
        if !settings.configurationProblems.isEmpty {
            let problems = settings.configurationProblems.joined(separator: " ")
            return failRequestor(StatusCatalog.status(.cfg400, message: "\(problems) Fix the configuration: setRequestor refuses it until then."), call: call, &step)
        }
        if let refusal = settings.transportSecurity.refusal(for: settings.primaryServiceProvider, role: "The environment") {
            return failRequestor(StatusCatalog.status(.cfg400, message: refusal), call: call, &step)
        }
        var urls = [settings.primaryServiceProvider]
        if let named, !named.isEmpty {
            var parsed: [URL] = []
            for text in named {
                guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                    return failRequestor(
                        StatusCatalog.status(.cfg404, message: "setRequestor was given a service provider URL that is not an http(s) URL: \(text)"), call: call, &step)
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
        perform(authentication.requestorChanged(sameRequestor: sameRequestor), &step)
        setStanding({ $0.requestorID = trimmed }, &step)
        rememberServiceProviders(urls)
        let ticket = newTicket()
        foreground = .requestor(.loading(ticket, call: call))
        // Logouts Adobe Pass has not confirmed go first, before the profiles are asked.
        let pending = pendingLogoutTargets(step.facts.pendingLogouts[trimmed] ?? [])
        step.actions.append(.loadRequestor(ticket, requestor: trimmed, serviceProviders: urls, pendingLogouts: pending, configuration: true))
    }

    /// The configuration and the profiles arrived (or could not be had).
    mutating func requestorLoaded(_ ticket: RequestTicket, _ load: RequestorLoad, _ step: inout Step) {
        guard case .requestor(.loading(ticket, let call))? = foreground, let requestor = standing.requestorID else { return }
        foreground = nil
        forgetConfirmedLogouts(load.logoutsConfirmed, requestor: requestor, &step)
        switch load.catalog {
        case .failure(let error)?:
            return failRequestor(ErrorClassification.requestorStatus(error), call: call, &step)
        case .success(let catalog)?:
            setStanding(
                {
                    $0.catalog = catalog
                    $0.state = .ready
                }, &step)
            reportClockDifferenceIfNew(to: call, &step)
        case nil:
            break
        }
        // Logouts of this requestor not sent yet (stored while its setRequestor waited)
        // go first, then the profiles are asked again.
        if load.logoutsSent.isEmpty, !step.facts.profiles.pendingLogouts.isEmpty {
            let next = newTicket()
            foreground = .requestor(.loading(next, call: call))
            let pending = pendingLogoutTargets(step.facts.profiles.pendingLogouts)
            step.actions.append(.loadRequestor(next, requestor: requestor, serviceProviders: serviceProviders, pendingLogouts: pending, configuration: false))
            return
        }
        switch load.profiles {
        case .success(let answered)?:
            step.store(ProfileReconciliation.reconcile(step.facts.profiles, answered: answered, now: step.facts.adobeNow), requestor: requestor)
        case .failure(let error)?:
            if case .throttled = error { return failRequestor(ErrorClassification.requestorStatus(error), call: call, &step) }
            // Otherwise the stored profiles stay; a refused single sign-on token is said.
            if let refused = ErrorClassification.refusedSingleSignOnToken(error) { step.deliver(.status(refused), to: call) }
        case nil:
            break
        }
        guard let catalog, partnerSignInApplies else { return completeRequestor(call: call, &step) }
        let next = newTicket()
        foreground = .requestor(.checkingPartner(next, call: call))
        step.actions.append(.askPartner(next, catalog))
    }

    /// Where the requestor's pending logouts go.
    func pendingLogoutTargets(_ logouts: [PendingLogout]) -> [RESTTarget] {
        logouts.map { logout in
            RESTTarget(
                requestor: standing.requestorID ?? "", mvpd: logout.mvpd,
                serviceProvider: logout.serviceProviderURL.flatMap { knownServiceProviders.contains($0) ? URL(string: $0) : nil })
        }
    }

    /// Logouts Adobe Pass confirmed are no longer pending.
    mutating func forgetConfirmedLogouts(_ confirmed: [PendingLogout], requestor: String, _ step: inout Step) {
        let mvpds = Set(confirmed.map(\.mvpd))
        guard !mvpds.isEmpty, step.facts.profiles.pendingLogouts.contains(where: { mvpds.contains($0.mvpd) }) else { return }
        var profiles = step.facts.profiles
        profiles.pendingLogouts.removeAll { mvpds.contains($0.mvpd) }
        step.store(ProfileChange(profiles: profiles, keepingMediaTokensOf: nil, droppingPreauthorizations: false), requestor: requestor)
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
            step.deliver(.status(StatusCatalog.status(.appl, message: "The TV provider account service could not be read.", details: "\(error.code): \(error.message)")), to: call)
            return completeRequestor(call: call, &step)
        }
        guard let requestor = standing.requestorID, let catalog else { return completeRequestor(call: call, &step) }
        let now = step.facts.adobeNow
        if let stored = step.facts.currentProfile, stored.type == .appleSSO,
            ProfileValidity.evaluate(stored, configuredMVPDs: catalog.mvpdsByID, partner: snapshot, now: now) == .partnerSignInGone
        {
            step.removeProfiles(of: requestor)
        }
        if let current = step.facts.currentProfile,
            ProfileValidity.evaluate(current, configuredMVPDs: catalog.mvpdsByID, partner: snapshot, now: now) == .valid
        {
            return completeRequestor(call: call, &step)
        }
        guard let providerID = snapshot.signedInProvider(at: step.facts.now),
            case .partnerExchange(let mvpd, _) = PickerOutcome.classify(providerID: providerID, mvpds: catalog.mvpds),
            let status = PartnerStatusValidation.validatedStatus(
                access: snapshot.access, account: snapshot.account, knownMappingIDs: catalog.knownMappingIDs, now: step.facts.now)
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

    /// Adobe Pass advised fetching the configuration again; `refetched` is the new one
    /// (`nil`: it could not be had, the cached one stays).
    mutating func configurationRefetched(_ ticket: RequestTicket, _ refetched: RequestorCatalog?, _ step: inout Step) {
        if let refetched, refetched.requestor == standing.requestorID {
            setStanding({ $0.catalog = refetched }, &step)
        }
        switch foreground {
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
}
