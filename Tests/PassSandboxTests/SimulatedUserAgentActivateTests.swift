import Foundation
import Testing

@testable import PassSandbox

/// How the simulated user agent reaches the sandbox.
enum AgentWire: String, CaseIterable, Sendable {
    case inProcess
    case loopbackHTTP
}

/// A sandbox (served over loopback when the wire says so), a TV client on it, and a
/// simulated user agent on the chosen wire.
private struct AgentRig {
    let client: SandboxTestClient
    let agent: SimulatedUserAgent
    let rig: LoopbackRig?

    init(_ wire: AgentWire) async throws {
        let sandbox = PassSandbox()
        switch wire {
        case .inProcess:
            rig = nil
            agent = SimulatedUserAgent(sandbox: sandbox)
        case .loopbackHTTP:
            let served = try LoopbackRig(sandbox: sandbox)
            rig = served
            agent = SimulatedUserAgent(httpBase: served.baseURL)
        }
        client = try await SandboxTestClient(sandbox: sandbox)
    }

    func shutdown() { rig?.shutdown() }

    func code(mvpd: String?) async throws -> String {
        let answer =
            if let mvpd { await client.createSession(mvpd: mvpd) } else {
                await client.postForm("/api/v2/REF30/sessions", "domainName=adobe.com")
            }
        return try #require(try SandboxTestClient.object(answer).string("code"))
    }

    func profiles(_ code: String) async throws -> [String: Any] {
        try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/code/\(code)")).object("profiles")
    }
}

@Suite("Simulated user agent on the second screen")
struct SimulatedUserAgentActivateTests {
    @Test(arguments: AgentWire.allCases)
    func activatesACodeWhoseProviderIsChosen(_ wire: AgentWire) async throws {
        let rig = try await AgentRig(wire)
        defer { rig.shutdown() }
        let code = try await rig.code(mvpd: "NotBoarded")
        let mvpd = try await rig.agent.activate(
            code: code.lowercased(), username: "alice", password: "alice123", mvpd: "SVCProvider")
        #expect(mvpd == "NotBoarded", "the session's own MVPD wins over the one given for a choice")
        #expect(try await rig.profiles(code).object("NotBoarded").string("type") == "regular")
    }

    @Test(arguments: AgentWire.allCases)
    func choosesTheProviderWhenTheSessionHasNone(_ wire: AgentWire) async throws {
        let rig = try await AgentRig(wire)
        defer { rig.shutdown() }
        let code = try await rig.code(mvpd: nil)
        let mvpd = try await rig.agent.activate(code: code, username: "bob", password: "bob123", mvpd: "SVCProvider")
        #expect(mvpd == "SVCProvider")
        #expect(
            try await rig.profiles(code).object("SVCProvider").object("attributes").object("userID").string("value")
                == "u-bob")
    }

    @Test(arguments: AgentWire.allCases)
    func aChoiceThatNeedsNoLoginEndsThere(_ wire: AgentWire) async throws {
        let rig = try await AgentRig(wire)
        defer { rig.shutdown() }
        let code = try await rig.code(mvpd: nil)
        #expect(try await rig.agent.activate(code: code, username: "", password: "", mvpd: "Degraded") == "Degraded")
        #expect(try await rig.profiles(code).object("Degraded").string("type") == "degraded")
    }

    @Test(arguments: AgentWire.allCases)
    func refusalsAreClearErrors(_ wire: AgentWire) async throws {
        let rig = try await AgentRig(wire)
        defer { rig.shutdown() }
        let agent = rig.agent

        await #expect(
            throws: SimulatedUserAgentError.activationRejected(
                "No sign-in is waiting for the code NOPE123. Check the code on your TV and type it again.")
        ) {
            try await agent.activate(code: "nope123", username: "alice", password: "alice123")
        }

        let open = try await rig.code(mvpd: nil)
        await #expect(
            throws: SimulatedUserAgentError.providerChoiceRequired(offered: [
                "AppleBoarded", "Degraded", "NotBoarded", "PickerOnly", "SVCProvider", "SSODisabled", "TempPass",
            ])
        ) {
            try await agent.activate(code: open, username: "alice", password: "alice123")
        }
        await #expect(
            throws: SimulatedUserAgentError.providerNotOffered(
                "Inactive",
                offered: [
                    "AppleBoarded", "Degraded", "NotBoarded", "PickerOnly", "SVCProvider", "SSODisabled", "TempPass",
                ])
        ) {
            try await agent.activate(code: open, username: "alice", password: "alice123", mvpd: "Inactive")
        }

        let code = try await rig.code(mvpd: "NotBoarded")
        await #expect(throws: SimulatedUserAgentError.loginRejected("The username or password is incorrect.")) {
            try await agent.activate(code: code, username: "alice", password: "wrong")
        }
        #expect(try await rig.profiles(code).isEmpty)

        try await agent.activate(code: code, username: "alice", password: "alice123")
        await #expect(
            throws: SimulatedUserAgentError.activationRejected(
                "The code \(code) was already used to sign in. If that was you, go back to the application: it is signed in. Otherwise start the sign-in again there."
            )
        ) {
            try await agent.activate(code: code, username: "alice", password: "alice123")
        }

        let late = try await rig.code(mvpd: "SVCProvider")  // NotBoarded is signed in by now
        rig.client.sandbox.clock.advance(by: SandboxEngine.authenticationSessionTTL)
        do {
            try await agent.activate(code: late, username: "alice", password: "alice123")
            Issue.record("an expired code was accepted")
        } catch {
            guard case .activationRejected(let message) = error else { throw error }
            #expect(message.hasPrefix("The code \(late) has expired"))
        }
    }

    @Test(arguments: AgentWire.allCases)
    func aPageThatFailsIsReportedWithItsMessage(_ wire: AgentWire) async throws {
        let rig = try await AgentRig(wire)
        defer { rig.shutdown() }
        let code = try await rig.code(mvpd: "NotBoarded")
        rig.client.sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .login)
        await #expect(throws: SimulatedUserAgentError.pageRefused(status: 503, message: "The service is unavailable."))
        {
            try await rig.agent.activate(code: code, username: "alice", password: "alice123")
        }
    }

    @Test(arguments: AgentWire.allCases)
    func loginAndLogoutLandWhereTheApplicationTakesOver(_ wire: AgentWire) async throws {
        let rig = try await AgentRig(wire)
        defer { rig.shutdown() }
        let code = try await rig.code(mvpd: "NotBoarded")
        // The agent asks for pages as a browser does, so it passes the page that stands in
        // for the custom-scheme redirect, and still lands on the redirect URL.
        let landing = try await rig.agent.login(
            startingAt: "/api/v2/authenticate/REF30/\(code)", username: "alice", password: "alice123",
            redirectPrefix: "adobepass://")
        #expect(landing == "adobepass://ios.app")
        let logout = try SandboxTestClient.object(
            await rig.client.get("/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Fios.app%2Fbye"))
        let url = try #require(logout.object("logouts").object("NotBoarded").string("url"))
        #expect(try await rig.agent.follow(url, redirectPrefix: "adobepass://") == "adobepass://ios.app/bye")
    }
}
