import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// `providerChoice = .onSecondScreen`: the TV asks for a code at once (a session without an
/// MVPD), the person chooses the TV provider on the activation page and signs in there, and
/// the SDK learns the provider from the profile its polling finds.
@Suite struct SecondScreenProviderChoiceTests {
    /// Records the form bodies of `POST sessions` on their way out.
    final class SessionBodies: HTTPTransport, @unchecked Sendable {
        let inner: any HTTPTransport
        private let lock = NSLock()
        private var bodies: [String] = []
        init(_ inner: any HTTPTransport) { self.inner = inner }
        var keepsItsDeadline: Bool { inner.keepsItsDeadline }
        var all: [String] { lock.withLock { bodies } }
        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            if request.operationName == "createSession" {
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                lock.withLock { bodies.append(body) }
            }
            return try await inner.send(request, timeout: timeout)
        }
    }

    /// A tvOS rig choosing the provider on the second screen, with REF30 set.
    static func rig(_ wire: ScenarioRunner.Wire) async throws -> (Rig, Box) {
        let box = Box()
        let rig = try Rig(
            wire,
            configuration: { configuration in
                configuration.providerChoice = .onSecondScreen
                let recorder = SessionBodies(configuration.transport)
                box.set(recorder)
                configuration.transport = recorder
            },
            scenario: { scenario in
                scenario.platform = .tvOS
                scenario.loginScreen = nil
            })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        return (rig, box)
    }

    /// Holds the body recorder the configuration closure made.
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var recorder: SessionBodies?
        func set(_ recorder: SessionBodies) { lock.withLock { self.recorder = recorder } }
        var bodies: [String] { lock.withLock { recorder?.all ?? [] } }
    }

    /// The person at the activation page.
    static func person(_ rig: Rig, _ wire: ScenarioRunner.Wire) -> SimulatedUserAgent {
        switch wire {
        case .loopbackHTTP: SimulatedUserAgent(httpBase: rig.runner.baseURL)
        case .inProcess: SimulatedUserAgent(sandbox: rig.sandbox)
        }
    }

    /// getAuthentication → REGCODE at once, with no dialog, picker or tracking; returns the code.
    static func requestCode(_ rig: Rig, _ box: Box) async throws -> String {
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                "status(REGCODE,info)"
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions"])
        let body = try #require(box.bodies.last)
        #expect(!body.contains("mvpd="), "the session is opened without an MVPD: \(body)")
        #expect(body.contains("domainName=") && body.contains("redirectUrl="))
        let status = try #require(rig.lines("status").last)
        let code = try #require(status["details"]?.stringValue)
        #expect(status["message"]?.stringValue?.contains("choose your TV provider") == true)
        return code
    }

    @Test(arguments: bothWires)
    func theCodeComesAtOnceAndThePersonChoosesTheProviderOnThePhone(wire: ScenarioRunner.Wire) async throws {
        let (rig, box) = try await Self.rig(wire)
        let code = try await Self.requestCode(rig, box)
        // The person types the code, chooses NotBoarded and signs in.
        let chosen = try await Self.person(rig, wire).activate(
            code: code, username: "alice", password: "alice123", mvpd: "NotBoarded")
        #expect(chosen == "NotBoarded")
        #expect(try await rig.run(.advanceClock(5)) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles/code/\(code)"])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty, "polling stops at the first profile")
    }

    @Test(arguments: bothWires)
    func getAuthorizationAlsoAsksForACodeAndGetsItsToken(wire: ScenarioRunner.Wire) async throws {
        let (rig, _) = try await Self.rig(wire)
        #expect(try await rig.run(.getAuthorization("news")) == ["status(REGCODE,info)"])
        let code = try #require(rig.lines("status").last?["details"]?.stringValue)
        try await Self.person(rig, wire).activate(
            code: code, username: "alice", password: "alice123", mvpd: "NotBoarded")
        #expect(
            try await rig.run(.advanceClock(5)) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated, "sendTrackingData(1,true,NotBoarded)",
                "setToken(news)",
            ])
    }

    @Test(arguments: bothWires)
    func backingOutStopsTheWaitWithN005(wire: ScenarioRunner.Wire) async throws {
        let (rig, box) = try await Self.rig(wire)
        _ = try await Self.requestCode(rig, box)
        #expect(
            try await rig.run(.setSelectedProvider(nil)) == [
                "status(N005,info)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        #expect(try await rig.run(.advanceClock(60)) == [])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aCodeNobodyUsesExpiresWithN130(wire: ScenarioRunner.Wire) async throws {
        let (rig, box) = try await Self.rig(wire)
        let code = try await Self.requestCode(rig, box)
        #expect(
            try await rig.run(.advanceClock(1_800)) == [
                "status(N130,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["details"]?.stringValue == code)
    }

    @Test(arguments: bothWires)
    func aFailedSessionIsREG500(wire: ScenarioRunner.Wire) async throws {
        let (rig, _) = try await Self.rig(wire)
        rig.sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .createSession)
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                "status(REG500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
    }

    @Test(arguments: bothWires)
    func onThisDeviceTheChoiceStaysOnTheDevice(wire: ScenarioRunner.Wire) async throws {
        // `.onSecondScreen` applies to second-screen logins only.
        let rig = try Rig(
            wire, configuration: { $0.providerChoice = .onSecondScreen }, scenario: { $0.loginScreen = .thisDevice })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
    }

    @Test(arguments: bothWires)
    func theAsyncAPIGetsTheCodeAtOnceAndAwaitsTheSignIn(wire: ScenarioRunner.Wire) async throws {
        let (rig, _) = try await Self.rig(wire)
        let ae = rig.accessEnabler
        guard case .enterCodeOnSecondScreen(let code) = try await ae.authenticate() else {
            Issue.record("expected a code at once")
            return
        }
        try await Self.person(rig, wire).activate(
            code: code, username: "alice", password: "alice123", mvpd: "NotBoarded")
        async let signedIn = ae.secondScreenSignIn()
        #expect(try await rig.run(.advanceClock(5)) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await signedIn == .authenticated)
        #expect(try await ae.selectedProvider()?.id == "NotBoarded")
    }
}
