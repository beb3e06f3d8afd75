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
            emitStatus(StatusCatalog.status("N000", message: "The user is not authenticated, so \(resource) cannot be authorized."))
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
        guard let requestor = requestorID, let profile = store.profile(requestor: requestor) else {
            emit(.tokenRequestFailed(resource, errorCode: USER_NOT_AUTHENTICATED_ERROR, description: "The user is not authenticated."))
            return
        }
        let partnerStatus = await decisionPartnerStatus(for: profile, snapshot: snapshot)
        let decisions: [Decision]
        do {
            decisions = try await client(for: profile.mvpd).authorize(serviceProvider: requestor, mvpd: profile.mvpd, resources: [resource], context: context(partnerStatus: partnerStatus))
        } catch {
            let status = ErrorClassification.authorizationStatus(error, resource: resource)
            emitStatus(status)
            emitAuthorizationTracking(success: false, profile: profile, error: status.errorId, details: error.message)
            // A refusal about the MVPD or the resource (Z100, Z120, Z130, Z169) is a "not
            // authorized" answer even when it came for the whole request; only failures with
            // no published reason (Z500: network, server, unreadable answer) are generic.
            let code = status.errorId == "Z500" ? GENERIC_AUTHORIZATION_ERROR : USER_NOT_AUTHORIZED_ERROR
            emit(.tokenRequestFailed(resource, errorCode: code, description: error.message))
            return
        }
        guard let decision = decisions.first(where: { $0.resource == resource }) ?? decisions.first else {
            emitStatus(StatusCatalog.status("Z500", message: "Adobe Pass returned no decision for \(resource).", resource: resource))
            emit(.tokenRequestFailed(resource, errorCode: GENERIC_AUTHORIZATION_ERROR, description: "No decision was returned."))
            return
        }
        if decision.authorized, let token = decision.token {
            store.setAuthorization(StoredAuthorization(
                requestor: requestor, mvpd: profile.mvpd, resource: resource, serializedToken: token.serializedToken,
                notBefore: token.notBefore ?? now, notAfter: token.notAfter ?? decision.notAfter ?? now))
            if decision.source == "degradation" {
                emitStatus(StatusCatalog.status("Z010", message: "\(profile.mvpd) is degraded: \(resource) is authorized by a degradation rule.", resource: resource))
            }
            emitAuthorizationTracking(success: true, profile: profile, error: "", details: "")
            emit(.setToken(token.serializedToken, resource: resource))
        } else {
            let id = decision.authorized ? "Z500" : ErrorClassification.decisionStatusID(for: decision.error)
            let message = decision.error?.message ?? (decision.authorized ? "Adobe Pass authorized \(resource) but sent no media token." : "The MVPD denied \(resource).")
            emitStatus(StatusCatalog.status(id, message: message, details: decision.error?.details, resource: resource, enhancedError: decision.error))
            emitAuthorizationTracking(success: false, profile: profile, error: decision.error?.code ?? id, details: decision.error?.details ?? "")
            emit(.tokenRequestFailed(resource, errorCode: USER_NOT_AUTHORIZED_ERROR, description: decision.error?.message ?? ""))
        }
    }

    /// `checkPreauthorizedResources`: cached decisions answer repeated questions with no
    /// round trip unless `cache` is false.
    func checkPreauthorizedResources(_ resources: [String], cache: Bool) async {
        if let problem = requestorProblem() {
            emitStatus(problem)
            emit(.preauthorizedResources([]))
            return
        }
        let verdict = await currentAuthentication()
        guard let requestor = requestorID, let profile = verdict.profile else {
            emitStatus(StatusCatalog.status("N000", message: "The user is not authenticated: no resource is preauthorized."))
            emit(.preauthorizedResources([]))
            return
        }
        var known = cache ? store.preauthorizations(requestor: requestor).filter { $0.value.expiresAt > now } : [:]
        let missing = uniqued(resources).filter { known[$0] == nil }
        if !missing.isEmpty {
            let partnerStatus = await decisionPartnerStatus(for: profile, snapshot: verdict.snapshot)
            do {
                let decisions = try await client(for: profile.mvpd).preauthorize(serviceProvider: requestor, mvpd: profile.mvpd, resources: missing, context: context(partnerStatus: partnerStatus))
                var all = store.preauthorizations(requestor: requestor)
                for decision in decisions {
                    let expiry = decision.notAfter ?? now.addingTimeInterval(300)
                    let entry = StoredPreauthorization(resource: decision.resource, authorized: decision.authorized, expiresAt: expiry)
                    all[decision.resource] = entry
                    known[decision.resource] = entry
                }
                store.setPreauthorizations(requestor: requestor, all)
            } catch {
                let enhanced: EnhancedError? = if case .server(_, _, let e) = error { e } else { nil }
                emitStatus(StatusCatalog.status("P100", message: "Preauthorization failed: \(error.message)", details: enhanced?.details, enhancedError: enhanced))
                emit(.preauthorizedResources(resources.filter { known[$0]?.authorized == true }))
                return
            }
        }
        emit(.preauthorizedResources(uniqued(resources).filter { known[$0]?.authorized == true }))
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

    private func uniqued(_ items: [String]) -> [String] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0).inserted }
    }
}
