import Foundation

/// The logout round trip: the logout requests under way (one per MVPD), their answers as
/// Adobe Pass gave them, then on iOS the MVPD logout pages one after another, each completed
/// by `handleExternalURL` or ended by itself when the app does not come back in time.
extension AuthenticationStateMachine {
    /// One MVPD logout page a logout hands over.
    struct LogoutPage: Sendable, Equatable {
        /// The page's absolute URL.
        var url: String
        /// The MVPD it logs out of.
        var mvpd: String
    }

    /// The logout requests a `logout` sent.
    struct LogoutRequest: Sendable, Equatable {
        /// The requests' ticket: their answers come back as one event.
        var ticket: RequestTicket
        /// The profile the logout ends first (the one in force), already removed from the device.
        var lead: StoredProfile
        /// The MVPDs whose logout page the logout may open (the regular profiles it ends, the
        /// one in force first); an `appleSSO` profile ends without one.
        var opensPagesFor: [String]
    }

    /// `logout` starts: whatever is open ends (the logout's own `setAuthenticationStatus`
    /// ends an authentication in progress); a waiting authorization fails. With `request`,
    /// the logout waits for its requests' answers (``logoutAnswered(_:_:_:_:)``); without
    /// (nothing to log out of, or no requestor), it ends at once: `status` first when given
    /// (CFG400 before any setRequestor), then `setAuthenticationStatus(0,
    /// USER_NOT_AUTHENTICATED_ERROR)`.
    mutating func logoutRequested(
        by call: CallID?, request: LogoutRequest?, status: AdvancedStatus? = nil, _ step: inout Step
    ) {
        endOpenFlow(&step)
        if let pending = takePending() {
            failAuthorization(pending, StatusSentences.loggedOutBeforeAuthorization(pending.resource), &step)
        }
        owner = call
        // The logout answers its own call.
        ownerAnswered = true
        guard let request else {
            if let status { step.deliver(.status(status), to: call) }
            return answerUnauthenticated(USER_NOT_AUTHENTICATED_ERROR, to: call, &step)
        }
        state = .loggingOut(request)
    }

    /// The logout requests answered: pending logouts Adobe Pass confirmed are forgotten,
    /// statuses (a logout Adobe Pass did not confirm, VSA203), then on iOS the MVPD logout
    /// pages one after another (each completed by `handleExternalURL`, or ended by itself
    /// when the app does not come back within the request timeout); the logout's
    /// `setAuthenticationStatus(0, …)` after the last. Other devices open no page: each
    /// reaches the app as a status (LOGOUT_PAGE) for the person to open elsewhere.
    mutating func logoutAnswered(
        _ ticket: RequestTicket, _ answers: LogoutAnswers, _ context: AuthenticationContext, _ step: inout Step
    ) {
        guard case .loggingOut(let request) = state, request.ticket == ticket else { return }
        let call = owner
        let profile = request.lead
        if let requestor = context.requestor {
            forgetConfirmedLogouts(answers, lead: profile, requestor: requestor, &step)
        }
        let vsa203 = StatusCatalog.status(
            .vsa203, message: StatusSentences.stillSignedInAtSystemLevel(tvOS: context.settings.platform == .tvOS))
        switch answers.answer(for: profile.mvpd) ?? .success([]) {
        case .failure(let error) where IntegrationEnded.applies(to: error.enhancedError):
            if profile.type == .appleSSO { step.deliver(.status(vsa203), to: call) }
        case .failure(let error):
            step.deliver(
                .status(ErrorClassification.refusedSingleSignOnToken(error) ?? Self.unconfirmed(error, of: nil)),
                to: call)
            if profile.type == .appleSSO { step.deliver(.status(vsa203), to: call) }
        case .success(let actions):
            let action = actions.first(where: { $0.mvpd == profile.mvpd }) ?? actions.first
            if profile.type == .appleSSO || action?.actionName == .partnerLogout {
                step.deliver(.status(vsa203), to: call)
            }
        }
        // The other MVPDs' logouts; one that failed is said once.
        let othersFailed = answers.failedMVPDs.subtracting([profile.mvpd]).filter { !answers.integrationEnded($0) }
        if let other = othersFailed.sorted().first, case .failure(let error)? = answers.byMVPD[other] {
            step.deliver(.status(Self.unconfirmed(error, of: other)), to: call)
        }
        // tvOS keeps the legacy rule: no navigateToUrl on logout. Each page reaches the app
        // as a status instead, for the person to open on another device.
        var pages = Self.logoutPages(answers, mvpds: request.opensPagesFor, context, step.facts)
        if context.settings.platform != .iOS {
            for page in pages {
                let status = StatusCatalog.status(
                    .logoutPage, message: StatusSentences.logoutPageElsewhere(mvpd: page.mvpd), details: page.url)
                step.deliver(.status(status), to: call)
            }
            pages = []
        }
        guard let first = pages.first else {
            state = .idle
            return answerUnauthenticated(USER_NOT_AUTHENTICATED_ERROR, to: call, &step)
        }
        state = .awaitingLogoutRedirect(ticket, page: first, remaining: Array(pages.dropFirst()))
        openLogoutPage(first, ticket, to: call, context, &step)
    }

    /// Forgets the pending logouts Adobe Pass confirmed (a logout refused because the
    /// integration is gone needs no second try either); a failed one is sent again at the next
    /// setRequestor.
    private func forgetConfirmedLogouts(
        _ answers: LogoutAnswers, lead profile: StoredProfile, requestor: String, _ step: inout Step
    ) {
        var profiles = step.facts.profiles
        var leadFailed: Set<String> = []
        if case .failure? = answers.lead { leadFailed = [profile.mvpd] }
        let failed = answers.failedMVPDs.union(leadFailed).filter { mvpd in !answers.integrationEnded(mvpd) }
        let asked = Set(answers.byMVPD.keys).union(answers.lead == nil ? [] : [profile.mvpd])
        profiles.pendingLogouts.removeAll { asked.contains($0.mvpd) && !failed.contains($0.mvpd) }
        if profiles != step.facts.profiles {
            step.store(
                ProfileChange(profiles: profiles, keepingMediaTokensOf: nil, droppingPreauthorizations: false),
                requestor: requestor)
        }
    }

    /// Every MVPD logout page the answers carry (actions `logout` with a URL: Adobe Pass
    /// names one for each profile it deleted), the answers read in the order of `mvpds`, each
    /// URL once, made absolute against the service provider that answered.
    private static func logoutPages(
        _ answers: LogoutAnswers, mvpds: [String], _ context: AuthenticationContext, _ facts: EngineFacts
    ) -> [LogoutPage] {
        var pages: [LogoutPage] = []
        for mvpd in mvpds {
            guard case .success(let actions)? = answers.answer(for: mvpd) else { continue }
            let base = context.targets.serviceProvider(mvpd: mvpd, facts)
            // One answer may carry several MVPDs' actions (a single logout): each page counts.
            for action in actions where action.actionName == .logout {
                guard let url = action.url, !url.isEmpty else { continue }
                let absolute = URL(string: url, relativeTo: base)?.absoluteString ?? url
                if !pages.contains(where: { $0.url == absolute }) {
                    pages.append(LogoutPage(url: absolute, mvpd: action.mvpd))
                }
            }
        }
        return pages
    }

    /// N500: the device is signed out, but Adobe Pass did not confirm the logout (of `mvpd`,
    /// when it is not the profile in force); it is sent again at the next setRequestor.
    private static func unconfirmed(_ error: RESTClientError, of mvpd: String?) -> AdvancedStatus {
        StatusCatalog.status(.n500, message: StatusSentences.logoutUnconfirmed(mvpd: mvpd, reason: error.message))
    }

    /// Opens `page` for `call` (its answer), with the timer past which the logout ends by itself.
    private mutating func openLogoutPage(
        _ page: LogoutPage, _ ticket: RequestTicket, to call: CallID?, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        answer(context.navigation(to: page.url, mvpd: page.mvpd, step.facts), to: call, &step)
        step.actions.append(
            .setLogoutPageTimer(ticket, until: step.facts.now.addingTimeInterval(context.settings.logoutPageTimeout)))
    }

    /// The app came back from a logout page (`handleExternalURL`): the next MVPD's page
    /// opens, handed over as an answer to this call, or the logout ends after the last.
    mutating func nextLogoutPage(
        _ ticket: RequestTicket, remaining: [LogoutPage], by call: CallID?, _ context: AuthenticationContext,
        _ step: inout Step
    ) {
        step.actions.append(.cancelLogoutPageTimer(ticket))
        guard let next = remaining.first else {
            state = .idle
            owner = nil
            return answerUnauthenticated(USER_NOT_AUTHENTICATED_ERROR, to: call, &step)
        }
        state = .awaitingLogoutRedirect(ticket, page: next, remaining: Array(remaining.dropFirst()))
        owner = call
        ownerAnswered = true
        openLogoutPage(next, ticket, to: call, context, &step)
    }

    /// The app did not come back from the logout page of `ticket`'s logout in time: the
    /// logout ends by itself (Adobe Pass has ended the profiles already), with a warning that
    /// names the page, and the pages not opened yet are left.
    mutating func logoutPageTimedOut(_ ticket: RequestTicket, _ context: AuthenticationContext, _ step: inout Step) {
        guard case .awaitingLogoutRedirect(ticket, let page, let remaining) = state else { return }
        state = .idle
        let call = owner
        owner = nil
        let timeout: Int = WholeNumber.clamped(context.settings.logoutPageTimeout)
        let message = StatusSentences.logoutPageTimedOut(
            mvpd: page.mvpd, timeout: timeout, skipped: remaining.map(\.mvpd))
        step.deliver(.status(StatusCatalog.status(.n408, message: message, details: page.url)), to: call)
        answerUnauthenticated(USER_NOT_AUTHENTICATED_ERROR, to: call, &step)
    }
}
