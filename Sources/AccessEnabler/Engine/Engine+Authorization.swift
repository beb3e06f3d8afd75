import Foundation

extension EntitlementEngine {
    /// `checkAuthorization`: authorizes only an already authenticated user.
    func checkAuthorization(_ resource: String, data: [String: String]?) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            emit(.tokenRequestFailed(resource, errorCode: GENERIC_AUTHORIZATION_ERROR, description: problem.message ?? ""))
            return
        }
        let verdict = await currentAuthentication()
        guard verdict.profile != nil else {
            emitStatus(StatusCatalog.status(.n000, message: "The user is not authenticated, so \(resource) cannot be authorized."))
            emit(.tokenRequestFailed(resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: "The user is not authenticated."))
            return
        }
        await authorize(resource, data: data, snapshot: verdict.snapshot)
    }

    /// `getAuthorization`: authenticates first when needed, then authorizes.
    func getAuthorization(_ resource: String, data: [String: String]?) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            emit(.tokenRequestFailed(resource, errorCode: GENERIC_AUTHORIZATION_ERROR, description: problem.message ?? ""))
            return
        }
        let verdict = await currentAuthentication()
        if verdict.profile != nil {
            await authorize(resource, data: data, snapshot: verdict.snapshot)
            return
        }
        await getAuthentication(forceAuthn: false, data: data, filter: nil, caller: .getAuthorization(PendingAuthorization(resource: resource, data: data, owner: currentCall)))
    }

    /// `POST decisions/authorize/{mvpd}` for one resource → `setToken` or `tokenRequestFailed`.
    /// `snapshot` is the partner framework's answer the caller already has, if any.
    func authorize(_ resource: String, data: [String: String]?, snapshot: PartnerSnapshot? = nil) async {
        guard let requestor = requestorID, let profile = currentProfile(requestor: requestor) else {
            emit(.tokenRequestFailed(resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: "The user is not authenticated."))
            return
        }
        let partnerStatus = await decisionPartnerStatus(for: profile, snapshot: snapshot)
        let decisions: [Decision]
        do {
            let client = client(for: profile.mvpd)
            let context = context(partnerStatus: partnerStatus, mvpd: profile.mvpd)
            decisions = try await followingConfigurationAdvice { () async throws(RESTClientError) -> [Decision] in
                try await client.authorize(serviceProvider: requestor, mvpd: profile.mvpd, resources: [resource], context: context)
            }
        } catch {
            if let ended = dropProfileIfTheServerEndedIt(error.enhancedError, resource: resource) {
                emitStatus(ended)
                emitAuthorizationTracking(success: false, profile: profile, error: error.enhancedError?.code ?? StatusID.n130.description, details: error.enhancedError?.details ?? "")
                emit(.tokenRequestFailed(resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: ended.message ?? ""))
                return
            }
            // A refusal about the MVPD or the resource (Z100 — throttling too —, Z120, Z130,
            // Z169) is a "not authorized" answer even when it came for the whole request; only
            // failures with no published reason (Z500: network, server, unreadable answer)
            // are generic.
            let status = ErrorClassification.authorizationStatus(error, resource: resource)
            emitStatus(status)
            emitAuthorizationTracking(success: false, profile: profile, error: status.errorId.description, details: error.message)
            emit(.tokenRequestFailed(resource, errorCode: status.errorId.authorizationErrorCode, description: error.message))
            return
        }
        guard let decision = decisions.first(where: { $0.resource == resource }) ?? decisions.first else {
            emitStatus(StatusCatalog.status(.z500, message: "Adobe Pass returned no decision for \(resource).", resource: resource))
            emit(.tokenRequestFailed(resource, errorCode: GENERIC_AUTHORIZATION_ERROR, description: "No decision was returned."))
            return
        }
        if decision.authorized, let token = decision.token {
            store.setAuthorization(StoredAuthorization(
                requestor: requestor, mvpd: profile.mvpd, resource: resource, serializedToken: token.serializedToken,
                notBefore: token.notBefore ?? adobeNow, notAfter: token.notAfter ?? decision.notAfter ?? adobeNow))
            switch decision.source {
            case .degradation:
                emitStatus(StatusCatalog.status(.z010, message: "\(profile.mvpd) is degraded: \(resource) is authorized by a degradation rule.", resource: resource))
            case .temppass:
                emitStatus(StatusCatalog.status(.z011, message: "\(resource) is authorized through TempPass (\(profile.mvpd)).", resource: resource))
            case .mvpd, .dummy, .unknown, nil:
                break
            }
            emitAuthorizationTracking(success: true, profile: profile, error: "", details: "")
            emit(.setToken(token.serializedToken, resource: resource))
        } else if let ended = dropProfileIfTheServerEndedIt(decision.error, resource: resource) {
            emitStatus(ended)
            emitAuthorizationTracking(success: false, profile: profile, error: decision.error?.code ?? StatusID.n130.description, details: decision.error?.details ?? "")
            emit(.tokenRequestFailed(resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: ended.message ?? ""))
        } else {
            let id: StatusID = decision.authorized ? .z500 : ErrorClassification.decisionStatusID(for: decision.error)
            let message = decision.error?.message ?? (decision.authorized ? "Adobe Pass authorized \(resource) but sent no media token." : "The MVPD denied \(resource).")
            emitStatus(StatusCatalog.status(id, message: message, details: decision.error?.details, resource: resource, enhancedError: decision.error))
            emitAuthorizationTracking(success: false, profile: profile, error: decision.error?.code ?? id.description, details: decision.error?.details ?? "")
            // The MVPD's own words (the enhanced error's details) when it gave some.
            let description = [decision.error?.details, decision.error?.message].compactMap { $0 }.first { !$0.isEmpty } ?? ""
            emit(.tokenRequestFailed(resource, errorCode: id.authorizationErrorCode, description: description))
        }
    }

    /// `checkPreauthorizedResources`: cached decisions answer repeated questions with no
    /// round trip unless `cache` is false; the legacy projection of the ledger.
    func checkPreauthorizedResources(_ resources: [String], cache: Bool) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            emit(.preauthorizedResources([]))
            return
        }
        let verdict = await currentAuthentication()
        guard let profile = verdict.profile else {
            emitStatus(StatusCatalog.status(.n000, message: "The user is not authenticated: no resource is preauthorized."))
            emit(.preauthorizedResources([]))
            return
        }
        var ledger = PreauthorizationLedger(requested: resources, cached: store.preauthorizations(requestor: profile.requestor), useCache: cache, now: adobeNow)
        if let error = await askMissing(&ledger, profile: profile, snapshot: verdict.snapshot) {
            emitStatus(dropProfileIfTheServerEndedIt(error.enhancedError)
                ?? StatusCatalog.status(.p100, message: "Preauthorization failed: \(error.message)", details: error.enhancedError?.details, enhancedError: error.enhancedError))
        }
        emit(.preauthorizedResources(ledger.permitted))
    }

    /// `preauthorize(_:didCompleteWith:)` (Preauthorize API, v3.6): the same ledger,
    /// projected as per-resource decisions with their reasons, or a failure.
    func preauthorize(_ request: PreauthorizeRequest, callback: AccessEnablerCallback<PreauthorizeResponse>) async {
        guard requestorProblem() == nil else {
            emit(.preauthorizeResult(.sdkFailure(.requestorNotConfigured), callback))
            return
        }
        let verdict = await currentAuthentication()
        guard let profile = verdict.profile else {
            let expired = requestorID.flatMap { currentProfile(requestor: $0) } != nil
            emit(.preauthorizeResult(.sdkFailure(expired ? .authenticationSessionExpired : .authenticationSessionMissing), callback))
            return
        }
        // REST API V2 has no control over Adobe Pass's own cache: REMOTE_CACHE cannot be honoured.
        var ledger = PreauthorizationLedger(
            requested: request.resources, cached: store.preauthorizations(requestor: profile.requestor),
            useCache: request.isEnabled(.LOCAL_CACHE), now: adobeNow)
        if let error = await askMissing(&ledger, profile: profile, snapshot: verdict.snapshot) {
            _ = dropProfileIfTheServerEndedIt(error.enhancedError)
            emit(.preauthorizeResult(Self.preauthorizeOutcome(for: error), callback))
            return
        }
        emit(.preauthorizeResult(.decisions(ledger.resourceDecisions), callback))
    }

    /// Asks Adobe Pass for the ledger's missing resources (in batches when the app set a
    /// batch size) and caches the answers; the first failure, if any, ends the asking.
    private func askMissing(_ ledger: inout PreauthorizationLedger, profile: StoredProfile, snapshot: PartnerSnapshot?) async -> RESTClientError? {
        let batches = ledger.batches(limit: configuration.preauthorizationBatchSize)
        guard !batches.isEmpty else { return nil }
        let partnerStatus = await decisionPartnerStatus(for: profile, snapshot: snapshot)
        for batch in batches {
            do {
                let client = client(for: profile.mvpd)
                let context = context(partnerStatus: partnerStatus, mvpd: profile.mvpd)
                let decisions = try await followingConfigurationAdvice { () async throws(RESTClientError) -> [Decision] in
                    try await client.preauthorize(serviceProvider: profile.requestor, mvpd: profile.mvpd, resources: batch, context: context)
                }
                ledger.record(decisions)
                store.setPreauthorizations(
                    requestor: profile.requestor,
                    store.preauthorizations(requestor: profile.requestor).merging(ledger.answersToCache(decisions, now: adobeNow)) { $1 })
            } catch {
                return error
            }
        }
        return nil
    }

    /// The Preauthorize API's shape of a failed request: a server error (with its status)
    /// is a response; what the SDK could not get at all is a failure.
    static func preauthorizeOutcome(for error: RESTClientError) -> PreauthorizeOutcome {
        switch error {
        case .server(let operation, let httpStatus, let enhanced):
            if operation == .dcrRegister || operation == .dcrToken { return .sdkFailure(.accessTokenUnavailable) }
            guard let enhanced else { return .sdkFailure(.serverResponseFormatUnknown) }
            return .serverError(httpStatus: httpStatus, enhanced)
        case .throttled(_, let retryAfter):
            let wait = retryAfter.map { " Retry after \(Int($0.rounded(.up))) s." } ?? " Retry after at least 1 s."
            return .serverError(httpStatus: 429, EnhancedError(
                status: 429, code: "too_many_requests", message: "Adobe Pass throttled this device." + wait, action: "retry-after"))
        case .transport:
            return .sdkFailure(.networkError)
        case .malformedBody, .undocumentedStatus:
            return .sdkFailure(.serverResponseFormatUnknown)
        case .invalidDeviceInfo, .invalidRequest:
            return .sdkFailure(.accessTokenUnavailable)
        }
    }

    /// The partner status decisions carry for an `appleSSO` profile (never prompting).
    private func decisionPartnerStatus(for profile: StoredProfile, snapshot known: PartnerSnapshot?) async -> PartnerFrameworkStatus? {
        guard profile.type == .appleSSO, configuration.partnerFramework != nil else { return nil }
        let snapshot: PartnerSnapshot
        if let known {
            snapshot = known
        } else if let signIn = partnerSignIn() {
            snapshot = await signIn.snapshot()
        } else {
            return nil
        }
        return PartnerStatusValidation.validatedStatus(access: snapshot.access, account: snapshot.account, knownMappingIDs: knownMappingIDs, now: now)
    }

}
