import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

/// The sandbox's documented fallbacks (reason types) and enhanced error codes, as the SDK's
/// REST client decodes them from a real socket.
@Suite struct WireFallbackTests {
    private let requestor = WireRig.requestor

    // MARK: Partner single sign-on fallbacks

    @Test func deniedPartnerStatusFallsBackToBasicAuthentication() async throws {
        let rig = try WireRig()
        let action = try await rig.client.partnerSession(
            serviceProvider: requestor, partner: "Apple", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.partnerContext("denied"))
        #expect(action.actionName == .authenticate)
        #expect(action.actionType == .interactive)
        #expect(action.reasonType == .partnerFrameworkStatusFallback)
        #expect(action.mvpd == "AppleBoarded")
        #expect(action.authenticationRequest == nil)
        let code = try #require(action.code)
        #expect(action.url == "/api/v2/authenticate/REF30/\(code)")
        // The fallback session is a regular one: its login page works.
        let relative = try #require(action.url)
        let page = try #require(rig.client.absoluteURL(for: relative))
        let landed = try await SimulatedUserAgent(httpBase: rig.baseURL).login(
            startingAt: page.absoluteString,
            username: "alice", password: "alice123", redirectPrefix: WireRig.redirectURL)
        #expect(landed == WireRig.redirectURL)
        #expect(
            try await rig.client.profile(serviceProvider: requestor, code: code, context: rig.context).map(\.type) == [
                "regular"
            ])
    }

    @Test func missingPartnerStatusAsksForTheMVPD() async throws {
        let rig = try WireRig()
        let action = try await rig.client.partnerSession(
            serviceProvider: requestor, partner: "Apple", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.context)
        #expect(
            rig.recorder.last("POST", pathEnding: "/sessions/sso/Apple")?.header("AP-Partner-Framework-Status") == nil)
        #expect(action.actionName == .resume)
        #expect(action.actionType == .direct)
        #expect(action.reasonType == .partnerFrameworkStatusFallback)
        #expect(action.missingParameters == ["mvpd"])
        #expect(action.mvpd == nil)
        let code = try #require(action.code)
        #expect(action.url == "/api/v2/REF30/sessions/\(code)")
    }

    @Test func ssoDisabledIntegrationFallsBackWithConfigurationFallback() async throws {
        let rig = try WireRig()
        let action = try await rig.client.partnerSession(
            serviceProvider: requestor, partner: "Apple", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.partnerContext(provider: "SSODisabled"))
        #expect(action.actionName == .authenticate)
        #expect(action.actionType == .interactive)
        #expect(action.reasonType == .configurationFallback)
        #expect(action.mvpd == "SSODisabled")
        #expect(action.code != nil)
        #expect(action.authenticationRequest == nil)
    }

    @Test func partnerSessionWithoutDomainAndRedirectFallsBackForMissingParameters() async throws {
        let rig = try WireRig()
        let action = try await rig.client.partnerSession(
            serviceProvider: requestor, partner: "Apple", context: rig.partnerContext())
        #expect(formFields(rig.recorder.last("POST", pathEnding: "/sessions/sso/Apple")).isEmpty)
        #expect(action.actionName == .resume)
        #expect(action.actionType == .direct)
        #expect(action.reasonType == .missingParametersFallback)
        #expect(action.missingParameters == ["domainName", "redirectUrl"])
        #expect(action.mvpd == "AppleBoarded")
        let code = try #require(action.code)
        // Resuming with the parameters leads to the regular login.
        let resumed = try await rig.client.resumeSession(
            serviceProvider: requestor, code: code, mvpd: "AppleBoarded", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL, context: rig.context)
        #expect(resumed.actionName == .authenticate)
        #expect(resumed.code == code)
    }

    // MARK: Degradation and TempPass

    @Test func degradedIntegrationAnswersDirectlyEverywhere() async throws {
        let rig = try WireRig()
        let partner = try await rig.client.partnerSession(
            serviceProvider: requestor, partner: "Apple", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.partnerContext(provider: "Degraded"))
        #expect(partner.actionName == .authorize)
        #expect(partner.actionType == .direct)
        #expect(partner.reasonType == .degraded)
        #expect(partner.mvpd == "Degraded")
        #expect(partner.url == "/api/v2/REF30/decisions/authorize/Degraded")

        let session = try await rig.client.createSession(
            serviceProvider: requestor, mvpd: "Degraded", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.context)
        #expect(session.actionName == .authorize)
        #expect(session.reasonType == .degraded)

        let profile = try #require(
            try await rig.client.profile(serviceProvider: requestor, mvpd: "Degraded", context: rig.context).first)
        #expect(profile.type == "degraded")
        #expect(profile.issuer == "Adobe")
        #expect(profile.attributes["userID"]?.value.stringValue?.hasPrefix("95cf93bcd183214a") == true)

        let decision = try #require(
            try await rig.client.authorize(
                serviceProvider: requestor, mvpd: "Degraded", resources: ["anything"], context: rig.context
            ).first)
        #expect(decision.authorized)
        #expect(decision.source == .degradation)
        #expect(decision.token != nil)

        let logouts = try await rig.client.logout(
            serviceProvider: requestor, mvpd: "Degraded", redirectURL: WireRig.redirectURL, context: rig.context)
        #expect(logouts == [LogoutAction(mvpd: "Degraded", actionName: .complete, actionType: .noStep)])
    }

    @Test func tempPassStartsATemporaryProfile() async throws {
        let rig = try WireRig()
        let session = try await rig.client.createSession(
            serviceProvider: requestor, mvpd: "TempPass", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.context)
        #expect(session.actionName == .authorize)
        #expect(session.actionType == .direct)
        #expect(session.reasonType == .temporary)
        let profile = try #require(
            try await rig.client.profile(serviceProvider: requestor, mvpd: "TempPass", context: rig.context).first)
        #expect(profile.type == "temporary")
        #expect(profile.notAfter == rig.now.addingTimeInterval(1_800))
        #expect(
            profile.attributes["expiration_date"]?.value
                == .number(Double(Int64((rig.now.timeIntervalSince1970 + 1_800) * 1000))))
        let decision = try #require(
            try await rig.client.authorize(
                serviceProvider: requestor, mvpd: "TempPass", resources: ["news"], context: rig.context
            ).first)
        #expect(decision.source == .temppass)
        #expect(decision.authorized)

        // Once the window is used up, every endpoint refuses it.
        rig.sandbox.clock.advance(by: 1_801)
        let error = await restError { () async throws(RESTClientError) in
            try await rig.client.profile(serviceProvider: requestor, mvpd: "TempPass", context: rig.context)
        }
        #expect(error?.httpStatus == 403)
        #expect(error?.enhancedError?.code == "temporary_access_duration_limit_exceeded")
        #expect(error?.enhancedError?.action == "authentication")
    }

    // MARK: Enhanced errors

    @Test func inactiveIntegrationIsRefusedWithTheWholeEnhancedError() async throws {
        let rig = try WireRig()
        let error = await restError { () async throws(RESTClientError) in
            try await rig.client.createSession(
                serviceProvider: requestor, mvpd: "Inactive", domainName: WireRig.domainName,
                redirectURL: WireRig.redirectURL,
                context: rig.context)
        }
        guard case .server(let operation, let status, let enhanced?) = error else {
            Issue.record("Expected a server error with an enhanced error, got \(String(describing: error))")
            return
        }
        #expect(operation == .createSession)
        #expect(status == 400)
        #expect(enhanced.status == 400)
        #expect(enhanced.code == "invalid_integration")
        #expect(enhanced.action == "none")
        #expect(enhanced.message?.isEmpty == false)
        #expect(enhanced.details?.contains("Inactive") == true)
        #expect(enhanced.helpUrl?.hasPrefix("https://") == true)
        #expect(enhanced.trace?.isEmpty == false)
        #expect(error?.message.contains("invalid_integration") == true)
    }

    @Test func documentedErrorCodesDecode() async throws {
        let rig = try WireRig()
        let context = rig.context
        func code(_ body: () async throws(RESTClientError) -> Void) async -> (Int?, String?, String?) {
            let error = await restError(body)
            return (error?.httpStatus, error?.enhancedError?.code, error?.enhancedError?.action)
        }
        let missingProfile = await code { () async throws(RESTClientError) in
            _ = try await rig.client.authorize(
                serviceProvider: requestor, mvpd: "NotBoarded", resources: ["news"], context: context)
        }
        #expect(missingProfile == (403, "authenticated_profile_missing", "authentication"))

        let tooMany = await code { () async throws(RESTClientError) in
            _ = try await rig.client.preauthorize(
                serviceProvider: requestor, mvpd: "Degraded", resources: ["a", "b", "c", "d", "e", "f"],
                context: context)
        }
        #expect(tooMany == (403, "too_many_resources", "configuration"))

        let unknownCode = await code { () async throws(RESTClientError) in
            _ = try await rig.client.profile(serviceProvider: requestor, code: "ZZZZZZZ", context: context)
        }
        #expect(unknownCode == (400, "invalid_authentication_session", "none"))

        // A redirect URL the SDK never sends, fed to its client to see the refusal: the request
        // says so in its User-Agent, so the wire conformance check does not count it as the SDK's.
        var invalidInput = context
        invalidInput.userAgent = "WireTests-InvalidInput/1.0"
        let badRedirect = await code { () async throws(RESTClientError) in
            _ = try await rig.client.createSession(
                serviceProvider: requestor, mvpd: "NotBoarded", domainName: WireRig.domainName,
                redirectURL: "no-scheme", context: invalidInput)
        }
        #expect(badRedirect == (400, "invalid_parameter_redirect_url", "none"))

        let badSAML = await code { () async throws(RESTClientError) in
            _ = try await rig.client.partnerProfile(
                serviceProvider: requestor, partner: "Apple", samlResponse: "<Response>forged</Response>",
                context: rig.partnerContext())
        }
        #expect(badSAML == (400, "invalid_parameter_saml_response", "none"))

        let notGranted = await code { () async throws(RESTClientError) in
            _ = try await rig.client.partnerProfile(
                serviceProvider: requestor, partner: "Apple", samlResponse: "c2FtbA==",
                context: rig.partnerContext("denied"))
        }
        #expect(notGranted == (400, "invalid_header_pfs_permission_access_not_granted", "none"))

        let unknownPartner = await code { () async throws(RESTClientError) in
            _ = try await rig.client.partnerSession(
                serviceProvider: requestor, partner: "Roku", domainName: WireRig.domainName,
                redirectURL: WireRig.redirectURL, context: rig.partnerContext())
        }
        #expect(unknownPartner == (400, "invalid_parameter_partner", "none"))

        let unknownRequestor = await code { () async throws(RESTClientError) in
            _ = try await rig.client.configuration(serviceProvider: "NOPE", context: context)
        }
        #expect(unknownRequestor == (400, "invalid_parameter_service_provider", "none"))
    }

    // MARK: Access tokens

    @Test func aTokenTheServerNoLongerAcceptsIsRenewedOnce() async throws {
        // The client's clock stands still while the sandbox's moves past the token's life,
        // so the client still believes its token valid and learns otherwise from a 401.
        let rig = try WireRig(clientClock: ManualTimeSource())
        _ = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        let firstClient = try #require(rig.credentials.loadClientCredentials()).clientID
        rig.sandbox.clock.advance(by: 86_401)
        rig.sandbox.clearRequestLog()

        _ = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        // 401 (whose action is application-registration): a new token, the request once more.
        // The token endpoint still knows the client, so the registration (and every sign-in
        // made with it) stays.
        #expect(
            rig.sandbox.requestLog.map { "\($0.method) \($0.path) \($0.status)" } == [
                "GET /api/v2/REF30/configuration 401", "POST /o/client/token 201",
                "GET /api/v2/REF30/configuration 200",
            ])
        #expect(rig.credentials.loadClientCredentials()?.clientID == firstClient)
    }

    @Test func aRequestorOutsideTheSoftwareStatementStaysRefused() async throws {
        let rig = try WireRig()
        let error = await restError { () async throws(RESTClientError) in
            try await rig.client.configuration(serviceProvider: "REF31", context: rig.context)
        }
        #expect(error?.httpStatus == 401)
        #expect(error?.enhancedError?.code == "invalid_access_token_service_provider")
        #expect(error?.enhancedError?.action == "application-registration")
        // One retry after renewing, never a loop.
        #expect(rig.recorder.lines.filter { $0 == "GET /api/v2/REF31/configuration" }.count == 2)
    }

    @Test func anUnknownSoftwareStatementIsRefusedByRegistration() async throws {
        let rig = try WireRig(statement: "NOT-A-STATEMENT")
        let error = await restError { () async throws(RESTClientError) in
            try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        }
        #expect(
            error
                == .server(
                    operation: .dcrRegister, httpStatus: 400,
                    error: EnhancedError(code: "unapproved_software_statement")))
        #expect(rig.recorder.lines == ["POST /o/client/register"])
    }
}
