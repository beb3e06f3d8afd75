import Foundation
import Testing

@testable import PassSandbox

/// The second screen and the other pages over loopback HTTP, as a browser without
/// scripts meets them: a TV that talks REST, and plain page loads and form posts.
@Suite("Second screen and pages over loopback HTTP")
struct SandboxSecondScreenHTTPTests {
    @Test func theWholeSecondScreenOverHTTP() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let tv = try await rig.registerTV()
        let code = try await tv.code(mvpd: nil)

        let form = try await rig.getPage("/activate")
        #expect(form.status == 200)
        #expect(form.contentType?.hasPrefix("text/html") == true)
        #expect(SandboxPageKind(html: form.text) == .activate)

        let choice = try await rig.postPage("/activate", [("code", " \(code.lowercased()) ")])
        #expect(choice.status == 200)
        #expect(SandboxPageKind(html: choice.text) == .providerChoice)

        let chosen = try await rig.postPage("/activate", [("code", code), ("mvpd", "NotBoarded")])
        #expect(chosen.status == 302)
        #expect(chosen.location == rig.baseURL.absoluteString + "/api/v2/authenticate/REF30/\(code)")
        let authenticate = try await rig.getPage(try #require(chosen.location))
        #expect(authenticate.status == 302)
        #expect(authenticate.location == rig.baseURL.absoluteString + "/mvpd/NotBoarded/login?code=\(code)")
        let login = try await rig.getPage(try #require(authenticate.location))
        #expect(SandboxPageKind(html: login.text) == .login)
        #expect(login.text.contains("<tr><td>alice</td><td>alice123</td></tr>"))

        let wrong = try await rig.postPage(
            "/mvpd/NotBoarded/login", [("code", code), ("username", "alice"), ("password", "x")])
        #expect(wrong.status == 200)
        #expect(SimulatedUserAgent.errorMessage(in: wrong.text) == "The username or password is incorrect.")
        #expect(try await tv.profiles(forCode: code).isEmpty)

        let done = try await rig.postPage(
            "/mvpd/NotBoarded/login", [("code", code), ("username", "alice"), ("password", "alice123")])
        #expect(done.status == 200)
        #expect(done.location == nil)
        #expect(SandboxPageKind(html: done.text) == .signedIn)
        #expect(try await tv.profiles(forCode: code).object("NotBoarded").string("type") == "regular")

        let reused = try await rig.getPage("/api/v2/authenticate/REF30/\(code)")
        #expect(reused.status == 400)
        #expect(SandboxPageKind(html: reused.text) == .refused)
        let again = try await rig.postPage("/activate", [("code", code)])
        #expect(SimulatedUserAgent.errorMessage(in: again.text)?.hasPrefix("The code \(code) was already used") == true)
    }

    @Test func unknownAndExpiredCodesOverHTTP() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let unknown = try await rig.postPage("/activate", [("code", "abc")])
        #expect(unknown.status == 200)
        #expect(
            SimulatedUserAgent.errorMessage(in: unknown.text)
                == "No sign-in is waiting for the code ABC. Check the code on your TV and type it again.")
        #expect(unknown.text.contains(#"value="abc""#))

        let tv = try await rig.registerTV()
        let code = try await tv.code(mvpd: "NotBoarded")
        rig.sandbox.clock.advance(by: SandboxEngine.authenticationSessionTTL + 1)
        let expired = try await rig.postPage("/activate", [("code", code)])
        #expect(SimulatedUserAgent.errorMessage(in: expired.text)?.hasPrefix("The code \(code) has expired") == true)
        let link = try await rig.getPage("/api/v2/authenticate/REF30/\(code)")
        #expect(link.status == 400)
        #expect(link.text.contains("This sign-in link has expired"))
    }

    @Test func theCustomSchemeRedirectsOfTheLoginAndLogoutPagesOverHTTP() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let tv = try await rig.registerTV()
        let session = try await tv.createSession(mvpd: "NotBoarded")
        let code = try #require(session["code"] as? String)

        let page = try await rig.postPage(
            "/mvpd/NotBoarded/login", [("code", code), ("username", "bob"), ("password", "bob123")])
        #expect(page.status == 302)
        #expect(page.location == "adobepass://tv.app")

        let logoutURL = try await tv.logoutURL(mvpd: "NotBoarded")
        #expect(logoutURL.hasPrefix(rig.baseURL.absoluteString + "/adobe-services/logout?"))
        let signedOut = try await rig.getPage(logoutURL)
        #expect(signedOut.status == 302)
        #expect(signedOut.location == "adobepass://tv.app/logout")
        let forAProgram = try await rig.send("GET", logoutURL)
        #expect(forAProgram.status == 302)
        #expect(forAProgram.location == "adobepass://tv.app/logout")
    }
}
