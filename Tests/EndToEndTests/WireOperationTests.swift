import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

/// Every REST API V2 and DCR operation of the SDK's typed client against PassSandbox over a
/// real loopback socket: the request shape the sandbox received and the client's decoding
/// of the sandbox's answer. The two sides are written independently, so any field-name
/// disagreement shows up here as a missing or wrong value.
@Suite struct WireOperationTests {
    private let requestor = WireRig.requestor

    @Test func firstCallRegistersFetchesATokenThenReusesIt() async throws {
        let rig = try WireRig()
        let configuration = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        #expect(configuration.requestor.id == requestor)
        #expect(
            rig.recorder.lines == [
                "POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/configuration",
            ])

        let register = rig.recorder.last("POST", pathEnding: "/o/client/register")
        expectShape(
            register,
            WireShape(
                method: "POST", path: "/o/client/register", contentType: "application/json",
                required: ["X-Device-Info", "User-Agent"], absent: ["Authorization", "AP-Device-Identifier"]), rig: rig)
        let registration = try #require(
            register.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] })
        #expect(registration["software_statement"] as? String == WireRig.statement)

        let token = rig.recorder.last("POST", pathEnding: "/o/client/token")
        expectShape(
            token,
            WireShape(
                method: "POST", path: "/o/client/token", contentType: "application/x-www-form-urlencoded",
                required: [], absent: ["Authorization"]), rig: rig)
        let credentials = try #require(rig.credentials.loadClientCredentials())
        let fields = formFields(token)
        #expect(fields["grant_type"] == "client_credentials")
        // Secrets are compared as Bools so a failure never prints them.
        let sentCredentials =
            fields["client_id"] == credentials.clientID && fields["client_secret"] == credentials.clientSecret
        #expect(sentCredentials)
        // The registration answer decoded field by field.
        #expect(credentials.grantTypes == ["client_credentials"])
        #expect(credentials.scopes == ["api:client:v2"])
        #expect(
            credentials.clientIDIssuedAt == Date(timeIntervalSince1970: rig.now.timeIntervalSince1970.rounded(.down)))
        // The token answer: expires_in measured from now on the shared clock.
        let accessToken = try #require(rig.credentials.loadAccessToken())
        #expect(accessToken.expiresAt == rig.now.addingTimeInterval(86_400))
        let sent = rig.recorder.last("GET", pathEnding: "/configuration")?.header("Authorization")
        let sentToken = sent == "Bearer \(accessToken.value)"
        #expect(sentToken)

        // The token is reused: no more DCR traffic.
        rig.recorder.reset()
        _ = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        #expect(rig.recorder.lines == ["GET /api/v2/REF30/configuration"])
    }

    @Test func configurationDecodesEveryMVPDFlag() async throws {
        let rig = try WireRig()
        let configuration = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        expectShape(
            rig.recorder.last("GET", pathEnding: "/configuration"),
            WireShape(
                method: "GET", path: "/api/v2/REF30/configuration", contentType: nil,
                required: WireShape.apiHeaders, absent: ["AP-Partner-Framework-Status"]), rig: rig)

        #expect(configuration.requestor.name == "Reference Requestor 30")
        #expect(configuration.requestor.domains.map(\.name) == ["adobe.com"])
        // Inactive integrations are absent; the rest keep the world's order.
        #expect(
            configuration.mvpds.map(\.id) == [
                "AppleBoarded", "PickerOnly", "NotBoarded", "SSODisabled", "Degraded", "TempPass", "SVCProvider",
            ])
        let byID = Dictionary(uniqueKeysWithValues: configuration.mvpds.map { ($0.id, $0) })
        let world = try #require(rig.sandbox.world.serviceProvider(requestor))
        for mvpd in configuration.mvpds {
            let expected = try #require(world.mvpd(mvpd.id))
            #expect(mvpd.displayName == expected.displayName)
            #expect(mvpd.logoUrl == expected.logoUrl)
            #expect(mvpd.platformMappingId == expected.platformMappingId)
            #expect(mvpd.boardingStatus == expected.boardingStatus)
            #expect(mvpd.displayInPlatformPicker == expected.displayInPlatformPicker)
            #expect(mvpd.enablePlatformServices == (expected.enablePlatformServices && expected.ssoEnabled))
            #expect(mvpd.isTempPass == expected.tempPass)
            #expect((mvpd.requiresSVC ?? false) == expected.requiresSVC)
        }
        #expect(byID["AppleBoarded"]?.enablePlatformServices == true)
        #expect(byID["SSODisabled"]?.enablePlatformServices == false)
        #expect(byID["PickerOnly"]?.boardingStatus == "PICKER")

        // The legacy applicationProfile option travels as the `profile` query parameter.
        var withProfile = rig.context
        withProfile.applicationProfile = "tvOSApp"
        _ = try await rig.client.configuration(serviceProvider: requestor, context: withProfile)
        #expect(rig.recorder.last("GET", pathEnding: "/configuration")?.queryValue("profile") == "tvOSApp")
    }

    @Test func sessionLoginPageAndProfiles() async throws {
        let rig = try WireRig()
        let action = try await rig.client.createSession(
            serviceProvider: requestor, mvpd: "NotBoarded", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.context)
        let create = rig.recorder.last("POST", pathEnding: "/sessions")
        expectShape(
            create,
            WireShape(
                method: "POST", path: "/api/v2/REF30/sessions", contentType: "application/x-www-form-urlencoded",
                required: WireShape.apiHeaders + WireShape.deviceHeaders, absent: ["AP-Partner-Framework-Status"]),
            rig: rig)
        #expect(
            formFields(create) == [
                "mvpd": "NotBoarded", "domainName": WireRig.domainName, "redirectUrl": WireRig.redirectURL,
            ])

        #expect(action.actionName == .authenticate)
        #expect(action.actionType == .interactive)
        #expect(action.reasonType == .noReason)
        #expect(action.mvpd == "NotBoarded")
        #expect(action.serviceProvider == requestor)
        #expect(action.missingParameters.isEmpty)
        #expect(action.sessionId?.isEmpty == false)
        let code = try #require(action.code)
        #expect(action.url == "/api/v2/authenticate/REF30/\(code)")
        #expect(action.notBefore == rig.now)
        #expect(action.notAfter == rig.now.addingTimeInterval(1_800))
        // The relative URL and the client's own authenticate URL name the same page.
        let authenticate = rig.client.authenticateURL(serviceProvider: requestor, code: code)
        let relative = try #require(action.url)
        #expect(rig.client.absoluteURL(for: relative) == authenticate)
        #expect(authenticate.absoluteString == rig.baseURL.absoluteString + "/api/v2/authenticate/REF30/\(code)")

        // Session information: the device headers too (the checklist: every REST API V2 request).
        let information = try await rig.client.sessionInformation(
            serviceProvider: requestor, code: code, context: rig.context)
        expectShape(
            rig.recorder.last("GET", pathEnding: "/sessions/\(code)"),
            WireShape(
                method: "GET", path: "/api/v2/REF30/sessions/\(code)", contentType: nil,
                required: WireShape.apiHeaders + WireShape.deviceHeaders), rig: rig)
        #expect(information.existingParameters["mvpd"] == "NotBoarded")
        #expect(information.existingParameters["domainName"] == WireRig.domainName)
        #expect(information.existingParameters["redirectUrl"] == WireRig.redirectURL)
        #expect(information.missingParameters.isEmpty)
        #expect(information.notAfter == rig.now.addingTimeInterval(1_800))
        // The device is the structured object of the session information page, built from
        // the X-Device-Info the session was opened with.
        if case .object(let device)? = information.device, case .object(let system)? = device["operatingSystem"] {
            #expect(system["name"] == .string(DeviceInfo.linuxDefault(platform: .tvOS).osName))
            #expect(device["osName"] == nil, "no flat echo of the header")
        } else {
            Issue.record("The session information has no structured device object.")
        }

        // Before the login the code has no profile yet.
        #expect(try await rig.client.profile(serviceProvider: requestor, code: code, context: rig.context).isEmpty)

        // The login page, as a browser (the simulated user agent) uses it.
        let landed = try await SimulatedUserAgent(httpBase: rig.baseURL).login(
            startingAt: authenticate.absoluteString, username: "alice", password: "alice123",
            redirectPrefix: WireRig.redirectURL)
        #expect(landed == WireRig.redirectURL)
        #expect(
            rig.recorder.lines.suffix(3) == [
                "GET /api/v2/authenticate/REF30/\(code)", "GET /mvpd/NotBoarded/login", "POST /mvpd/NotBoarded/login",
            ])

        let byCode = try await rig.client.profile(serviceProvider: requestor, code: code, context: rig.context)
        expectShape(
            rig.recorder.last("GET", pathEnding: "/profiles/code/\(code)"),
            WireShape(
                method: "GET", path: "/api/v2/REF30/profiles/code/\(code)", contentType: nil,
                required: WireShape.apiHeaders + WireShape.deviceHeaders), rig: rig)
        let profile = try #require(byCode.first)
        #expect(byCode.count == 1)
        #expect(profile.mvpd == "NotBoarded")
        #expect(profile.type == "regular")
        #expect(profile.issuer == "NotBoarded")
        #expect(profile.notBefore == rig.now)
        #expect(profile.notAfter == rig.now.addingTimeInterval(86_400))
        #expect(profile.attributes["userID"] == ProfileAttribute(value: .string("u-alice")))
        #expect(profile.attributes["householdID"] == ProfileAttribute(value: .string("h-1")))
        let zip = try #require(profile.attributes["zip"])
        #expect(zip.isEncrypted)
        #expect(zip.value.stringValue.flatMap(SandboxMetadataCipher.decrypt) == ["10001"])

        let all = try await rig.client.profiles(serviceProvider: requestor, context: rig.context)
        expectShape(
            rig.recorder.last("GET", pathEnding: "/REF30/profiles"),
            WireShape(
                method: "GET", path: "/api/v2/REF30/profiles", contentType: nil,
                required: WireShape.apiHeaders + WireShape.deviceHeaders), rig: rig)
        #expect(all == byCode)

        let forMVPD = try await rig.client.profile(serviceProvider: requestor, mvpd: "NotBoarded", context: rig.context)
        expectShape(
            rig.recorder.last("GET", pathEnding: "/profiles/NotBoarded"),
            WireShape(
                method: "GET", path: "/api/v2/REF30/profiles/NotBoarded", contentType: nil,
                required: WireShape.apiHeaders + WireShape.deviceHeaders), rig: rig)
        #expect(forMVPD == byCode)

        // Another MVPD of the same requestor has no profile.
        #expect(
            try await rig.client.profile(serviceProvider: requestor, mvpd: "SVCProvider", context: rig.context).isEmpty)
    }

    @Test func resumeSessionSuppliesTheMissingParameters() async throws {
        let rig = try WireRig()
        // An empty mvpd counts as missing: the session asks to be resumed.
        let created = try await rig.client.createSession(
            serviceProvider: requestor, mvpd: "", domainName: WireRig.domainName, redirectURL: WireRig.redirectURL,
            context: rig.context)
        #expect(created.actionName == .resume)
        #expect(created.actionType == .direct)
        #expect(created.missingParameters == ["mvpd"])
        let code = try #require(created.code)
        #expect(created.url == "/api/v2/REF30/sessions/\(code)")

        let information = try await rig.client.sessionInformation(
            serviceProvider: requestor, code: code, context: rig.context)
        #expect(information.missingParameters == ["mvpd"])
        #expect(information.existingParameters["mvpd"] == nil)

        let resumed = try await rig.client.resumeSession(
            serviceProvider: requestor, code: code, mvpd: "NotBoarded", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL, context: rig.context)
        let resume = rig.recorder.last("POST", pathEnding: "/sessions/\(code)")
        expectShape(
            resume,
            WireShape(
                method: "POST", path: "/api/v2/REF30/sessions/\(code)",
                contentType: "application/x-www-form-urlencoded",
                required: WireShape.apiHeaders + WireShape.deviceHeaders), rig: rig)
        #expect(
            formFields(resume) == [
                "mvpd": "NotBoarded", "domainName": WireRig.domainName, "redirectUrl": WireRig.redirectURL,
            ])
        #expect(resumed.actionName == .authenticate)
        #expect(resumed.actionType == .interactive)
        #expect(resumed.code == code)
        #expect(resumed.mvpd == "NotBoarded")

        // After a login, a new session for the same MVPD needs no user agent.
        try await rig.logIn(mvpd: "NotBoarded")
        let again = try await rig.client.createSession(
            serviceProvider: requestor, mvpd: "NotBoarded", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: rig.context)
        #expect(again.actionName == .authorize)
        #expect(again.actionType == .direct)
        #expect(again.reasonType == .authenticated)
        #expect(again.code == nil)
        #expect(again.url == "/api/v2/REF30/decisions/authorize/NotBoarded")
    }

    @Test func partnerSingleSignOnSessionAndProfile() async throws {
        let rig = try WireRig()
        let context = rig.partnerContext()
        let action = try await rig.client.partnerSession(
            serviceProvider: requestor, partner: "Apple", domainName: WireRig.domainName,
            redirectURL: WireRig.redirectURL,
            context: context)
        let sessionRequest = rig.recorder.last("POST", pathEnding: "/sessions/sso/Apple")
        expectShape(
            sessionRequest,
            WireShape(
                method: "POST", path: "/api/v2/REF30/sessions/sso/Apple",
                contentType: "application/x-www-form-urlencoded",
                required: WireShape.apiHeaders + WireShape.deviceHeaders + ["AP-Partner-Framework-Status"]), rig: rig)
        #expect(sessionRequest?.header("AP-Partner-Framework-Status") == context.partnerStatus?.headerValue)
        #expect(formFields(sessionRequest) == ["domainName": WireRig.domainName, "redirectUrl": WireRig.redirectURL])

        #expect(action.actionName == .partnerProfile)
        #expect(action.actionType == .direct)
        #expect(action.reasonType == .noReason)
        #expect(action.mvpd == "AppleBoarded")
        #expect(action.url == "/api/v2/REF30/profiles/sso/Apple")
        let request = try #require(action.authenticationRequest)
        #expect(request.type == "saml")
        #expect(request.attributesNames == ["userID", "householdID", "zip"])

        // The simulated device answers the SAML request as the system-level provider.
        let device = SimulatedPartnerFramework(
            sandbox: rig.sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: rig.now.addingTimeInterval(86_400)))
        let metadata = try await device.accountMetadata(
            PartnerMetadataRequest(
                isInterruptionAllowed: false, samlRequest: request.request, attributeNames: request.attributesNames))
        let samlResponse = try #require(metadata.samlResponse)

        let profiles = try await rig.client.partnerProfile(
            serviceProvider: requestor, partner: "Apple", samlResponse: samlResponse, context: context)
        let profileRequest = rig.recorder.last("POST", pathEnding: "/profiles/sso/Apple")
        expectShape(
            profileRequest,
            WireShape(
                method: "POST", path: "/api/v2/REF30/profiles/sso/Apple",
                contentType: "application/x-www-form-urlencoded",
                required: WireShape.apiHeaders + WireShape.deviceHeaders + ["AP-Partner-Framework-Status"]), rig: rig)
        // Raw XML goes out Base64-encoded (then form-encoded), as the documentation asks.
        // Compared as a Bool so a failure never prints the SAML response.
        let sentSAML = formFields(profileRequest)["SAMLResponse"] == Data(samlResponse.utf8).base64EncodedString()
        #expect(sentSAML)
        #expect(rig.sandbox.requestLog.last?.status == 201)
        let profile = try #require(profiles.first)
        #expect(profiles.count == 1)
        #expect(profile.mvpd == "AppleBoarded")
        #expect(profile.type == "appleSSO")
        #expect(profile.issuer == "Apple")
        #expect(profile.attributes["userID"]?.value == .string("u-alice"))

        // An appleSSO profile shows only to requests carrying the partner status.
        #expect(try await rig.client.profiles(serviceProvider: requestor, context: rig.context).isEmpty)
        #expect(try await rig.client.profiles(serviceProvider: requestor, context: context).map(\.type) == ["appleSSO"])
        let forMVPD = rig.recorder.last("GET", pathEnding: "/REF30/profiles")
        #expect(forMVPD?.header("AP-Partner-Framework-Status") == context.partnerStatus?.headerValue)

        // Authorization of an appleSSO profile carries the status too.
        let decisions = try await rig.client.authorize(
            serviceProvider: requestor, mvpd: "AppleBoarded", resources: ["sports"], context: context)
        #expect(
            rig.recorder.last("POST", pathEnding: "/decisions/authorize/AppleBoarded")?.header(
                "AP-Partner-Framework-Status") != nil)
        #expect(decisions.first?.authorized == true)

        let logouts = try await rig.client.logout(
            serviceProvider: requestor, mvpd: "AppleBoarded", redirectURL: WireRig.redirectURL, context: context)
        #expect(
            logouts == [
                LogoutAction(
                    mvpd: "AppleBoarded", actionName: .partnerLogout, actionType: .partnerInteractive, url: nil)
            ])
        #expect(
            rig.recorder.last("GET", pathEnding: "/logout/AppleBoarded")?.header("AP-Partner-Framework-Status") == nil)
    }

    @Test func authorizeAndPreauthorizeDecisions() async throws {
        let rig = try WireRig()
        try await rig.logIn(mvpd: "NotBoarded", username: "bob", password: "bob123")

        let authorized = try await rig.client.authorize(
            serviceProvider: requestor, mvpd: "NotBoarded", resources: ["news"], context: rig.context)
        let request = rig.recorder.last("POST", pathEnding: "/decisions/authorize/NotBoarded")
        expectShape(
            request,
            WireShape(
                method: "POST", path: "/api/v2/REF30/decisions/authorize/NotBoarded", contentType: "application/json",
                required: WireShape.apiHeaders + WireShape.deviceHeaders, absent: ["AP-Partner-Framework-Status"]),
            rig: rig)
        let body = try #require(
            request.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] })
        #expect(body["resources"] as? [String] == ["news"])

        let permit = try #require(authorized.first)
        #expect(authorized.count == 1)
        #expect(permit.resource == "news")
        #expect(permit.serviceProvider == requestor)
        #expect(permit.mvpd == "NotBoarded")
        #expect(permit.source == .mvpd)
        #expect(permit.authorized)
        #expect(permit.error == nil)
        #expect(permit.notBefore == rig.now)
        #expect(permit.notAfter == rig.now.addingTimeInterval(3_600))
        let token = try #require(permit.token)
        #expect(token.notAfter == rig.now.addingTimeInterval(3_600))
        #expect(rig.sandbox.verifyMediaToken(token.serializedToken))

        // bob's package lacks sports: a deny with the item-level enhanced error.
        let denied = try await rig.client.authorize(
            serviceProvider: requestor, mvpd: "NotBoarded", resources: ["sports"], context: rig.context)
        let deny = try #require(denied.first)
        #expect(!deny.authorized)
        #expect(deny.token == nil)
        let error = try #require(deny.error)
        #expect(error.status == 403)
        #expect(error.code == "authorization_denied_by_mvpd")
        #expect(error.action == "none")
        #expect(error.message?.isEmpty == false)
        #expect(error.details?.contains("sports") == true)
        #expect(error.helpUrl?.hasPrefix("https://") == true)
        #expect(error.trace?.isEmpty == false)

        let preauthorized = try await rig.client.preauthorize(
            serviceProvider: requestor, mvpd: "NotBoarded", resources: ["news", "sports"], context: rig.context)
        let preRequest = rig.recorder.last("POST", pathEnding: "/decisions/preauthorize/NotBoarded")
        expectShape(
            preRequest,
            WireShape(
                method: "POST", path: "/api/v2/REF30/decisions/preauthorize/NotBoarded",
                contentType: "application/json",
                required: WireShape.apiHeaders + WireShape.deviceHeaders), rig: rig)
        let preBody = try #require(
            preRequest.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] })
        #expect(preBody["resources"] as? [String] == ["news", "sports"])
        #expect(preauthorized.map(\.resource) == ["news", "sports"])
        #expect(preauthorized.map(\.authorized) == [true, false])
        #expect(preauthorized.allSatisfy { $0.token == nil })
        #expect(preauthorized.last?.error?.code == "preauthorization_denied_by_mvpd")
    }

    @Test func logoutOfARegularProfileThroughTheMVPDPage() async throws {
        let rig = try WireRig()
        try await rig.logIn(mvpd: "NotBoarded")

        let logouts = try await rig.client.logout(
            serviceProvider: requestor, mvpd: "NotBoarded", redirectURL: WireRig.redirectURL, context: rig.context)
        let request = rig.recorder.last("GET", pathEnding: "/logout/NotBoarded")
        expectShape(
            request,
            WireShape(
                method: "GET", path: "/api/v2/REF30/logout/NotBoarded", contentType: nil,
                required: WireShape.apiHeaders + WireShape.deviceHeaders), rig: rig)
        #expect(request?.queryValue("redirectUrl") == WireRig.redirectURL)

        let logout = try #require(logouts.first)
        #expect(logouts.count == 1)
        #expect(logout.mvpd == "NotBoarded")
        #expect(logout.actionName == .logout)
        #expect(logout.actionType == .interactive)
        let url = try #require(logout.url)
        #expect(url.hasPrefix(rig.baseURL.absoluteString + "/adobe-services/logout?"))
        // The MVPD logout page sends the browser back to the application.
        let landed = try await SimulatedUserAgent(httpBase: rig.baseURL).follow(
            url, redirectPrefix: WireRig.redirectURL)
        #expect(landed == WireRig.redirectURL)

        // The profile is gone; a second logout has nothing left to do.
        #expect(try await rig.client.profiles(serviceProvider: requestor, context: rig.context).isEmpty)
        let again = try await rig.client.logout(
            serviceProvider: requestor, mvpd: "NotBoarded", redirectURL: WireRig.redirectURL, context: rig.context)
        #expect(again == [LogoutAction(mvpd: "NotBoarded", actionName: .invalid, actionType: .noStep)])
    }
}
