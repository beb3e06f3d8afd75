import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// `POST sessions` is a real, cancellable wait: a slow answer never holds the calls that end
/// it (logout, setSelectedProvider, getAuthentication, setRequestor for another requestor),
/// and the call that chose the provider still gets its own terminal callback, once.
@Suite struct SessionAbandonmentTests {
    /// Long enough for the calls that abandon the session to arrive before its answer (were
    /// the answer awaited, setSelectedProvider would end in navigateToUrl instead).
    /// Long enough that the calls made right after `setSelectedProvider` find its session
    /// still waiting even when a machine at load 20 holds this thread back between them.
    static let slow = SanitizerTiming.scaled(10)

    /// A rig with the provider dialog open and `POST sessions` answering only after `slow`.
    static func choosing(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        rig.sandbox.inject(SandboxFault(latency: slow, remaining: 1), into: .createSession)
        return rig
    }

    @Test(arguments: bothWires)
    func logoutAbandonsASlowSession(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.choosing(wire)
        let signatures = await rig.call { ae in
            ae.setSelectedProvider("NotBoarded")
            ae.logout()
        }
        #expect(
            signatures == [
                // setSelectedProvider's own end: it had no answer yet.
                "sendTrackingData(2,NotBoarded)", "status(N500,error)", notAuthenticated,
                // logout's.
                notAuthenticated,
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("abandoned") == true)
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
    }

    @Test(arguments: bothWires)
    func backingOutAbandonsASlowSession(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.choosing(wire)
        let signatures = await rig.call { ae in
            ae.setSelectedProvider("NotBoarded")
            ae.setSelectedProvider(nil)
        }
        let backedOut = "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))"
        #expect(
            signatures == [
                "sendTrackingData(2,NotBoarded)", "status(N005,info)", backedOut, "status(N005,info)", backedOut,
            ])
    }

    @Test(arguments: bothWires)
    func aNewAuthenticationAbandonsASlowSessionAndProceeds(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.choosing(wire)
        let signatures = await rig.call { ae in
            ae.setSelectedProvider("NotBoarded")
            ae.getAuthentication()
        }
        #expect(
            signatures == [
                "sendTrackingData(2,NotBoarded)", "status(N500,error)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))", regularDialog,
            ])
        // The new flow works: the next session answers at once. Whether the abandoned
        // request reached the sandbox before it was abandoned is the scheduler's choice (on a
        // busy machine it may not have been sent yet); a slow answer it never took must not
        // be waiting for the next one.
        rig.sandbox.clearFaults()
        let next = try await rig.run(.setSelectedProvider("NotBoarded"))
        #expect(next == ["sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)"], "calls: \(rig.restCalls)")
    }

    @Test(arguments: bothWires)
    func callsThatDoNotAbandonTheSessionWaitForItsAnswerInOrder(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        rig.sandbox.inject(SandboxFault(latency: SanitizerTiming.scaled(3), remaining: 1), into: .createSession)
        let signatures = await rig.call { ae in
            ae.setSelectedProvider("TempPass")
            ae.checkAuthorization("news")
            ae.setRequestor("REF30")
        }
        // The TempPass sign-in completes first; the authorization and the same requestor's
        // setRequestor run after it, in call order.
        #expect(signatures.first == "sendTrackingData(2,TempPass)")
        #expect(signatures.filter(isTerminal) == [authenticated, "setToken(news)", "setRequestorComplete(1)"])
    }
}
