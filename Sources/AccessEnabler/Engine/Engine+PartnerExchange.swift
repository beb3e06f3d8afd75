import Foundation

/// How exchanging a system-level sign-in for an Adobe profile ended.
enum PartnerExchangeResult: Sendable {
    /// An `appleSSO` profile is stored.
    case authenticated
    /// The MVPD is degraded: a degraded profile is stored (status N010).
    case degraded
    /// Adobe Pass declined partner SSO (`pfs_fallback`, `configuration_fallback`, …);
    /// `loginSession` is the basic authentication session it opened instead, when it did.
    case fallback(reasonType: String, loginSession: SessionAction? = nil)
    /// The partner framework could not produce a SAML response.
    case partnerFailed(PartnerFrameworkError)
    /// A REST call failed.
    case failed(RESTClientError)
}

extension EntitlementEngine {
    /// `POST sessions/sso/Apple` → `partner_profile` with a SAML request → partner metadata
    /// request carrying it → `POST profiles/sso/Apple` with the SAML response → store the
    /// `appleSSO` profile. `interactive` is the metadata request's `isInterruptionAllowed`; a
    /// silent exchange (at setRequestor) never accepts a degraded MVPD, as the cookbook requires.
    func exchangePartnerSignIn(_ partner: any PartnerFramework, mvpd: MVPD, partnerStatus: PartnerFrameworkStatus, interactive: Bool) async -> PartnerExchangeResult {
        guard let requestor = requestorID else { return .fallback(reasonType: "missing_requestor") }
        let client = client(for: mvpd.id)
        let context = context(partnerStatus: partnerStatus)
        let action: PartnerSessionAction
        do {
            action = try await client.partnerSession(
                serviceProvider: requestor, partner: "Apple", domainName: configuration.domainName,
                redirectURL: configuration.redirectURL, context: context)
        } catch {
            return .failed(error)
        }
        if action.actionName == "authorize" {
            let degraded = action.reasonType == "degraded"
            // A degraded provider is not exchanged silently (setRequestor): the cookbook's
            // conditions exclude it, and the app learns of the degradation (N010) only when
            // it asks for authentication.
            if degraded && !interactive { return .fallback(reasonType: "degraded") }
            // Otherwise Adobe Pass already holds a profile for this device (a forced
            // authentication over a partner sign-in): fetch it, with the partner status, as
            // an appleSSO profile is only shown to a request carrying one.
            do {
                let profiles = try await client.profile(serviceProvider: requestor, mvpd: mvpd.id, context: context)
                guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                    return .fallback(reasonType: action.reasonType ?? action.actionName)
                }
                let fromPartner = profile.type == StoredProfileType.appleSSO.rawValue
                store.setProfile(storedProfile(
                    from: profile, requestor: requestor, tokenSource: fromPartner ? "Apple" : nil,
                    partnerProviderID: fromPartner ? partnerStatus.providerID : nil))
                return degraded ? .degraded : .authenticated
            } catch {
                return .failed(error)
            }
        }
        guard action.actionName == "partner_profile", let authenticationRequest = action.authenticationRequest else {
            // A fallback may already carry a basic authentication session: keep it, so the
            // regular login needs no second session request.
            let login = action.actionName == "authenticate" && action.code != nil && action.url != nil
                ? SessionAction(actionName: action.actionName, actionType: action.actionType, reasonType: action.reasonType, code: action.code, url: action.url, mvpd: action.mvpd ?? mvpd.id)
                : nil
            return .fallback(reasonType: action.reasonType ?? action.actionName, loginSession: login)
        }
        let request = PartnerMetadataRequest(
            isInterruptionAllowed: interactive, supportedAccountProviderIdentifiers: partnerStatus.providerID.map { [$0] } ?? [],
            samlRequest: authenticationRequest.request, attributeNames: authenticationRequest.attributesNames)
        let answer = await withDeadline(
            seconds: interactive ? configuration.partnerInteractionTimeout : configuration.requestTimeout,
            fallback: Result<PartnerAccountMetadata, PartnerFrameworkError>.failure(.other(code: "timeout", message: "The TV provider account service did not answer the SAML request in time."))
        ) {
            do throws(PartnerFrameworkError) { return .success(try await partner.accountMetadata(request)) } catch { return .failure(error) }
        }
        let samlResponse: String
        switch answer {
        case .success(let account):
            guard let response = account.samlResponse, !response.isEmpty else { return .partnerFailed(.invalidVerificationToken) }
            samlResponse = response
        case .failure(let error):
            return .partnerFailed(error)
        }
        do {
            let profiles = try await client.partnerProfile(serviceProvider: requestor, partner: "Apple", samlResponse: samlResponse, context: context)
            guard let profile = profiles.first(where: { $0.mvpd == mvpd.id }) ?? profiles.first else {
                return .fallback(reasonType: "profile_missing")
            }
            store.setProfile(storedProfile(from: profile, requestor: requestor, tokenSource: "Apple", partnerProviderID: partnerStatus.providerID))
            return .authenticated
        } catch {
            return .failed(error)
        }
    }

    /// Converts a REST profile into the stored form.
    func storedProfile(from profile: Profile, requestor: String, tokenSource: String?, partnerProviderID: String?) -> StoredProfile {
        let type = StoredProfileType(rawValue: profile.type) ?? (tokenSource == "Apple" ? .appleSSO : .regular)
        return StoredProfile(
            requestor: requestor, mvpd: profile.mvpd, type: type, notBefore: profile.notBefore, notAfter: profile.notAfter,
            attributes: profile.attributes.mapValues { StoredAttribute(value: $0.value, encrypted: $0.state == "enc") },
            tokenSource: tokenSource, partnerProviderID: partnerProviderID, serviceProviderURL: nil)
    }
}
