import Foundation
import Testing

@testable import PassSandbox

/// `/activate` answered in-process: the form, the code checks, the TV provider choice and
/// the login that ends on the "go back to your TV" page.
@Suite("Second screen: /activate")
struct SandboxActivationTests {
    // MARK: Helpers

    /// A browser's form POST to `/activate`.
    private func activate(_ sandbox: PassSandbox, _ fields: [(String, String)]) async -> SandboxResponse {
        let body = fields.map { "\(SandboxEngine.formEncode($0.0))=\(SandboxEngine.formEncode($0.1))" }.joined(
            separator: "&")
        return await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/activate",
                headers: [("Accept", "text/html"), ("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(body.utf8)))
    }

    private func html(_ response: SandboxResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// The error paragraph of a page.
    private func errorText(_ response: SandboxResponse) -> String? {
        SimulatedUserAgent.errorMessage(in: html(response))
    }

    /// A session without an MVPD (and without the other parameters), as a TV that leaves
    /// the choice to the second screen opens it.
    private func sessionWithoutProvider(_ client: SandboxTestClient) async throws -> String {
        let answer = try SandboxTestClient.object(await client.postForm("/api/v2/REF30/sessions", ""))
        #expect(answer.string("actionName") == "resume")
        return try #require(answer.string("code"))
    }

    /// Follows the activation's redirect to the login page and logs in; returns the final page.
    private func logIn(
        _ sandbox: PassSandbox, after response: SandboxResponse, username: String = "alice",
        password: String = "alice123"
    ) async throws -> SandboxResponse {
        #expect(response.status == 302)
        let authenticate = try #require(response.header("Location").flatMap(URL.init(string:)))
        let toLogin = await sandbox.respond(
            to: SandboxRequest(method: "GET", path: authenticate.path, headers: [("Accept", "text/html")]))
        #expect(toLogin.status == 302)
        let login = try #require(toLogin.header("Location").flatMap { URLComponents(string: $0) })
        let code = try #require(login.queryItems?.first { $0.name == "code" }?.value)
        return await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: login.path,
                headers: [("Accept", "text/html"), ("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("code=\(code)&username=\(username)&password=\(password)".utf8)))
    }

    // MARK: The page

    @Test func theFormIsAPlainPageForAPhone() async throws {
        let sandbox = PassSandbox()
        let page = await sandbox.respond(to: SandboxRequest(method: "GET", path: "/activate"))
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        let text = html(page)
        #expect(text.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
        #expect(text.contains(#"<form method="post" action="/activate" id="activate-form">"#))
        #expect(text.contains(#"name="code" id="code" value="""#))
        #expect(!text.contains("<script"))
        #expect(SandboxPageKind(html: text) == .activate)

        let prefilled = html(await sandbox.respond(to: SandboxRequest(method: "GET", target: "/activate?code=AB%3C12")))
        #expect(prefilled.contains(#"value="AB&lt;12""#))
    }

    @Test func theActivationURLIsAbsoluteOnTheLinkBase() {
        let sandbox = PassSandbox()
        #expect(sandbox.activationURL.absoluteString == "http://sandbox.localhost/activate")
        sandbox.baseURLForLinks = URL(string: "http://127.0.0.1:8123/")!
        #expect(sandbox.activationURL.absoluteString == "http://127.0.0.1:8123/activate")
        #expect(SandboxRoute(method: "POST", path: "/activate/") == .activate)
        #expect(SandboxRoute(method: "GET", path: "/activate").map(\.endpoint) == .activate)
    }

    @Test func otherMethodsAreRefused() async {
        let response = await PassSandbox().respond(to: SandboxRequest(method: "DELETE", path: "/activate"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST")
        #expect(response.header("Content-Type") == "text/html;charset=UTF-8", "a page answers a browser with a page")
    }

    // MARK: Codes

    @Test func aKnownCodeLeadsToTheLoginAndEndsOnTheGoBackToYourTVPage() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.baseURLForLinks = URL(string: "http://127.0.0.1:7001")!
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))

        let started = await activate(client.sandbox, [("code", code)])
        #expect(started.status == 302)
        #expect(started.header("Location") == "http://127.0.0.1:7001/api/v2/authenticate/REF30/\(code)")

        let done = try await logIn(client.sandbox, after: started)
        #expect(done.status == 200, "a phone cannot open the app's adobepass:// redirect URL")
        #expect(done.header("Location") == nil)
        #expect(SandboxPageKind(html: html(done)) == .signedIn)
        #expect(html(done).contains("Go back to your TV"))
        #expect(html(done).contains(#"data-mvpd="NotBoarded""#))

        let profiles = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object(
            "profiles")
        #expect(profiles.object("NotBoarded").string("type") == "regular")
        #expect(profiles.object("NotBoarded").object("attributes").object("userID").string("value") == "u-alice")
    }

    @Test(arguments: ["  {code}  ", "{lower}", "\t{lower}\n", "{split}", "{twins}"])
    func codesAreMatchedAsAPersonTypesThem(_ typed: String) async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        // Spaces and a dash inside; each letter with a digit twin typed as that digit.
        let split = "\(code.prefix(3).lowercased()) \(code.dropFirst(3).prefix(2))-\(code.dropFirst(5).lowercased())"
        let twins = String(code.map { ["B": "8", "S": "5", "Z": "2", "G": "6"][$0] ?? $0 })
        let entry = typed.replacingOccurrences(of: "{code}", with: code).replacingOccurrences(
            of: "{lower}", with: code.lowercased()
        )
        .replacingOccurrences(of: "{split}", with: split).replacingOccurrences(of: "{twins}", with: twins)
        let started = await activate(client.sandbox, [("code", entry)])
        #expect(started.status == 302)
        #expect(started.header("Location")?.hasSuffix("/api/v2/authenticate/REF30/\(code)") == true)
    }

    /// Codes have no characters that read alike: no `O`/`0`, `I`/`1`, and no digit of the pairs
    /// `B`/`8`, `S`/`5`, `Z`/`2`, `G`/`6`; a digit typed for its letter is read as the letter.
    @Test func codesHaveNoLookAlikeCharactersAndATypedTwinReadsAsItsLetter() async throws {
        let client = try await SandboxTestClient()
        var seen = Set<Character>()
        for index in 0..<300 {
            var device = client
            device.deviceID = "device-\(index)"
            let session = try SandboxTestClient.object(await device.createSession(mvpd: "NotBoarded"))
            let code = try #require(session.string("code"))
            #expect(code.count == 7)
            seen.formUnion(code)
        }
        #expect(seen.isSubset(of: Set("ABCDEFGHJKLMNPQRSTUVWXYZ3479")))
        #expect(seen.isDisjoint(with: Set("O0I1825 6")))
        #expect(SandboxRegistrationCode.normalized(" 8cd-5fg 26\n") == "BCDSFGZG")
        #expect(SandboxRegistrationCode.normalized("tdgx3km") == "TDGX3KM")
    }

    @Test func anUnknownCodeShowsTheFormAgainWithTheCodeKept() async throws {
        let sandbox = PassSandbox()
        let response = await activate(sandbox, [("code", " zz<9 ")])
        #expect(response.status == 200)
        #expect(SandboxPageKind(html: html(response)) == .activate)
        #expect(
            errorText(response)
                == "No sign-in is waiting for the code ZZ<9. Check the code on your TV and type it again.")
        #expect(html(response).contains(#"value=" zz&lt;9 ""#))

        let empty = await activate(sandbox, [("code", "   ")])
        #expect(errorText(empty) == "Type the code shown on your TV.")
        let missing = await activate(sandbox, [])
        #expect(errorText(missing) == "Type the code shown on your TV.")
        let flood = await activate(sandbox, [("code", String(repeating: "A", count: 5_000))])
        #expect(errorText(flood)?.count ?? .max < 200, "a pasted wall of text is not echoed back in the message")
    }

    @Test func anExpiredCodeShowsTheFormAgainSayingSo() async throws {
        let client = try await SandboxTestClient()
        let session = try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded"))
        let code = try #require(session.string("code"))
        let notAfter = try #require(session.string("notAfter").flatMap { Int64($0) })
        client.sandbox.clock.advance(by: TimeInterval(notAfter - client.sandbox.clock.now.epochMilliseconds) / 1_000)

        let response = await activate(client.sandbox, [("code", code)])
        #expect(response.status == 200)
        #expect(SandboxPageKind(html: html(response)) == .activate)
        #expect(
            errorText(response)
                == "The code \(code) has expired: a code lasts 30 minutes. Start the sign-in again from the application to get a new code."
        )
        #expect(html(response).contains(#"value="\#(code)""#))
    }

    @Test func aUsedCodeCannotSignInTwice() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        _ = try await logIn(client.sandbox, after: await activate(client.sandbox, [("code", code)]))

        let again = await activate(client.sandbox, [("code", code)])
        #expect(SandboxPageKind(html: html(again)) == .activate)
        #expect(errorText(again)?.hasPrefix("The code \(code) was already used to sign in.") == true)
    }

    @Test func aSessionWhoseProviderWasTurnedOffIsRefused() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        client.sandbox.updateMVPD("NotBoarded") { $0.integrationActive = false }
        let response = await activate(client.sandbox, [("code", code)])
        #expect(errorText(response)?.hasPrefix("Not Boarded Cable can no longer be used") == true)
    }

    // MARK: The TV provider choice

    @Test func aSessionWithoutProviderOffersTheActiveProvidersByName() async throws {
        let client = try await SandboxTestClient()
        let code = try await sessionWithoutProvider(client)
        let choice = await activate(client.sandbox, [("code", code.lowercased())])
        #expect(choice.status == 200)
        let text = html(choice)
        #expect(SandboxPageKind(html: text) == .providerChoice)
        let form = try #require(HTMLForm.forms(in: text).first { $0.id == "provider-choice" })
        #expect(form.hiddenFields.first { $0.0 == "code" }?.1 == code)
        #expect(
            form.buttons.map(\.label) == [
                "Apple Boarded TV", "Degraded TV", "Not Boarded Cable", "Picker Only TV", "Secure Browser Cable",
                "SSO Disabled TV", "Temp Pass 30 min",
            ])
        #expect(form.buttons.allSatisfy { $0.name == "mvpd" })
        #expect(!form.buttons.contains { $0.value == "Inactive" })
        #expect(text.contains("to watch on Reference Requestor 30"))
    }

    @Test func theChoiceResumesTheSessionAndFillsWhatTheTVLeftOut() async throws {
        let client = try await SandboxTestClient()
        let code = try await sessionWithoutProvider(client)
        let started = await activate(client.sandbox, [("code", code), ("mvpd", "NotBoarded")])
        #expect(started.status == 302)

        let info = try SandboxTestClient.object(await client.get("/api/v2/REF30/sessions/\(code)"))
        #expect(info["missingParameters"] == nil)
        let existing = info.object("existingParameters")
        #expect(existing.string("mvpd") == "NotBoarded")
        #expect(existing.string("domainName") == "adobe.com")
        #expect(existing.string("redirectUrl") == client.sandbox.activationURL.absoluteString)

        let done = try await logIn(client.sandbox, after: started, username: "bob", password: "bob123")
        #expect(SandboxPageKind(html: html(done)) == .signedIn)
        let profiles = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object(
            "profiles")
        #expect(Array(profiles.keys) == ["NotBoarded"])
        #expect(profiles.object("NotBoarded").object("attributes").object("userID").string("value") == "u-bob")
    }

    @Test(arguments: ["Inactive", "NoSuchMVPD", "AppleBoarded\"><script>"])
    func aProviderOutsideTheChoiceIsRefused(_ mvpd: String) async throws {
        let client = try await SandboxTestClient()
        let code = try await sessionWithoutProvider(client)
        let response = await activate(client.sandbox, [("code", code), ("mvpd", mvpd)])
        #expect(response.status == 200)
        #expect(SandboxPageKind(html: html(response)) == .providerChoice)
        #expect(
            errorText(response)?.hasSuffix("is not a TV provider of Reference Requestor 30. Choose one of the list.")
                == true)
        #expect(!html(response).contains("<script>"))
        let info = try SandboxTestClient.object(await client.get("/api/v2/REF30/sessions/\(code)"))
        #expect(info.object("existingParameters")["mvpd"] == nil, "a refused choice leaves the session as it was")
    }

    @Test func choosingAProviderTheTVIsSignedInWithNeedsNoLogin() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        let code = try await sessionWithoutProvider(client)
        let done = await activate(client.sandbox, [("code", code), ("mvpd", "NotBoarded")])
        #expect(done.status == 200)
        #expect(SandboxPageKind(html: html(done)) == .signedIn)
        #expect(html(done).contains("The TV was already signed in with Not Boarded Cable"))
        let profiles = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object(
            "profiles")
        #expect(profiles.object("NotBoarded").string("type") == "regular")
    }

    @Test func choosingTempPassOrADegradedProviderSignsTheTVInAtOnce() async throws {
        let client = try await SandboxTestClient()
        let first = try await sessionWithoutProvider(client)
        let temporary = await activate(client.sandbox, [("code", first), ("mvpd", "TempPass")])
        #expect(SandboxPageKind(html: html(temporary)) == .signedIn)
        #expect(html(temporary).contains("Temporary access has started; it lasts 30 minutes"))
        let byFirst = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(first)")).object(
            "profiles")
        #expect(byFirst.object("TempPass").string("type") == "temporary")

        let second = try await sessionWithoutProvider(client)
        let degraded = await activate(client.sandbox, [("code", second), ("mvpd", "Degraded")])
        #expect(SandboxPageKind(html: html(degraded)) == .signedIn)
        let bySecond = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(second)")).object(
            "profiles")
        #expect(bySecond.object("Degraded").string("type") == "degraded")
    }

    @Test func aProviderThatCannotSignTheTVInShowsTheChoiceAgain() async throws {
        let client = try await SandboxTestClient()
        // The device's temporary access window is used up.
        let used = try await sessionWithoutProvider(client)
        _ = await activate(client.sandbox, [("code", used), ("mvpd", "TempPass")])
        client.sandbox.clock.advance(by: 1_800)
        let code = try await sessionWithoutProvider(client)
        let response = await activate(client.sandbox, [("code", code), ("mvpd", "TempPass")])
        #expect(SandboxPageKind(html: html(response)) == .providerChoice)
        #expect(errorText(response)?.hasPrefix("Temp Pass 30 min cannot sign this TV in:") == true)
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object("profiles")
                .isEmpty)
    }

    // MARK: Login on the second screen

    @Test func aWrongPasswordShowsTheFormAgainAndSignsNothingIn() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        let wrong = try await logIn(
            client.sandbox, after: await activate(client.sandbox, [("code", code)]), password: "nope")
        #expect(wrong.status == 200)
        #expect(SandboxPageKind(html: html(wrong)) == .login)
        #expect(errorText(wrong) == "The username or password is incorrect.")
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object("profiles")
                .isEmpty)
    }

    @Test func anInjectedFaultAnswersAPage() async {
        let sandbox = PassSandbox()
        sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .activate)
        let response = await sandbox.respond(to: SandboxRequest(method: "GET", path: "/activate"))
        #expect(response.status == 503)
        #expect(SandboxPageKind(html: html(response)) == .error)
        #expect(sandbox.requestLog.last?.endpoint == .activate)
    }
}
