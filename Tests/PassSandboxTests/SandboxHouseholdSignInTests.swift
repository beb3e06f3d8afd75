import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

/// The sandbox as the TV provider's identity service of a device-level sign-in (what
/// `accessenabler provider-service` talks to): the code, the page a person signs in on, the
/// household credential, and the SAML responses Adobe Pass's partner endpoints accept.
@Suite("The TV provider's identity service (household sign-in)")
struct SandboxHouseholdSignInTests {
    private let form = "domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Fios.app"

    private func post(_ sandbox: PassSandbox, _ path: String, _ form: String, bearer: String? = nil) async
        -> SandboxResponse
    {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/x-www-form-urlencoded")]
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        return await sandbox.respond(
            to: SandboxRequest(method: "POST", path: path, headers: headers, body: Array(form.utf8)))
    }

    /// A code for `supported` (comma-separated mapping ids): the answer's fields.
    private func code(_ sandbox: PassSandbox, supported: String? = nil, featured: String? = nil) async throws
        -> [String: Any]
    {
        var fields: [String] = []
        if let supported { fields.append("supported=" + SandboxEngine.formEncode(supported)) }
        if let featured { fields.append("featured=" + SandboxEngine.formEncode(featured)) }
        let answer = await post(sandbox, "/tv-provider/device/code", fields.joined(separator: "&"))
        #expect(answer.status == 200)
        return try SandboxTestClient.object(answer)
    }

    private func poll(_ sandbox: PassSandbox, _ deviceCode: String) async throws -> (Int, [String: Any]) {
        let answer = await post(
            sandbox, "/tv-provider/device/token", "device_code=" + SandboxEngine.formEncode(deviceCode))
        return (answer.status, try SandboxTestClient.object(answer))
    }

    /// A household signed in as `user` to AppleBoarded: its credential.
    private func credential(_ sandbox: PassSandbox, user: String = "alice", password: String = "alice123") async throws
        -> String
    {
        let issued = try await code(sandbox)
        try await SimulatedUserAgent(sandbox: sandbox).signInHousehold(
            code: try #require(issued.string("user_code")),
            choice: .provider("AppleBoarded", username: user, password: password))
        let (status, token) = try await poll(sandbox, try #require(issued.string("device_code")))
        #expect(status == 200)
        return try #require(token.string("access_token"))
    }

    @Test func aDeviceGetsACodeAndPollsUntilThePersonSignedIn() async throws {
        let sandbox = PassSandbox()
        let issued = try await code(sandbox)
        let userCode = try #require(issued.string("user_code"))
        #expect(userCode.count == 9 && userCode.contains("-"))
        #expect(issued.string("verification_uri") == sandbox.baseURLForLinks.absoluteString + "/tv-provider")
        #expect(
            issued.string("verification_uri_complete")?.hasSuffix(
                "?code=" + userCode.replacingOccurrences(of: "-", with: "")) == true)
        #expect(issued.int("expires_in") == 600 && issued.int("interval") == 2)
        let deviceCode = try #require(issued.string("device_code"))
        let (pendingStatus, pending) = try await poll(sandbox, deviceCode)
        #expect(pendingStatus == 400 && pending.string("error") == "authorization_pending")

        let outcome = try await SimulatedUserAgent(sandbox: sandbox).signInHousehold(
            code: userCode.lowercased(), choice: .provider("AppleBoarded", username: "alice", password: "alice123"))
        #expect(outcome == .signedIn(provider: "AppleBoarded"))
        let (status, token) = try await poll(sandbox, deviceCode)
        #expect(status == 200)
        #expect(token.string("provider") == "AppleBoarded" && token.string("provider_name") == "Apple Boarded TV")
        #expect(
            token["boarded"] as? Bool == true && token.string("token_type") == "Bearer"
                && token.int("expires_in") == 86_400)
        #expect(try await poll(sandbox, deviceCode).1.string("error") == "invalid_grant", "answered once")
    }

    @Test func thePageOffersTheDevicesProvidersFeaturedFirstThenOtherAndCancel() async throws {
        let sandbox = PassSandbox()
        let issued = try await code(sandbox, supported: "AppleBoarded,PickerOnly,SSODisabled", featured: "SSODisabled")
        let userCode = try #require(issued.string("user_code"))
        let page = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/tv-provider", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("code=\(userCode)".utf8)))
        let html = String(decoding: page.body, as: UTF8.self)
        let form = try #require(HTMLForm.forms(in: html).first { $0.id == "tv-provider-choice" })
        #expect(form.buttons.map(\.value) == ["SSODisabled", "AppleBoarded", "PickerOnly", "other", "cancel"])
        let all = try await code(sandbox)
        let everyPage = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/tv-provider", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("code=\(try #require(all.string("user_code")))".utf8)))
        let every = try #require(
            HTMLForm.forms(in: String(decoding: everyPage.body, as: UTF8.self)).first { $0.id == "tv-provider-choice" })
        #expect(
            every.buttons.map(\.value) == ["AppleBoarded", "PickerOnly", "SSODisabled", "Degraded", "other", "cancel"],
            "every provider of the platform")
    }

    @Test func thePersonsOtherAnswersReachTheDevice() async throws {
        let sandbox = PassSandbox()
        let cases: [(HouseholdPageChoice, String?, String?)] = [
            (.cancel, "access_denied", nil), (.other, "other_provider_selected", nil),
            (.provider("PickerOnly", username: "", password: ""), nil, "PickerOnly"),
        ]
        for (choice, error, chosen) in cases {
            let issued = try await code(sandbox)
            let outcome = try await SimulatedUserAgent(sandbox: sandbox).signInHousehold(
                code: try #require(issued.string("user_code")), choice: choice)
            guard case .ended = outcome else { Issue.record("\(choice): \(outcome)"); continue }
            let (status, answer) = try await poll(sandbox, try #require(issued.string("device_code")))
            if let error {
                #expect(status == 400 && answer.string("error") == error, "\(choice)")
            } else {
                #expect(
                    status == 200 && answer.string("provider") == chosen && answer["boarded"] as? Bool == false,
                    "\(choice)")
                #expect(answer["access_token"] == nil, "a provider only chosen gets no credential")
            }
        }
    }

    @Test func wrongCredentialsAnUnknownAndAnExpiredCodeAreRefusedOnThePage() async throws {
        let sandbox = PassSandbox()
        let issued = try await code(sandbox)
        let userCode = try #require(issued.string("user_code"))
        let agent = SimulatedUserAgent(sandbox: sandbox)
        await #expect(throws: SimulatedUserAgentError.loginRejected("Wrong username or password. Try again.")) {
            try await agent.signInHousehold(
                code: userCode, choice: .provider("AppleBoarded", username: "alice", password: "nope"))
        }
        await #expect(throws: SimulatedUserAgentError.self) {
            try await agent.signInHousehold(code: "ZZZZ-ZZZZ", choice: .cancel)
        }
        sandbox.clock.advance(by: 601)
        do {
            try await agent.signInHousehold(code: userCode, choice: .cancel)
            Issue.record("an expired code was taken")
        } catch {
            #expect("\(error)".contains("expired"))
        }
        #expect(
            try await poll(sandbox, try #require(issued.string("device_code"))).1.string("error") == "expired_token")
    }

    @Test func theHouseholdsSAMLResponseIsOneAdobePassAcceptsOnceAndNoEditOfIt() async throws {
        let client = try await SandboxTestClient()
        let sandbox = client.sandbox
        let credential = try await credential(sandbox, user: "bob", password: "bob123")
        let pfs = SandboxTestClient.partnerStatus(expiresAt: sandbox.clock.now.addingTimeInterval(600))
        let session = try SandboxTestClient.object(
            await client.postForm("/api/v2/REF30/sessions/sso/Apple", form, partnerStatus: pfs))
        let request = try #require(session.object("authenticationRequest").string("request"))
        let answer = await post(
            sandbox, "/tv-provider/saml", "SAMLRequest=" + SandboxEngine.formEncode(request), bearer: credential)
        #expect(answer.status == 200)
        let saml = try #require(try SandboxTestClient.object(answer).string("saml_response"))

        let xml = String(decoding: try #require(Data(base64Encoded: saml)), as: UTF8.self)
        let forged = Data(
            xml.replacingOccurrences(of: "<saml:AttributeValue>bob<", with: "<saml:AttributeValue>alice<").utf8
        ).base64EncodedString()
        let refused = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple", "SAMLResponse=" + SandboxEngine.formEncode(forged), partnerStatus: pfs)
        #expect(refused.status == 400)
        let accepted = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple", "SAMLResponse=" + SandboxEngine.formEncode(saml), partnerStatus: pfs)
        #expect(accepted.status == 201)
    }

    @Test func anExpiredSAMLResponseIsRefused() async throws {
        let client = try await SandboxTestClient()
        let sandbox = client.sandbox
        let credential = try await credential(sandbox)
        let pfs = { SandboxTestClient.partnerStatus(expiresAt: sandbox.clock.now.addingTimeInterval(600)) }
        let session = try SandboxTestClient.object(
            await client.postForm("/api/v2/REF30/sessions/sso/Apple", form, partnerStatus: pfs()))
        let request = try #require(session.object("authenticationRequest").string("request"))
        let saml = try #require(
            try SandboxTestClient.object(
                await post(
                    sandbox, "/tv-provider/saml", "SAMLRequest=" + SandboxEngine.formEncode(request), bearer: credential
                )
            )
            .string("saml_response"))
        sandbox.clock.advance(by: SandboxEngine.samlRequestTTL + 1)
        let refused = await client.postForm(
            "/api/v2/REF30/profiles/sso/Apple", "SAMLResponse=" + SandboxEngine.formEncode(saml), partnerStatus: pfs())
        #expect(refused.status == 400)
    }

    @Test func aRevokedUnknownOrExpiredCredentialAndAnUnknownSAMLRequestAreRefused() async throws {
        let sandbox = PassSandbox()
        let credential = try await credential(sandbox)
        let unknownRequest = await post(
            sandbox, "/tv-provider/saml",
            "SAMLRequest=" + SandboxEngine.formEncode(Data("<x ID=\"_1\"/>".utf8).base64EncodedString()),
            bearer: credential)
        #expect(unknownRequest.status == 400)
        #expect(try SandboxTestClient.object(unknownRequest).string("error") == "invalid_request")
        let forgedCredential = await post(sandbox, "/tv-provider/saml", "SAMLRequest=x", bearer: "forged")
        #expect(
            forgedCredential.status == 401
                && forgedCredential.header("WWW-Authenticate")?.contains("invalid_token") == true)
        #expect(await post(sandbox, "/tv-provider/revoke", "token=" + credential).status == 200)
        #expect(await post(sandbox, "/tv-provider/saml", "SAMLRequest=x", bearer: credential).status == 401)
        let later = try await self.credential(sandbox)
        sandbox.clock.advance(by: 86_401)
        #expect(await post(sandbox, "/tv-provider/saml", "SAMLRequest=x", bearer: later).status == 401)
    }
}
