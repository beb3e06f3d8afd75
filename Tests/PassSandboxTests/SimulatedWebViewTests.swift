import Foundation
import Testing

@testable import PassSandbox

/// The simulated user agent as an app's web view that watches its navigations: it follows
/// every redirect and stops at an address it cannot load (a custom scheme), so a login and a
/// hidden logout complete with no tap — over HTTP and in-process.
@Suite("Simulated web view: login and hidden logout with no tap")
struct SimulatedWebViewTests {
    @Test(arguments: AgentWire.allCases)
    func aLoginAndAHiddenLogoutEndAtTheCustomSchemeWithNoTap(_ wire: AgentWire) async throws {
        let sandbox = PassSandbox()
        let rig = wire == .loopbackHTTP ? try LoopbackRig(sandbox: sandbox) : nil
        defer { rig?.shutdown() }
        let agent = rig.map { SimulatedUserAgent(httpBase: $0.baseURL) } ?? SimulatedUserAgent(sandbox: sandbox)
        let client = try await SandboxTestClient(sandbox: sandbox)
        let session = try SandboxTestClient.object(
            await client.createSession(mvpd: "NotBoarded", redirectUrl: "adobepass://ios.app/done"))
        let code = try #require(session.string("code"))

        // No redirect prefix matches: the web view stops at the custom scheme all the same.
        let landing = try await agent.login(
            startingAt: try #require(session.string("url")), username: "alice", password: "alice123",
            redirectPrefix: "https://never.example/")
        #expect(landing == "adobepass://ios.app/done")
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object("profiles")
                .count == 1)

        let logout = try SandboxTestClient.object(
            await client.get("/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Fios.app%2Flogout"))
        let page = try #require(logout.object("logouts").object("NotBoarded").string("url"))
        #expect(try await agent.follow(page, redirectPrefix: "https://never.example/") == "adobepass://ios.app/logout")
    }

    @Test func onlyAddressesAWebViewCannotLoadAreHandedToTheApp() {
        for address in ["adobepass://ios.app", "com.example.app:/callback", "x-app://a?b=c", "ADOBEPASS://ios.app"] {
            #expect(SimulatedUserAgent.isApplicationAddress(address), "\(address)")
        }
        for address in [
            "http://127.0.0.1/x", "HTTPS://app.example/done", "/mvpd/NotBoarded/login?code=A", "login?code=a:b",
            "1abc:/x", "",
        ] {
            #expect(!SimulatedUserAgent.isApplicationAddress(address), "\(address)")
        }
    }
}
