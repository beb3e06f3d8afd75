import Foundation
import Testing

@testable import PassSandbox

/// The pages a browser sees on the application's own device: the login page's test users,
/// refusals of unusable sign-in links, and the pages that stand in for a redirect to a
/// custom-scheme URL a browser cannot open.
@Suite("Sandbox pages")
struct SandboxPagesTests {
    private func html(_ response: SandboxResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    private func page(
        _ sandbox: PassSandbox, _ target: String, method: String = "GET", form: String? = nil, browser: Bool = true
    ) async -> SandboxResponse {
        var headers: [(name: String, value: String)] = []
        if browser { headers.append(("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")) }
        if form != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        return await sandbox.respond(
            to: SandboxRequest(method: method, target: target, headers: headers, body: Array((form ?? "").utf8)))
    }

    // MARK: Login page

    @Test func theLoginPageNamesTheTestUsersOfItsMVPD() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        let login = html(await page(client.sandbox, "/mvpd/NotBoarded/login?code=\(code)"))
        #expect(SandboxPageKind(html: login) == .login)
        #expect(login.contains("<h1>Sign in to Not Boarded Cable</h1>"))
        #expect(login.contains("<tr><td>alice</td><td>alice123</td></tr>"))
        #expect(login.contains("<tr><td>bob</td><td>bob123</td></tr>"))
        #expect(login.contains("to watch on Reference Requestor 30"))
    }

    @Test func testUsersAreEscapedAndAnMVPDWithoutUsersSaysSo() async throws {
        let world = SandboxWorld(
            softwareStatements: ["STATEMENT": ["REF30"]],
            serviceProviders: [
                SandboxServiceProvider(
                    id: "REF30",
                    mvpds: [
                        SandboxMVPDConfig(
                            id: "Odd", displayName: "Odd <Cable>",
                            users: [SandboxUser(username: "<b>eve</b>", password: "p&ss")]),
                        SandboxMVPDConfig(id: "Empty", displayName: "Empty Cable"),
                    ])
            ])
        let client = try await SandboxTestClient(sandbox: PassSandbox(world: world))
        let odd = try #require(try SandboxTestClient.object(await client.createSession(mvpd: "Odd")).string("code"))
        let oddPage = html(await page(client.sandbox, "/mvpd/Odd/login?code=\(odd)"))
        #expect(oddPage.contains("<tr><td>&lt;b&gt;eve&lt;/b&gt;</td><td>p&amp;ss</td></tr>"))
        #expect(oddPage.contains("Sign in to Odd &lt;Cable&gt;"))
        #expect(!oddPage.contains("<b>eve"))

        let empty = try #require(try SandboxTestClient.object(await client.createSession(mvpd: "Empty")).string("code"))
        #expect(
            html(await page(client.sandbox, "/mvpd/Empty/login?code=\(empty)")).contains(
                "This TV provider has no test users in this sandbox's world."))
    }

    // MARK: Refusals

    @Test func aUsedAuthenticateLinkIsRefusedWithAPage() async throws {
        let client = try await SandboxTestClient()
        let code = try await client.login(mvpd: "NotBoarded")
        for response in [
            await page(client.sandbox, "/api/v2/authenticate/REF30/\(code)"),
            await page(client.sandbox, "/mvpd/NotBoarded/login?code=\(code)"),
            await page(
                client.sandbox, "/mvpd/NotBoarded/login", method: "POST",
                form: "code=\(code)&username=bob&password=bob123"),
        ] {
            #expect(response.status == 400)
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(SandboxPageKind(html: html(response)) == .refused)
            #expect(html(response).contains("<h1>This sign-in link was already used</h1>"))
            #expect(
                SimulatedUserAgent.errorMessage(in: html(response)) == "The code \(code) was already used to sign in.")
        }
        // The refused second login did not replace alice's profile with bob's.
        let profile = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object(
            "profiles"
        ).object("NotBoarded")
        #expect(profile.object("attributes").object("userID").string("value") == "u-alice")
    }

    @Test func unknownAndExpiredLinksAreRefusedWithAPageSayingWhich() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))

        let unknown = await page(client.sandbox, "/api/v2/authenticate/REF30/NOCODE0")
        #expect(unknown.status == 400)
        #expect(html(unknown).contains("<h1>This sign-in link does not work</h1>"))
        #expect(SimulatedUserAgent.errorMessage(in: html(unknown)) == "No sign-in is waiting for the code NOCODE0.")
        let otherRequestor = await page(client.sandbox, "/api/v2/authenticate/REF31/\(code)")
        #expect(SandboxPageKind(html: html(otherRequestor)) == .refused)
        let noCode = await page(client.sandbox, "/mvpd/NotBoarded/login")
        #expect(SimulatedUserAgent.errorMessage(in: html(noCode)) == "The link carries no sign-in code.")
        let wrongMVPD = await page(client.sandbox, "/mvpd/SVCProvider/login?code=\(code)")
        #expect(SandboxPageKind(html: html(wrongMVPD)) == .refused)

        client.sandbox.clock.advance(by: SandboxEngine.authenticationSessionTTL)
        let expired = await page(client.sandbox, "/api/v2/authenticate/REF30/\(code)")
        #expect(expired.status == 400)
        #expect(html(expired).contains("<h1>This sign-in link has expired</h1>"))
        #expect(html(expired).contains("Start the sign-in again from the application to get a new code."))
    }

    @Test func anIncompleteSessionIsRefusedUntilTheApplicationResumesIt() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.postForm("/api/v2/REF30/sessions", "mvpd=NotBoarded")).string(
                "code"))
        let response = await page(client.sandbox, "/api/v2/authenticate/REF30/\(code)")
        #expect(response.status == 400)
        #expect(html(response).contains("<h1>This sign-in is not ready yet</h1>"))
    }

    // MARK: Custom-scheme redirect URLs

    @Test func aBrowserIsRedirectedToACustomSchemeRedirectURLAndTheFormSaidSoBeforehand() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(
                await client.createSession(mvpd: "NotBoarded", redirectUrl: "adobepass://ios.app/done?x=1&y=2")
            ).string("code"))
        let form = html(await page(client.sandbox, "/mvpd/NotBoarded/login?code=\(code)"))
        #expect(form.contains(#"<section class="note" id="after-sign-in">"#))
        #expect(
            form.contains(
                "Signing in sends this browser back to the application at <code>adobepass://ios.app/done?x=1&amp;y=2</code>"
            ))

        let response = await page(
            client.sandbox, "/mvpd/NotBoarded/login", method: "POST",
            form: "code=\(code)&username=alice&password=alice123")
        #expect(response.status == 302, "a web view watching its navigations catches the redirect with no tap")
        #expect(response.header("Location") == "adobepass://ios.app/done?x=1&y=2")
        let text = html(response)
        #expect(
            SandboxPageKind(html: text) == .backToApplication,
            "the body says where the browser is sent, for a client that shows it")
        #expect(text.contains("You're signed in to Not Boarded Cable"))
        #expect(text.contains(#"<a class="button" id="redirect-url" href="adobepass://ios.app/done?x=1&amp;y=2">"#))
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object("profiles")
                .count == 1)
    }

    @Test func aWebRedirectURLIsNotAnnouncedOnTheForm() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(
                await client.createSession(mvpd: "NotBoarded", redirectUrl: "https://app.example/done")
            ).string("code"))
        let form = html(await page(client.sandbox, "/mvpd/NotBoarded/login?code=\(code)"))
        #expect(SandboxPageKind(html: form) == .login)
        #expect(!form.contains("after-sign-in"), "a browser follows an https redirect itself")
    }

    @Test func programsAndWebRedirectURLsStillGetTheRedirect() async throws {
        let client = try await SandboxTestClient()
        let custom = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        let program = await page(
            client.sandbox, "/mvpd/NotBoarded/login", method: "POST",
            form: "code=\(custom)&username=alice&password=alice123", browser: false)
        #expect(program.status == 302)
        #expect(program.header("Location") == "adobepass://ios.app")

        let web = try #require(
            try SandboxTestClient.object(
                await client.createSession(mvpd: "SVCProvider", redirectUrl: "https://app.example/done")
            ).string("code"))
        let browser = await page(
            client.sandbox, "/mvpd/SVCProvider/login", method: "POST",
            form: "code=\(web)&username=alice&password=alice123")
        #expect(browser.status == 302, "a browser follows an https redirect itself")
        #expect(browser.header("Location") == "https://app.example/done")
    }

    @Test func theMVPDLogoutPageRedirectsEveryClientToTheRedirectURL() async throws {
        let sandbox = PassSandbox()
        let target =
            "/adobe-services/logout?noflash=true&mso_id=NotBoarded&requestor_id=REF30&redirect_url=adobepass%3A%2F%2Fios.app%2Flogout"
        let shown = await page(sandbox, target)
        #expect(shown.status == 302, "a hidden web view completes the logout with no tap")
        #expect(shown.header("Location") == "adobepass://ios.app/logout")
        #expect(SandboxPageKind(html: html(shown)) == .signedOut)
        #expect(html(shown).contains("You're signed out of Not Boarded Cable"))

        let program = await page(sandbox, target, browser: false)
        #expect(program.status == 302)
        #expect(program.header("Location") == "adobepass://ios.app/logout")

        let web = await page(
            sandbox, "/adobe-services/logout?mso_id=NotBoarded&redirect_url=https%3A%2F%2Fapp.example%2Fbye")
        #expect(web.status == 302)
        #expect(web.header("Location") == "https://app.example/bye")

        let unknownMVPD = await page(sandbox, "/adobe-services/logout?mso_id=Nobody&redirect_url=adobepass%3A%2F%2Fx")
        #expect(html(unknownMVPD).contains("You're signed out of Nobody"))

        let missing = await page(sandbox, "/adobe-services/logout?mso_id=NotBoarded")
        #expect(missing.status == 400)
        #expect(SandboxPageKind(html: html(missing)) == .error)
        #expect(SimulatedUserAgent.errorMessage(in: html(missing)) == "The logout request has no redirect URL.")
    }

    // MARK: One look

    @Test func everyPageSharesTheStylesheetAndFitsAPhone() async throws {
        let client = try await SandboxTestClient()
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        let pages = [
            await page(client.sandbox, "/activate"),
            await page(client.sandbox, "/mvpd/NotBoarded/login?code=\(code)"),
            await page(client.sandbox, "/api/v2/authenticate/REF30/NOCODE0"),
            await page(client.sandbox, "/adobe-services/logout?redirect_url=adobepass%3A%2F%2Fx"),
            await page(
                client.sandbox, "/mvpd/NotBoarded/login", method: "POST",
                form: "code=\(code)&username=alice&password=alice123"),
            SandboxEngine.errorPage("Broken.", status: 500),
        ]
        for response in pages {
            let text = html(response)
            #expect(text.hasPrefix("<!DOCTYPE html>"))
            #expect(text.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
            #expect(text.contains(PageStyle.stylesheet))
            #expect(SandboxPageKind(html: text) != nil)
            #expect(!text.contains("<script"))
        }
        #expect(PageStyle.stylesheet.utf8.count < 4_096, "one small stylesheet")
    }
}
