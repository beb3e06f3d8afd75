import Foundation

/// How exchanging a system-level sign-in for an Adobe profile ended.
enum PartnerExchangeResult: Sendable {
    /// Adobe Pass issued this profile (an `appleSSO` one, or a degraded one: `degraded`).
    case authenticated(StoredProfile, degraded: Bool)
    /// Adobe Pass declined partner SSO (its `reasonType` says why: `pfs_fallback`,
    /// `configuration_fallback`, …); `loginSession` is the basic authentication session it
    /// opened instead, when it did.
    case fallback(loginSession: SessionAction? = nil)
    /// The partner framework could not produce a SAML response.
    case partnerFailed(PartnerFrameworkError)
    /// A REST call failed.
    case failed(RESTClientError)
}

/// The partner framework side of authentication, as a value that carries everything it
/// needs (the requestor's catalog, the request context, the settings), so it runs the
/// same way inside the engine (the silent checks of setRequestor and checkAuthentication)
/// and in the child task that holds an interactive sign-in while the engine goes on.
struct PartnerSignIn: Sendable {
    let partner: any PartnerFramework
    let catalog: RequestorCatalog
    /// The REST client that serves an MVPD (the service provider the catalog places it
    /// at, else the configured environment).
    let client: @Sendable (String) -> RESTClient
    /// Device identity, device information and options, without partner status.
    let context: RequestContext
    let domainName: String
    let redirectURL: String
    /// Bound on questions that involve the user (prompt, picker, MVPD login).
    let interactionTimeout: TimeInterval
    /// Bound on silent questions.
    let silentTimeout: TimeInterval
    let clock: any TimeSource

    var now: Date { clock.now }

    // MARK: Silent questions

    /// Asks, without prompting, for the permission and the signed-in account. Both
    /// questions share one deadline: a framework that never answers counts as an error.
    func snapshot() async -> PartnerSnapshot {
        let (partner, supported) = (partner, catalog.sortedMappingIDs)
        let atHand = Self.silentAnswersAtHand(of: partner, supportedProviders: supported)
        if case .complete(let snapshot) = atHand { return snapshot }
        return await withDeadline(seconds: silentTimeout, fallback: PartnerSnapshot.timedOut) {
            await Self.silentSnapshot(of: partner, supportedProviders: supported, knownAccess: atHand.access)
        }
    }

    /// What a partner framework can answer of the two silent questions without waiting.
    enum AnswersAtHand: Sendable {
        /// Both answers (or a permission not granted, which ends the questions).
        case complete(PartnerSnapshot)
        /// The permission, granted; the account is to be asked.
        case access(PartnerAccessResult)
        /// Nothing: both are to be asked.
        case none

        /// The permission, when it is known.
        var access: PartnerAccessResult? {
            switch self {
            case .complete(let snapshot): snapshot.access
            case .access(let access): access
            case .none: nil
            }
        }
    }

    /// The two silent questions, asked of what `partner` has at hand
    /// (``PartnerFramework/accessStatusAtHand()``, ``PartnerFramework/accountMetadataAtHand(_:)``):
    /// no task, no suspension, no deadline.
    static func silentAnswersAtHand(of partner: any PartnerFramework, supportedProviders: [String]) -> AnswersAtHand {
        guard let access = partner.accessStatusAtHand() else { return .none }
        guard access == .granted else {
            return .complete(PartnerSnapshot(access: access, account: nil, metadataError: nil))
        }
        let request = PartnerMetadataRequest(
            isInterruptionAllowed: false, supportedAccountProviderIdentifiers: supportedProviders)
        switch partner.accountMetadataAtHand(request) {
        case .success(let account)?:
            return .complete(PartnerSnapshot(access: access, account: account, metadataError: nil))
        case .failure(let error)?: return .complete(PartnerSnapshot(access: access, account: nil, metadataError: error))
        case nil: return .access(access)
        }
    }

    /// The two silent questions, asked in the caller's task with no deadline of their own
    /// (the caller sets one): the permission and, when granted, the signed-in account.
    static func silentSnapshot(
        of partner: any PartnerFramework, supportedProviders: [String], knownAccess: PartnerAccessResult? = nil
    ) async -> PartnerSnapshot {
        let access: PartnerAccessResult
        if let knownAccess {
            access = knownAccess
        } else {
            access = await partner.accessStatus(prompt: false)
        }
        guard access == .granted else { return PartnerSnapshot(access: access, account: nil, metadataError: nil) }
        do throws(PartnerFrameworkError) {
            let request = PartnerMetadataRequest(
                isInterruptionAllowed: false, supportedAccountProviderIdentifiers: supportedProviders)
            return PartnerSnapshot(
                access: access, account: try await partner.accountMetadata(request), metadataError: nil)
        } catch {
            return PartnerSnapshot(access: access, account: nil, metadataError: error)
        }
    }

    // MARK: The interactive sign-in (getAuthentication)

    /// Permission (prompting), the system picker unless the user is already signed in at
    /// system level, then the cookbook's getAuthentication table. `presented` and
    /// `dismissed` report the picker opening and closing, and return once the app has heard.
    func interactive(
        filter: PickerFilter?, presented: @Sendable (TVProviderDialog) async -> Void,
        dismissed: @Sendable (TVProviderDialog) async -> Void
    ) async -> AuthenticationStateMachine.PartnerSignInOutcome {
        let partner = partner
        let access = await withDeadline(
            seconds: interactionTimeout,
            fallback: PartnerAccessResult.error(
                code: "timeout", message: "The permission prompt was not answered in time.")
        ) { await partner.accessStatus(prompt: true) }
        switch access {
        case .granted: break
        case .error(let code, let message):
            return .showProviderDialog(
                StatusCatalog.status(
                    .vsa503, message: "The TV provider permission query failed: \(message)", details: code))
        default:
            return .showProviderDialog(PartnerPermission.status(access, errorID: .vsa503))
        }

        let pickerMVPDs = catalog.pickerProviders(filter: filter)
        let current = await snapshot()
        let outcome: PickerOutcome
        // The account the outcome rests on: the system-level sign-in, or the picker's answer.
        var account: PartnerAccountMetadata?
        if let providerID = current.signedInProvider(at: now) {
            account = current.account
            outcome = PickerOutcome.classify(providerID: providerID, mvpds: catalog.mvpds)
        } else {
            let dialog = TVProviderDialog(
                providers: pickerMVPDs.map(\.id),
                featured: catalog.featuredProviders(filter: filter, shown: pickerMVPDs))
            let request = PartnerMetadataRequest(
                isInterruptionAllowed: true,
                supportedAccountProviderIdentifiers: pickerMVPDs.map { $0.platformMappingId ?? $0.id },
                featuredAccountProviderIdentifiers: dialog.featured.compactMap { id in
                    catalog.mvpdsByID[id].map { $0.platformMappingId ?? $0.id }
                })
            await presented(dialog)
            let result = await withDeadline(
                seconds: interactionTimeout,
                fallback: Result<PartnerAccountMetadata, PartnerFrameworkError>.failure(
                    .other(code: "timeout", message: "The TV provider picker did not answer in time."))
            ) {
                do throws(PartnerFrameworkError) { return .success(try await partner.accountMetadata(request)) } catch {
                    return .failure(error)
                }
            }
            await dismissed(dialog)
            account = try? result.get()
            outcome = PickerOutcome.classify(result, mvpds: catalog.mvpds)
        }

        switch outcome {
        case .fallBack(let id, let message, let details):
            return .showProviderDialog(StatusCatalog.status(id, message: message, details: details))
        case .regularLogin(let mvpd):
            return .regularLogin(mvpd: mvpd.id, opened: nil)
        case .partnerExchange(let mvpd, _):
            guard
                let status = PartnerStatusValidation.validatedStatus(
                    access: .granted, account: account, knownMappingIDs: catalog.knownMappingIDs, now: now)
            else {
                return .showProviderDialog(
                    StatusCatalog.status(
                        .vsa503,
                        message:
                            "The TV provider account service did not confirm the sign-in (no provider, or its sign-in has expired)."
                    ))
            }
            switch await exchange(mvpd: mvpd, partnerStatus: status, interactive: true) {
            case .authenticated(let profile, let degraded):
                let note =
                    degraded
                    ? StatusCatalog.status(
                        .n010,
                        message: "\(mvpd.displayName) is degraded: the user is authenticated by a degradation rule.")
                    : nil
                return .signedIn(profile, status: note)
            case .fallback(let loginSession):
                // Adobe Pass declined single sign-on for this provider: continue with its
                // regular login, in the session the fallback opened when it opened one.
                return .regularLogin(mvpd: mvpd.id, opened: loginSession)
            case .partnerFailed(let error):
                return .showProviderDialog(
                    StatusCatalog.status(
                        .vsa503, message: "The TV provider account metadata request failed: \(error.message)",
                        details: error.code))
            case .failed(let error):
                return .failed(ErrorClassification.authenticationStatus(error))
            }
        }
    }

    // MARK: The exchange

    /// `POST sessions/sso/Apple` → `partner_profile` with a SAML request → partner metadata
    /// request carrying it → `POST profiles/sso/Apple` with the SAML response → the
    /// `appleSSO` profile (returned, not stored). `interactive` is the metadata request's
    /// `isInterruptionAllowed`; a silent exchange (at setRequestor) never accepts a
    /// degraded MVPD, as the cookbook requires.
    func exchange(mvpd: MVPD, partnerStatus: PartnerFrameworkStatus, interactive: Bool) async -> PartnerExchangeResult {
        let requestor = catalog.requestor
        let client = client(mvpd.id)
        let context = context.with(partnerStatus: partnerStatus)
        let action: PartnerSessionAction
        do {
            action = try await client.partnerSession(
                serviceProvider: requestor, partner: "Apple", domainName: domainName, redirectURL: redirectURL,
                context: context)
        } catch {
            return .failed(error)
        }
        switch action.actionName {
        case .authorize:
            let degraded = action.reasonType == .degraded
            // A degraded provider is not exchanged silently (setRequestor): the cookbook's
            // conditions exclude it, and the app learns of the degradation (N010) only when
            // it asks for authentication.
            if degraded && !interactive { return .fallback() }
            // Otherwise Adobe Pass already holds a profile for this device (a forced
            // authentication over a partner sign-in): fetch it, with the partner status, as
            // an appleSSO profile is only shown to a request carrying one.
            do {
                let profiles = try await client.profile(serviceProvider: requestor, mvpd: mvpd.id, context: context)
                guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                    return .fallback()
                }
                let fromPartner = profile.type == StoredProfileType.appleSSO.rawValue
                let stored = StoredProfile(
                    profile, requestor: requestor, tokenSource: fromPartner ? "Apple" : nil,
                    partnerProviderID: fromPartner ? partnerStatus.providerID : nil, serviceProvider: client.baseURL)
                return .authenticated(stored, degraded: degraded)
            } catch {
                return .failed(error)
            }
        case .partnerProfile:
            guard let authenticationRequest = action.authenticationRequest else {
                return .fallback()
            }
            return await signIn(
                mvpd: mvpd, partnerStatus: partnerStatus, request: authenticationRequest, interactive: interactive,
                client: client, context: context)
        case .authenticate:
            // A fallback may already carry a basic authentication session: keep it, so the
            // regular login needs no second session request.
            let login =
                action.code != nil && action.url != nil
                ? SessionAction(
                    actionName: action.actionName, actionType: action.actionType, reasonType: action.reasonType,
                    code: action.code, url: action.url, mvpd: action.mvpd ?? mvpd.id)
                : nil
            return .fallback(loginSession: login)
        case .resume, .retry, .unknown:
            return .fallback()
        }
    }

    /// Hands the partner framework the SAML request, then exchanges its SAML response for
    /// an Adobe profile.
    private func signIn(
        mvpd: MVPD, partnerStatus: PartnerFrameworkStatus, request authenticationRequest: PartnerAuthenticationRequest,
        interactive: Bool, client: RESTClient, context: RequestContext
    ) async -> PartnerExchangeResult {
        let requestor = catalog.requestor
        let request = PartnerMetadataRequest(
            isInterruptionAllowed: interactive,
            supportedAccountProviderIdentifiers: partnerStatus.providerID.map { [$0] } ?? [],
            samlRequest: authenticationRequest.request, attributeNames: authenticationRequest.attributesNames)
        let partner = partner
        let answer = await withDeadline(
            seconds: interactive ? interactionTimeout : silentTimeout,
            fallback: Result<PartnerAccountMetadata, PartnerFrameworkError>.failure(
                .other(
                    code: "timeout", message: "The TV provider account service did not answer the SAML request in time."
                ))
        ) {
            do throws(PartnerFrameworkError) { return .success(try await partner.accountMetadata(request)) } catch {
                return .failure(error)
            }
        }
        let samlResponse: String
        switch answer {
        case .success(let account):
            guard let response = account.samlResponse, !response.isEmpty else {
                return .partnerFailed(.invalidVerificationToken)
            }
            samlResponse = response
        case .failure(let error):
            return .partnerFailed(error)
        }
        do {
            let profiles = try await client.partnerProfile(
                serviceProvider: requestor, partner: "Apple", samlResponse: samlResponse, context: context)
            guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                return .fallback()
            }
            return .authenticated(
                StoredProfile(
                    profile, requestor: requestor, tokenSource: "Apple", partnerProviderID: partnerStatus.providerID,
                    serviceProvider: client.baseURL),
                degraded: false)
        } catch {
            return .failed(error)
        }
    }
}

extension StoredProfile {
    /// The stored form of a REST profile. `serviceProvider` is the base URL of the service
    /// provider that issued it, so later calls for its MVPD go there after a relaunch too.
    /// A profile shared through a single sign-on token names the token's issuer as its
    /// `tokenSource` when `tokenSource` is not given.
    init(
        _ profile: ProfileAnswer, requestor: String, tokenSource: String?, partnerProviderID: String?,
        serviceProvider: URL?
    ) {
        let type = StoredProfileType(rawValue: profile.type) ?? (tokenSource == "Apple" ? .appleSSO : .regular)
        self.init(
            requestor: requestor, mvpd: profile.mvpd, type: type, notBefore: profile.notBefore,
            notAfter: profile.notAfter,
            attributes: profile.attributes.mapValues { StoredAttribute(value: $0.value, encrypted: $0.state == "enc") },
            tokenSource: tokenSource ?? profile.tokenIssuer ?? (type.isSharedThroughToken ? profile.issuer : nil),
            partnerProviderID: partnerProviderID,
            serviceProviderURL: serviceProvider?.absoluteString)
    }
}
