import Foundation

extension EntitlementEngine {
    // MARK: checkAuthentication

    /// `checkAuthentication`: answered from storage and the cached configuration, with no
    /// network call; the partner framework is asked only when no regular profile decides.
    func checkAuthentication() async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
            return
        }
        let verdict = await currentAuthentication()
        if let profile = verdict.profile {
            emitTracking(authenticationSucceeded: true, profile: profile, cached: true)
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED))
        } else {
            emitStatus(verdict.partnerStatus ?? StatusCatalog.status("N000", message: "The user is not authenticated."))
            emitTracking(authenticationSucceeded: false, profile: nil, cached: false)
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
        }
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
        if ProfileValidity.needsPartner(stored) || stored == nil || !isRegularProfileValid(stored) {
            if let partner = ssoPartner { snapshot = await partnerSnapshot(partner) }
        }
        if let stored, ProfileValidity.evaluate(stored, configuredMVPDs: mvpdsByID, partner: snapshot, now: now) == .valid {
            return AuthenticationVerdict(profile: stored, partnerStatus: nil, snapshot: snapshot)
        }
        var status = snapshot.flatMap { permissionStatus($0.access, errorID: "APPL_ERROR") }
        if status == nil, let failure = snapshot?.metadataError {
            // Permission granted, but the account could not be read: a partner framework error.
            status = StatusCatalog.status("APPL_ERROR", message: "The TV provider account service could not be read.", details: "\(failure.code): \(failure.message)")
        }
        return AuthenticationVerdict(profile: nil, partnerStatus: status, snapshot: snapshot)
    }

    private func isRegularProfileValid(_ profile: StoredProfile?) -> Bool {
        guard let profile, profile.type != .appleSSO else { return false }
        return ProfileValidity.evaluate(profile, configuredMVPDs: mvpdsByID, partner: nil, now: now) == .valid
    }

    // MARK: getAuthentication

    /// `getAuthentication` in all its forms.
    func getAuthentication(forceAuthn: Bool, data: [String: String]?, filter: PickerFilter?) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            finishAuthentication(success: false, errorCode: GENERIC_AUTHENTICATION_ERROR)
            return
        }
        // A provider dialog the app closed without telling us is simply shown again; a login
        // page that is open belongs to a server session and must be finished or cancelled.
        if flow.isChoosingProvider {
            let pending = flow.pendingAuthorization
            flow.reset()
            flow.pendingAuthorization = pending
        }
        if flow.isAuthenticationPending {
            emitStatus(StatusCatalog.status("N500", message: "An MVPD login page is already open for this authentication: finish it with handleExternalURL(_:), or cancel it with setSelectedProvider(nil)."))
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: GENERIC_AUTHENTICATION_ERROR))
            return
        }
        let verdict = await currentAuthentication()
        if let profile = verdict.profile, !forceAuthn {
            emitTracking(authenticationSucceeded: true, profile: profile, cached: true)
            await finishAuthenticationSuccessfully()
            return
        }
        if let partner = ssoPartner {
            await authenticateThroughPartner(partner, filter: filter)
        } else {
            showProviderDialog()
        }
    }

    /// Hands provider selection to the application.
    func showProviderDialog() {
        flow.providerDialogShown()
        emit(.displayProviderDialog(mvpds))
    }

    /// The Apple SSO part of getAuthentication: permission (prompting), the picker unless
    /// the user is already signed in at system level, then the cookbook's table.
    private func authenticateThroughPartner(_ partner: any PartnerFramework, filter: PickerFilter?) async {
        let access = await withDeadline(
            seconds: configuration.partnerInteractionTimeout,
            fallback: PartnerAccessResult.error(code: "timeout", message: "The permission prompt was not answered in time.")
        ) { await partner.accessStatus(prompt: true) }
        switch access {
        case .granted: break
        case .error(let code, let message):
            emitStatus(StatusCatalog.status("VSA503", message: "The TV provider permission query failed: \(message)", details: code))
            showProviderDialog()
            return
        default:
            if let status = permissionStatus(access, errorID: "VSA503") { emitStatus(status) }
            showProviderDialog()
            return
        }

        let pickerMVPDs = pickerProviders(filter: filter)
        let snapshot = await partnerSnapshot(partner)
        let outcome: PickerOutcome
        // The account the outcome rests on: the system-level sign-in, or the picker's answer.
        var account: PartnerAccountMetadata?
        if let providerID = snapshot.signedInProvider(at: now) {
            account = snapshot.account
            outcome = PickerOutcome.classify(providerID: providerID, mvpds: mvpds)
        } else {
            let dialog = TVProviderDialog(providers: pickerMVPDs.map(\.id), featured: featuredProviders(filter: filter, shown: pickerMVPDs))
            let request = PartnerMetadataRequest(
                isInterruptionAllowed: true,
                supportedAccountProviderIdentifiers: pickerMVPDs.map { $0.platformMappingId ?? $0.id },
                featuredAccountProviderIdentifiers: dialog.featured.compactMap { id in mvpdsByID[id].map { $0.platformMappingId ?? $0.id } })
            emit(.presentTVProviderDialog(dialog))
            let result = await withDeadline(
                seconds: configuration.partnerInteractionTimeout,
                fallback: Result<PartnerAccountMetadata, PartnerFrameworkError>.failure(.other(code: "timeout", message: "The TV provider picker did not answer in time."))
            ) {
                do throws(PartnerFrameworkError) { return .success(try await partner.accountMetadata(request)) } catch { return .failure(error) }
            }
            emit(.dismissTVProviderDialog(dialog))
            account = try? result.get()
            outcome = PickerOutcome.classify(result, mvpds: mvpds)
        }

        switch outcome {
        case .fallBack(let id, let message, let details):
            emitStatus(StatusCatalog.status(id, message: message, details: details))
            showProviderDialog()
        case .regularLogin(let mvpd):
            await selectProvider(mvpd)
        case .partnerExchange(let mvpd, _):
            guard let status = PartnerStatusValidation.validatedStatus(access: .granted, account: account, knownMappingIDs: knownMappingIDs, now: now) else {
                emitStatus(StatusCatalog.status("VSA503", message: "The TV provider account service did not confirm the sign-in (no provider, or its sign-in has expired)."))
                showProviderDialog()
                return
            }
            switch await exchangePartnerSignIn(partner, mvpd: mvpd, partnerStatus: status, interactive: true) {
            case .authenticated:
                emitTracking(authenticationSucceeded: true, profile: requestorID.flatMap { store.profile(requestor: $0) }, cached: false)
                await finishAuthenticationSuccessfully()
            case .degraded:
                emitStatus(StatusCatalog.status("N010", message: "\(mvpd.displayName) is degraded: the user is authenticated by a degradation rule."))
                emitTracking(authenticationSucceeded: true, profile: requestorID.flatMap { store.profile(requestor: $0) }, cached: false)
                await finishAuthenticationSuccessfully()
            case .fallback(_, let loginSession):
                // Adobe Pass declined single sign-on for this provider: continue with its
                // regular login, in the session the fallback opened when it opened one.
                await selectProvider(mvpd, openedSession: loginSession)
            case .partnerFailed(let error):
                emitStatus(StatusCatalog.status("VSA503", message: "The TV provider account metadata request failed: \(error.message)", details: error.code))
                showProviderDialog()
            case .failed(let error):
                failAuthentication(ErrorClassification.authenticationStatus(error))
            }
        }
    }

    /// The MVPDs the system picker shows: the filter's (order kept, MVPDs without platform
    /// services ignored), or every MVPD shown in the platform picker.
    func pickerProviders(filter: PickerFilter?) -> [MVPD] {
        let eligible = { (mvpd: MVPD) in mvpd.enablePlatformServices || mvpd.displayInPlatformPicker }
        if let filter, !filter.providers.isEmpty {
            var seen: Set<String> = []
            return filter.providers.compactMap { id in
                guard seen.insert(id).inserted, let mvpd = mvpdsByID[id], eligible(mvpd) else { return nil }
                return mvpd
            }
        }
        return mvpds.filter { $0.displayInPlatformPicker && eligible($0) }
    }

    private func featuredProviders(filter: PickerFilter?, shown: [MVPD]) -> [String] {
        guard let filter else { return [] }
        let shownIDs = Set(shown.map(\.id))
        return filter.featured.filter { shownIDs.contains($0) }
    }

    // MARK: setSelectedProvider

    /// `setSelectedProvider`: `nil` backs out, an unknown id is refused, a known one starts
    /// an authentication session.
    func setSelectedProvider(_ id: String?) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            finishAuthentication(success: false, errorCode: GENERIC_AUTHENTICATION_ERROR)
            return
        }
        guard let id else {
            let pendingResource = flow.pendingAuthorization?.resource
            flow.reset()
            emitStatus(StatusCatalog.status("N005", message: "The user cancelled provider selection."))
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: PROVIDER_NOT_SELECTED_ERROR))
            if let pendingResource {
                emit(.tokenRequestFailed(pendingResource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: "Authentication was cancelled."))
            }
            return
        }
        guard let mvpd = mvpdsByID[id] else {
            emitStatus(StatusCatalog.status("N500", message: "setSelectedProvider was given \(id), which is not an MVPD of requestor \(requestorID ?? "?"). Choose one of: \(mvpds.map(\.id).joined(separator: ", "))."))
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: PROVIDER_NOT_AVAILABLE_ERROR))
            return
        }
        await selectProvider(mvpd)
    }

    /// Creates the authentication session for `mvpd` — unless Adobe Pass already opened one
    /// (`openedSession`, from a partner SSO fallback) — and acts on its answer.
    func selectProvider(_ mvpd: MVPD, openedSession: SessionAction? = nil) async {
        guard let requestor = requestorID else { return }
        emit(.sendTrackingData([mvpd.id] + trackingDeviceFields, event: TRACKING_GET_SELECTED_PROVIDER))
        let client = client(for: mvpd.id)
        let action: SessionAction
        if let openedSession {
            action = openedSession
        } else {
            do {
                action = try await client.createSession(serviceProvider: requestor, mvpd: mvpd.id, domainName: configuration.domainName, redirectURL: configuration.redirectURL, context: context())
            } catch {
                failAuthentication(ErrorClassification.authenticationStatus(error))
                return
            }
        }
        if action.actionName == "authenticate", let code = action.code, let url = action.url {
            let absolute = URL(string: url, relativeTo: client.baseURL)?.absoluteString ?? url
            flow.loginPageOpened(mvpd: mvpd.id, code: code)
            emitNavigation(to: absolute, mvpd: mvpd.id)
            return
        }
        if action.actionName == "authorize" {
            do throws(RESTClientError) {
                let profiles = try await client.profile(serviceProvider: requestor, mvpd: mvpd.id, context: context())
                guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                    throw RESTClientError.malformedBody(operation: .profileForMVPD, reason: "the profile for \(mvpd.id) was missing from the answer")
                }
                store.setProfile(storedProfile(from: profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil))
                switch action.reasonType {
                case "temporary": emitStatus(StatusCatalog.status("N011", message: "The user is authenticated with TempPass (\(mvpd.displayName))."))
                case "degraded": emitStatus(StatusCatalog.status("N010", message: "\(mvpd.displayName) is degraded: the user is authenticated by a degradation rule."))
                default: break
                }
                emitTracking(authenticationSucceeded: true, profile: store.profile(requestor: requestor), cached: false)
                await finishAuthenticationSuccessfully()
            } catch {
                failAuthentication(ErrorClassification.authenticationStatus(error))
            }
            return
        }
        failAuthentication(StatusCatalog.status("N500", message: "Adobe Pass answered the authentication session for \(mvpd.id) with \(action.actionName)/\(action.actionType), which this SDK cannot continue."))
    }

    /// `navigateToUrl`, or its SVC form when the app handles Safari View Controllers and the
    /// MVPD needs one.
    func emitNavigation(to url: String, mvpd: String) {
        if options.handleSVC && svcMVPDs.contains(mvpd) {
            emit(.navigateToUrlUsingSVC(url, useSVC: true))
        } else {
            emit(.navigateToUrl(url))
        }
    }

    // MARK: handleExternalURL

    /// `handleExternalURL`: completes a login (profile by code) or a logout.
    func handleExternalURL(_ url: String) async {
        guard RedirectURLMatcher(redirectURL: configuration.redirectURL).matches(url) else {
            emitStatus(StatusCatalog.status("N500", message: "handleExternalURL ignored a URL that is not under the redirect URL \(configuration.redirectURL); nothing changed.", details: url))
            await reportCurrentAuthentication()
            return
        }
        switch flow.redirectReceived() {
        case .nothingPending:
            emitStatus(StatusCatalog.status("N130", message: "handleExternalURL was called but no login or logout is waiting for a redirect; nothing changed."))
            await reportCurrentAuthentication()
        case .completeLogout:
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
        case .completeLogin(let mvpd, let code):
            await completeLogin(mvpd: mvpd, code: code)
        }
    }

    private func completeLogin(mvpd: String, code: String) async {
        guard let requestor = requestorID else { return }
        do {
            let profiles = try await client(for: mvpd).profile(serviceProvider: requestor, code: code, context: context())
            guard let profile = profiles.first(where: { $0.mvpd == mvpd }) ?? profiles.first else {
                failAuthentication(StatusCatalog.status("N130", message: "Adobe Pass has no profile for the authentication session of \(mvpd): the login did not finish or the session expired. Start again with getAuthentication()."))
                return
            }
            store.setProfile(storedProfile(from: profile, requestor: requestor, tokenSource: nil, partnerProviderID: nil))
            emitTracking(authenticationSucceeded: true, profile: store.profile(requestor: requestor), cached: false)
            await finishAuthenticationSuccessfully()
        } catch {
            failAuthentication(ErrorClassification.authenticationStatus(error))
        }
    }

    /// Reports the current state without changing it (used where a call must end in
    /// `setAuthenticationStatus` but may not alter the session).
    private func reportCurrentAuthentication() async {
        if await currentAuthentication().profile != nil {
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED))
        } else {
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
        }
    }

    // MARK: Endings

    /// Status 1, then the authorization that was waiting for it, if any.
    func finishAuthenticationSuccessfully() async {
        let pending = flow.takePendingAuthorization()
        flow.reset()
        emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED))
        if let pending {
            await authorize(pending.resource, data: pending.data)
        }
    }

    /// Ends an authentication flow that failed: the status that explains it, the tracking
    /// event, then `setAuthenticationStatus(0, GENERIC_AUTHENTICATION_ERROR)`.
    func failAuthentication(_ status: AdvancedStatus) {
        emitStatus(status)
        emitTracking(authenticationSucceeded: false, profile: nil, cached: false)
        finishAuthentication(success: false, errorCode: GENERIC_AUTHENTICATION_ERROR)
    }

    /// Ends an authentication flow; a `getAuthorization` that was waiting for it ends too,
    /// with its own terminal callback, when authentication failed.
    func finishAuthentication(success: Bool, errorCode: String) {
        let pending = success ? nil : flow.takePendingAuthorization()
        flow.reset()
        emit(.setAuthenticationStatus(success ? ACCESS_ENABLER_STATUS_SUCCESS : ACCESS_ENABLER_STATUS_ERROR, errorCode: errorCode))
        if let pending {
            emit(.tokenRequestFailed(pending.resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: "The user could not be authenticated, so \(pending.resource) was not authorized."))
        }
    }
}
