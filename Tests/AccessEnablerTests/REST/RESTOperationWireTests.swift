import Foundation
import Testing

@testable import AccessEnabler

/// Each operation's request on the wire (method, path, query, content type, body, headers)
/// and the decoding of bodies shaped like the documentation samples.
@Suite("REST V2 operations on the wire")
struct RESTOperationWireTests {
    @Test func configurationRequestAndBody() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"device":"unknown","clientType":"html5","os":"Unknown",
                 "requestor":{"id":"SPX","name":"Example Sports",
                   "domains":[{"name":"example.com","mvpdInitiated":false}],
                   "mvpds":[
                     {"id":"CableCo","displayName":"Cable Co","logoUrl":"https://logos.example/cable.png","authPerAggregator":false,
                      "enablePlatformServices":true,"boardingStatus":"SUPPORTED","displayInPlatformPicker":true,
                      "platformMappingId":"cable-co","enforcePlatformPermissions":true,"unknownFlag":42},
                     {"id":"TempPass_X","displayName":"Temp Pass X","isTempPass":true},
                     {"id":"ProxyCo","displayName":"Proxy Co","isProxy":true,"boardingStatus":"PICKER"}]}}
                """)
        let client = RESTFixtures.client(server)

        let configuration = try await client.configuration(
            serviceProvider: "SPX",
            context: RESTFixtures.context(visitorID: "ecid-1", applicationProfile: "appProfileA"))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/configuration?profile=appProfileA")
        #expect(request.body == nil)
        #expect(request.header("Content-Type") == nil)
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(request.header("AP-Visitor-Identifier") == nil)

        #expect(configuration.requestor.id == "SPX")
        #expect(configuration.requestor.name == "Example Sports")
        #expect(configuration.requestor.domains == [.init(name: "example.com", mvpdInitiated: false)])
        #expect(configuration.mvpds.map(\.id) == ["CableCo", "TempPass_X", "ProxyCo"])
        try #require(configuration.mvpds.count == 3)
        let cable = configuration.mvpds[0]
        #expect(cable.displayName == "Cable Co")
        #expect(cable.logoUrl == "https://logos.example/cable.png")
        #expect(cable.enablePlatformServices && cable.displayInPlatformPicker && cable.enforcePlatformPermissions)
        #expect(cable.boardingStatus == "SUPPORTED")
        #expect(cable.platformMappingId == "cable-co")
        #expect(cable.authPerAggregator == false)
        #expect(configuration.mvpds[1].isTempPass && !configuration.mvpds[1].isProxy)
        #expect(configuration.mvpds[2].isProxy && configuration.mvpds[2].boardingStatus == "PICKER")
        #expect(configuration.clientType == "html5")
    }

    @Test func createSessionSendsEncodedFormAndDecodesAuthenticateAction() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"actionName":"authenticate","actionType":"interactive","reasonType":"none",
                 "url":"/api/v2/authenticate/SPX/ABC1234","code":"ABC1234","sessionId":"s-1","mvpd":"CableCo",
                 "serviceProvider":"SPX","notBefore":"1767225600000","notAfter":"1767227400000"}
                """)
        let client = RESTFixtures.client(server)
        let redirect = "adobepass://ios.app/done?x=1&y=a b#frag"

        let action = try await client.createSession(
            serviceProvider: "SPX", mvpd: "CableCo", domainName: "example.com", redirectURL: redirect,
            context: RESTFixtures.context(visitorID: "ecid-1"))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/sessions")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(
            request.bodyText
                == "mvpd=CableCo&domainName=example.com&redirectUrl=adobepass%3A%2F%2Fios.app%2Fdone%3Fx%3D1%26y%3Da%20b%23frag"
        )
        #expect(request.formFields["redirectUrl"] == redirect)
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(request.header("AP-Visitor-Identifier") == "ecid-1")
        #expect(request.header("AP-Partner-Framework-Status") == nil)

        #expect(action.actionName == .authenticate)
        #expect(action.actionType == .interactive)
        #expect(action.reasonType == .noReason)
        #expect(action.code == "ABC1234")
        #expect(action.url == "/api/v2/authenticate/SPX/ABC1234")
        #expect(action.mvpd == "CableCo")
        #expect(action.serviceProvider == "SPX")
        #expect(action.sessionId == "s-1")
        #expect(action.notBefore == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(action.notAfter == Date(timeIntervalSince1970: 1_767_227_400))
        #expect(
            client.absoluteURL(for: action.url ?? "")?.absoluteString
                == "https://pass.example.test/api/v2/authenticate/SPX/ABC1234")
    }

    @Test func createSessionDecodesResumeAndAuthorizeActions() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"actionName":"resume","actionType":"direct","reasonType":"none","url":"/api/v2/SPX/sessions/ABC1234",
                 "missingParameters":["mvpd","domainName"],"code":"ABC1234","sessionId":"s-2","serviceProvider":"SPX",
                 "notBefore":1767225600000,"notAfter":1767227400000}
                """)
        let client = RESTFixtures.client(server)
        let resume = try await client.createSession(
            serviceProvider: "SPX", mvpd: "CableCo", domainName: "example.com",
            redirectURL: URL(string: "adobepass://ios.app")!,
            context: RESTFixtures.context())
        #expect(resume.actionName == .resume)
        #expect(resume.missingParameters == ["mvpd", "domainName"])
        #expect(resume.notBefore == Date(timeIntervalSince1970: 1_767_225_600))

        server.answer(
            json: """
                {"actionName":"authorize","actionType":"direct","reasonType":"temporary",
                 "url":"/api/v2/SPX/decisions/authorize/TempPass_X","sessionId":"s-3","mvpd":"TempPass_X","serviceProvider":"SPX"}
                """)
        let authorize = try await client.createSession(
            serviceProvider: "SPX", mvpd: "TempPass_X", domainName: "example.com", redirectURL: "adobepass://ios.app",
            context: RESTFixtures.context())
        #expect(authorize.actionName == .authorize && authorize.reasonType == .temporary)
        #expect(authorize.code == nil && authorize.notBefore == nil && authorize.missingParameters.isEmpty)
    }

    @Test func resumeSessionUsesCodePathAndTheDeviceHeaders() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"actionName":"authenticate","actionType":"interactive","reasonType":"none","url":"/api/v2/authenticate/SPX/ABC1234",
                 "code":"ABC1234","sessionId":"s-1","mvpd":"CableCo","serviceProvider":"SPX"}
                """)
        let client = RESTFixtures.client(server)

        let action = try await client.resumeSession(
            serviceProvider: "SPX", code: "ABC1234", mvpd: "CableCo", domainName: "example.com",
            redirectURL: "https://example.com/back", context: RESTFixtures.context(visitorID: "ecid-2"))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/sessions/ABC1234")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.bodyText == "mvpd=CableCo&domainName=example.com&redirectUrl=https%3A%2F%2Fexample.com%2Fback")
        // The checklist: the device headers on every REST API V2 request, this page's table notwithstanding.
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(request.header("AP-Visitor-Identifier") == "ecid-2")
        #expect(action.code == "ABC1234")
    }

    @Test func sessionInformationDecodesParametersAndDevice() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"missingParameters":["mvpd"],
                 "existingParameters":{"redirectUrl":"https://example.com","domainName":"example.com","serviceProvider":"SPX"},
                 "device":{"type":"Desktop","model":null,"operatingSystem":{"name":"Linux","version":{"major":6}}},
                 "notBefore":"1767225600000","notAfter":"1767227400000"}
                """)
        let client = RESTFixtures.client(server)

        let status = try await client.sessionInformation(
            serviceProvider: "SPX", code: "ABC1234", context: RESTFixtures.context())

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/sessions/ABC1234")
        #expect(request.body == nil)
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(status.missingParameters == ["mvpd"])
        #expect(status.existingParameters["domainName"] == "example.com")
        #expect(status.existingParameters["redirectUrl"] == "https://example.com")
        if case .object(let device)? = status.device {
            #expect(device["type"] == .string("Desktop"))
        } else {
            Issue.record("device not decoded as an object")
        }
        #expect(status.notAfter == Date(timeIntervalSince1970: 1_767_227_400))
    }

    @Test func authenticateURLIsAbsoluteAndSendsNothing() {
        let server = FakeAdobePass()
        let client = RESTFixtures.client(server)
        let url = client.authenticateURL(serviceProvider: "SPX", code: "ABC1234")
        #expect(url.absoluteString == "https://pass.example.test/api/v2/authenticate/SPX/ABC1234")
        #expect(server.requests.isEmpty)
    }

    static let profilesBody = """
        {"profiles":{
           "CableCo":{"notBefore":1767225600000,"notAfter":1767829400000,"issuer":"CableCo","type":"regular",
             "attributes":{"userID":{"value":"dXNlci0x","state":"plain"},"zip":{"value":"ZW5jcnlwdGVk","state":"enc"}}},
           "TempPass_X":{"notBefore":1767225600000,"notAfter":1767225660000,"issuer":"Adobe","type":"temporary",
             "attributes":{"expiration_date":{"value":1767225660000,"state":"plain"},
                           "used_assets":{"value":["res01","res02"],"state":"plain"},
                           "remaining_resources":{"value":1,"state":"plain"}}}}}
        """

    @Test func profilesDecodeTheMapKeyedByMVPD() async throws {
        let server = FakeAdobePass()
        server.answer(json: Self.profilesBody)
        let client = RESTFixtures.client(server)
        let status = PartnerFrameworkStatus(
            accessStatus: "granted", providerID: "cable-co", expirationDate: Date(timeIntervalSince1970: 1_767_300_000))

        let profiles = try await client.profiles(
            serviceProvider: "SPX", context: RESTFixtures.context(partnerStatus: status))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/profiles")
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(request.header("AP-Partner-Framework-Status") == status.headerValue)

        #expect(profiles.map(\.mvpd) == ["CableCo", "TempPass_X"])
        try #require(profiles.count == 2)
        let regular = profiles[0]
        #expect(regular.type == "regular" && regular.issuer == "CableCo")
        #expect(regular.notBefore == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(regular.notAfter == Date(timeIntervalSince1970: 1_767_829_400))
        #expect(regular.attributes["userID"] == ProfileAttribute(value: .string("dXNlci0x"), state: "plain"))
        #expect(regular.attributes["zip"]?.isEncrypted == true)
        let temporary = profiles[1]
        #expect(temporary.type == "temporary")
        #expect(temporary.attributes["used_assets"]?.value == .array([.string("res01"), .string("res02")]))
        #expect(temporary.attributes["remaining_resources"]?.value == .number(1))
        #expect(temporary.attributes["expiration_date"]?.value.compactText == "1767225660000")
    }

    @Test func profileForMVPDAndForCodeUseTheirPaths() async throws {
        let server = FakeAdobePass()
        server.answer(json: Self.profilesBody)
        let client = RESTFixtures.client(server)

        let byMVPD = try await client.profile(serviceProvider: "SPX", mvpd: "CableCo", context: RESTFixtures.context())
        let byCode = try await client.profile(
            serviceProvider: "SPX", code: "ABC1234", context: RESTFixtures.context(visitorID: "ecid-3"))

        let requests = server.apiRequests
        try #require(requests.count == 2)
        #expect(requests[0].method == "GET")
        #expect(requests[0].url.absoluteString == "https://pass.example.test/api/v2/SPX/profiles/CableCo")
        expectCommonHeaders(requests[0], deviceHeaders: true)
        #expect(requests[1].method == "GET")
        #expect(requests[1].url.absoluteString == "https://pass.example.test/api/v2/SPX/profiles/code/ABC1234")
        // The second screen's polls too: the checklist requires the device headers on every request.
        expectCommonHeaders(requests[1], deviceHeaders: true)
        #expect(requests[1].header("AP-Visitor-Identifier") == "ecid-3")
        #expect(byMVPD.count == 2 && byCode.count == 2)
    }

    @Test func emptyProfilesMapIsNoProfile() async throws {
        let server = FakeAdobePass()
        server.answer(json: #"{"profiles":{}}"#)
        let profiles = try await RESTFixtures.client(server).profiles(
            serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(profiles.isEmpty)
    }

    @Test func partnerSessionSendsStatusHeaderAndDecodesAuthenticationRequest() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"actionName":"partner_profile","actionType":"direct","reasonType":"none","url":"/api/v2/SPX/profiles/sso/Apple",
                 "sessionId":"s-9","mvpd":"CableCo","serviceProvider":"SPX",
                 "authenticationRequest":{"type":"saml","request":"PHNhbWw+","attributesNames":["uid","NameID"]}}
                """)
        let client = RESTFixtures.client(server)
        let expiry = Date(timeIntervalSince1970: 1_767_300_000)
        let status = PartnerFrameworkStatus(accessStatus: "granted", providerID: "cable-co", expirationDate: expiry)

        let action = try await client.partnerSession(
            serviceProvider: "SPX", partner: "Apple", domainName: "example.com", redirectURL: "adobepass://ios.app",
            context: RESTFixtures.context(partnerStatus: status))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/sessions/sso/Apple")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.bodyText == "domainName=example.com&redirectUrl=adobepass%3A%2F%2Fios.app")
        expectCommonHeaders(request, deviceHeaders: true)
        let pfs = try #require(RESTFixtures.base64JSON(request.header("AP-Partner-Framework-Status")))
        let permission = pfs["frameworkPermissionInfo"] as? [String: Any]
        let provider = pfs["frameworkProviderInfo"] as? [String: Any]
        #expect(permission?["accessStatus"] as? String == "granted")
        #expect(provider?["id"] as? String == "cable-co")
        #expect(provider?["expirationDate"] as? String == "1767300000000")

        #expect(action.actionName == .partnerProfile)
        #expect(action.actionType == .direct)
        #expect(action.mvpd == "CableCo")
        #expect(
            action.authenticationRequest
                == PartnerAuthenticationRequest(type: "saml", request: "PHNhbWw+", attributesNames: ["uid", "NameID"]))
    }

    @Test func partnerSessionDecodesFallbacks() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"actionName":"authenticate","actionType":"interactive","reasonType":"pfs_fallback","url":"/api/v2/authenticate/SPX/QWE9876",
                 "code":"QWE9876","sessionId":"s-10","mvpd":"CableCo","serviceProvider":"SPX",
                 "notBefore":"1767225600000","notAfter":"1767227400000"}
                """)
        let client = RESTFixtures.client(server)
        let context = RESTFixtures.context(partnerStatus: PartnerFrameworkStatus(accessStatus: "denied"))
        let fallback = try await client.partnerSession(serviceProvider: "SPX", partner: "Apple", context: context)
        #expect(fallback.reasonType == .partnerFrameworkStatusFallback)
        #expect(fallback.code == "QWE9876" && fallback.authenticationRequest == nil)
        #expect(fallback.notAfter == Date(timeIntervalSince1970: 1_767_227_400))
        let pfs = try #require(RESTFixtures.base64JSON(server.apiRequests.first?.header("AP-Partner-Framework-Status")))
        #expect((pfs["frameworkProviderInfo"] as? [String: Any])?.isEmpty == true)

        server.answer(
            json: """
                {"actionName":"resume","actionType":"direct","reasonType":"missing_parameters_fallback","missingParameters":["redirectUrl"],
                 "url":"/api/v2/SPX/sessions/ZZZ1111","code":"ZZZ1111","sessionId":"s-11","mvpd":"CableCo","serviceProvider":"SPX"}
                """)
        let resume = try await client.partnerSession(serviceProvider: "SPX", partner: "Apple", context: context)
        #expect(resume.reasonType == .missingParametersFallback && resume.missingParameters == ["redirectUrl"])
    }

    @Test func partnerProfileSendsSAMLResponseForm() async throws {
        let server = FakeAdobePass()
        server.answer(
            status: 201,
            json: """
                {"profiles":{"CableCo":{"notBefore":1767225600000,"notAfter":1767829400000,"issuer":"Apple","type":"appleSSO",
                  "attributes":{"userID":{"value":"dXNlci0x","state":"plain"}}}}}
                """)
        let client = RESTFixtures.client(server)
        let samlBase64 = Data("<samlp:Response ID=\"r+1/2\"/>".utf8).base64EncodedString()
        let status = PartnerFrameworkStatus(
            accessStatus: "granted", providerID: "cable-co", expirationDate: Date(timeIntervalSince1970: 1_767_300_000))

        let profiles = try await client.partnerProfile(
            serviceProvider: "SPX", partner: "Apple", samlResponse: samlBase64,
            context: RESTFixtures.context(partnerStatus: status))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/profiles/sso/Apple")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.formFields["SAMLResponse"] == samlBase64)
        #expect(!request.bodyText.contains("+") && !request.bodyText.contains("/"))
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(request.header("AP-Partner-Framework-Status") == status.headerValue)
        #expect(profiles.first?.type == "appleSSO" && profiles.first?.issuer == "Apple")
    }

    @Test func partnerProfileBase64EncodesARawSAMLResponse() async throws {
        let server = FakeAdobePass()
        server.answer(json: #"{"profiles":{}}"#)
        let raw = "<samlp:Response/>"
        _ = try await RESTFixtures.client(server).partnerProfile(
            serviceProvider: "SPX", partner: "Apple", samlResponse: raw, context: RESTFixtures.context())
        #expect(server.apiRequests.first?.formFields["SAMLResponse"] == Data(raw.utf8).base64EncodedString())
    }

    static let decisionsBody = """
        {"decisions":[
          {"resource":"channel-1","serviceProvider":"SPX","mvpd":"CableCo","source":"mvpd","authorized":true,
           "token":{"notBefore":1767225600000,"notAfter":1767226200000,"serializedToken":"bWVkaWEtdG9rZW4="},
           "notBefore":1767225600000,"notAfter":1767229200000},
          {"resource":"channel-2","serviceProvider":"SPX","mvpd":"CableCo","source":"mvpd","authorized":false,
           "error":{"action":"none","status":403,"code":"authorization_denied_by_mvpd","message":"Denied by the MVPD.",
                    "details":"Package lacks this channel","helpUrl":"https://help.example/errors","trace":"trace-7"}}]}
        """

    @Test func authorizeSendsJSONResourcesAndDecodesDecisions() async throws {
        let server = FakeAdobePass()
        server.answer(json: Self.decisionsBody)
        let client = RESTFixtures.client(server)
        let status = PartnerFrameworkStatus(
            accessStatus: "granted", providerID: "cable-co", expirationDate: Date(timeIntervalSince1970: 1_767_300_000))

        let decisions = try await client.authorize(
            serviceProvider: "SPX", mvpd: "CableCo", resources: ["channel-1", "channel-2"],
            context: RESTFixtures.context(visitorID: "ecid-4", partnerStatus: status))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/decisions/authorize/CableCo")
        #expect(request.header("Content-Type") == "application/json")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
        #expect(body["resources"] as? [String] == ["channel-1", "channel-2"])
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(request.header("AP-Partner-Framework-Status") == status.headerValue)
        #expect(request.header("AP-Visitor-Identifier") == "ecid-4")

        try #require(decisions.count == 2)
        let permit = decisions[0]
        #expect(permit.resource == "channel-1" && permit.authorized && permit.source == .mvpd)
        #expect(
            permit.token
                == DecisionToken(
                    serializedToken: "bWVkaWEtdG9rZW4=", notBefore: Date(timeIntervalSince1970: 1_767_225_600),
                    notAfter: Date(timeIntervalSince1970: 1_767_226_200)))
        #expect(permit.notAfter == Date(timeIntervalSince1970: 1_767_229_200))
        let deny = decisions[1]
        #expect(!deny.authorized && deny.token == nil)
        #expect(
            deny.error
                == EnhancedError(
                    status: 403, code: "authorization_denied_by_mvpd", message: "Denied by the MVPD.",
                    details: "Package lacks this channel", helpUrl: "https://help.example/errors", trace: "trace-7",
                    action: "none"))
    }

    @Test func preauthorizeUsesItsPath() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"decisions":[{"resource":"r1","serviceProvider":"SPX","mvpd":"CableCo","source":"mvpd","authorized":true},
                              {"resource":"r2","serviceProvider":"SPX","mvpd":"CableCo","source":"degradation","authorized":false,
                               "error":{"status":403,"code":"preauthorization_denied_by_mvpd","action":"none"}}]}
                """)
        let decisions = try await RESTFixtures.client(server).preauthorize(
            serviceProvider: "SPX", mvpd: "CableCo", resources: ["r1", "r2"], context: RESTFixtures.context())

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://pass.example.test/api/v2/SPX/decisions/preauthorize/CableCo")
        #expect(request.header("Content-Type") == "application/json")
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(decisions.map(\.authorized) == [true, false])
        try #require(decisions.count == 2)
        #expect(decisions[1].error?.code == "preauthorization_denied_by_mvpd")
        #expect(decisions[1].source == .degradation)
    }

    @Test func logoutSendsRedirectQueryAndDecodesActionsByMVPD() async throws {
        let server = FakeAdobePass()
        server.answer(
            json: """
                {"logouts":{
                  "CableCo":{"actionName":"logout","actionType":"interactive","mvpd":"CableCo",
                             "url":"https://pass.example.test/adobe-services/logout?mso_id=CableCo&redirect_url=x"},
                  "Apple-Co":{"actionName":"partner_logout","actionType":"partner_interactive","mvpd":"Apple-Co"},
                  "DishLike":{"actionName":"complete","actionType":"none","mvpd":"DishLike"}}}
                """)
        let status = PartnerFrameworkStatus(accessStatus: "granted", providerID: "cable-co")

        let actions = try await RESTFixtures.client(server).logout(
            serviceProvider: "SPX", mvpd: "CableCo", redirectURL: "adobepass://ios.app/logout?done=1",
            context: RESTFixtures.context(visitorID: "ecid-5", partnerStatus: status))

        let request = try #require(server.apiRequests.first)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString
                == "https://pass.example.test/api/v2/SPX/logout/CableCo?redirectUrl=adobepass%3A%2F%2Fios.app%2Flogout%3Fdone%3D1"
        )
        #expect(request.body == nil)
        expectCommonHeaders(request, deviceHeaders: true)
        #expect(request.header("AP-Partner-Framework-Status") == nil)
        #expect(request.header("AP-Visitor-Identifier") == "ecid-5")
        #expect(actions.map(\.mvpd) == ["Apple-Co", "CableCo", "DishLike"])
        try #require(actions.count == 3)
        #expect(
            actions[0] == LogoutAction(mvpd: "Apple-Co", actionName: .partnerLogout, actionType: .partnerInteractive))
        #expect(actions[1].url == "https://pass.example.test/adobe-services/logout?mso_id=CableCo&redirect_url=x")
        #expect(actions[2].actionName == .complete && actions[2].url == nil)
    }

    @Test func pathParametersArePercentEncoded() async throws {
        let server = FakeAdobePass()
        server.answer(json: #"{"profiles":{}}"#)
        _ = try await RESTFixtures.client(server).profile(
            serviceProvider: "SP X", mvpd: "a/b?c", context: RESTFixtures.context())
        #expect(
            server.apiRequests.first?.url.absoluteString == "https://pass.example.test/api/v2/SP%20X/profiles/a%2Fb%3Fc"
        )
    }

    @Test func dcrRequestsFollowTheDocumentedShape() async throws {
        let server = FakeAdobePass()
        server.answer(json: #"{"profiles":{}}"#)
        _ = try await RESTFixtures.client(server).profiles(serviceProvider: "SPX", context: RESTFixtures.context())

        let requests = server.requests
        try #require(requests.count == 3)
        let register = requests[0]
        #expect(register.method == "POST")
        #expect(register.url.absoluteString == "https://pass.example.test/o/client/register")
        #expect(register.header("Content-Type") == "application/json")
        #expect(register.header("Accept") == "application/json")
        #expect(register.header("User-Agent") == "ClientDefaultAgent/1.0")
        #expect(register.header("Authorization") == nil)
        #expect(register.header("X-Device-Info").flatMap(DeviceInfo.init(headerValue:)) == RESTFixtures.deviceInfo)
        let registerBody = try #require(
            try JSONSerialization.jsonObject(with: register.body ?? Data()) as? [String: Any])
        #expect(registerBody["software_statement"] as? String == "software.statement.jwt")

        let token = requests[1]
        #expect(token.method == "POST")
        #expect(token.url.absoluteString == "https://pass.example.test/o/client/token")
        #expect(token.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(
            token.formFields == [
                "client_id": "client-1", "client_secret": "secret-1", "grant_type": "client_credentials",
            ])
        #expect(token.header("X-Device-Info") != nil)
        #expect(token.header("Authorization") == nil)
    }
}
