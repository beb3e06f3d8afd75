import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Every scenario step settles — the scenario clock moved through each back-off — before
/// the runner waits for idle: `logout` and `restart` too. A step that cannot settle ends the
/// run with an error naming it (the command line's exit status 2), never a hang, and the
/// run's storage directory (client credentials) is removed on that path as on the others.
@Suite("Scenario steps settle", .timeLimit(.minutes(20)))
struct ScenarioSettleTests {
    /// Runs `body`, failing instead of hanging when it has not finished within 5 minutes
    /// (more under the thread sanitizer): a bound for a hang only, which a run at load 20
    /// never comes near (the runner's own stall bound is what these tests are about).
    private static func bounded(_ what: Comment, _ body: @escaping @Sendable () async throws -> Void) async {
        let seconds = SanitizerTiming.scaled(300)
        let finished = await withinDeadline(seconds: seconds) {
            do { try await body() } catch { Issue.record(error) }
        }
        #expect(finished, "\(what) did not end within \(Int(seconds)) s")
    }

    @Test(arguments: bothWires)
    func aLogoutWhoseRequestIsRetriedAfterAWaitSettles(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        // network_received_error carries the `retry` action: the request goes again after a
        // back-off on the scenario clock.
        rig.sandbox.inject(SandboxFault(status: 403, remaining: 1), into: .logout)
        let start = rig.sandbox.clock.now
        await Self.bounded("the logout step") {
            let signatures = try await rig.run(.logout)
            #expect(signatures == [logoutPage, notAuthenticated])
            #expect(rig.restCalls == [RegularLogoutTests.logoutCall, RegularLogoutTests.logoutCall])
        }
        // The retry waits 1 s ± 20 %.
        let moved = rig.sandbox.clock.now.timeIntervalSince(start)
        #expect(moved >= 0.8, "the back-off was moved through on the scenario clock")
    }

    @Test(arguments: bothWires)
    func aLogoutAfterAThrottledCallSettles(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(SandboxFault(status: 429, remaining: 1), into: .authorize)
        #expect(
            try await rig.run(.checkAuthorization("news")).last
                == "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
            "a throttled authorization is Z100 with the not-authorized code")
        // The next request to the host waits at least a second after the 429.
        await Self.bounded("the logout step") {
            let signatures = try await rig.run(.logout)
            #expect(signatures == [logoutPage, notAuthenticated])
            #expect(rig.restCalls == [RegularLogoutTests.logoutCall])
        }
    }

    @Test(arguments: bothWires)
    func aRestartDuringABackOffSettlesFirst(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(SandboxFault(status: 429, remaining: 1), into: .authorize)
        #expect(
            try await rig.run(.checkAuthorization("news")).last
                == "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
            "a throttled authorization is Z100 with the not-authorized code")
        // A call whose request waits out the throttling when the app is relaunched.
        rig.accessEnabler.checkAuthorization("news")
        await Self.bounded("the restart step") {
            let signatures = try await rig.run(.restart)
            #expect(signatures == ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"])
        }
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication).last == authenticated)
    }
}

/// The bound on settling: a step whose work outlasts it ends the run with the step named.
@Suite("Scenario stalls")
struct ScenarioStallTests {
    @Test(arguments: bothWires)
    func aStepThatCannotSettleEndsTheRunNamingItAndRemovesTheScratch(wire: ScenarioRunner.Wire) async throws {
        var scenario = Scenario()
        scenario.device.present = false
        let runner = ScenarioRunner(scenario: scenario, wire: wire)
        runner.settleTimeout = 0.5
        runner.configure = { $0.requestTimeout = 60 }
        try runner.start()
        let storage = try #require(runner.storageDirectory)
        // The profiles answer after 30 s (setRequestor asks for no configuration): longer than
        // the bound, shorter than the timeout.
        runner.sandbox.inject(SandboxFault(latency: 30), into: .profiles)
        var stall: ScenarioStall?
        do {
            try await runner.step(.setRequestor("REF30", serviceProviders: nil))
        } catch let error as ScenarioStall {
            stall = error
        }
        runner.stop()
        #expect(stall == ScenarioStall(step: 0, name: "setRequestor", seconds: 0.5))
        #expect(
            stall?.description.hasPrefix("step 0 (setRequestor) did not settle: the SDK made no progress for 0.5 s")
                == true)
        #expect(!FileManager.default.fileExists(atPath: storage.path))
    }

    @Test func runEndsWithTheStallAndRemovesTheScratch() async throws {
        var scenario = Scenario()
        scenario.device.present = false
        // The step before the stall has nothing for the SDK to do: however long this busy
        // process takes to schedule its first settling, a quiescent SDK is not a stall. The
        // stalled request outlasts the bound many times over.
        scenario.steps = [
            .fault(endpoint: .profiles, SandboxFault(latency: 3_600, remaining: 1)),
            .setRequestor("REF30", serviceProviders: nil),
        ]
        let runner = ScenarioRunner(scenario: scenario, wire: .inProcess)
        runner.settleTimeout = SanitizerTiming.scaled(30)
        runner.configure = { $0.requestTimeout = 3_600 }
        var stall: ScenarioStall?
        do {
            _ = try await runner.run()
        } catch let error as ScenarioStall {
            stall = error
        }
        #expect(stall?.step == 1)
        #expect(stall?.name == "setRequestor")
        let storage = try #require(runner.storageDirectory)
        #expect(!FileManager.default.fileExists(atPath: storage.path))
    }

    /// The bound is on progress, not on the step: a step whose requests each answer within
    /// the bound settles however long the step takes as a whole, as a step on a busy machine
    /// does. (Before, the bound was on the whole step, and this one stalled.)
    @Test(arguments: bothWires)
    func aStepThatKeepsMovingIsNotAStallHoweverLongItTakes(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire, configuration: { $0.requestTimeout = 3_600 }, scenario: { _ in })
        // Three requests of the step answer after 15 s each: 45 s in all, more than the
        // bound of 40 s. Each request's 25 s under the bound is what a loaded machine may add
        // (at load 20 a request of 8 s once went 20 s without progress).
        rig.runner.settleTimeout = 40
        for endpoint in [SandboxEndpoint.dcrRegister, .dcrToken, .profiles] {
            rig.sandbox.inject(SandboxFault(latency: 15, remaining: 1), into: endpoint)
        }
        let started = ContinuousClock.now
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(ContinuousClock.now - started > .seconds(40), "the step outlasted the bound")
    }
}
