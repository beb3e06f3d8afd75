import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerBenchmarks

/// The benchmark's flows run through the sandbox's checklist monitor: the round-trip
/// measurement's partner single sign-on and login-page flows, its second-screen sign-in, its
/// authorization burst, and the throttled measurement's flows. None may break Adobe's REST API
/// V2 Checklist.
@Suite struct BenchmarkFlowChecklistTests {
    private static func expectClean(_ sandbox: PassSandbox, _ flow: String) {
        let violations = sandbox.checklist.violationLines
        #expect(
            violations.isEmpty, "\(flow) breaks Adobe's REST API V2 Checklist:\n\(violations.joined(separator: "\n"))")
    }

    @Test func theRoundTripFlowsKeepTheChecklist() async throws {
        for (name, flows, device) in [
            (
                "partner single sign-on flows", RoundTripMeasurement.ssoFlows(),
                Optional(RoundTripMeasurement.ssoDevice())
            ),
            ("login page flows", RoundTripMeasurement.loginPageFlows(), nil),
        ] {
            var scenario = Scenario()
            if let device { scenario.device = device } else { scenario.device.present = false }
            let runner = ScenarioRunner(scenario: scenario, wire: .inProcess)
            try runner.start()
            defer { runner.stop() }
            for flow in flows {
                for step in flow.steps { try await runner.step(step) }
                #expect(flow.succeeded(runner.recorder.callbacks), "\(name): \(flow.label)")
            }
            Self.expectClean(runner.sandbox, name)
        }
    }

    @Test func theSecondScreenSignInKeepsTheChecklist() async throws {
        let runner = try await SecondScreenSignIn.startRunner(wire: .inProcess)
        defer { runner.stop() }
        let outcome = try await SecondScreenSignIn.run(on: runner, wire: .inProcess, personDoneAfter: 12)
        #expect(outcome.authenticated)
        Self.expectClean(runner.sandbox, "the second-screen sign-in")
    }

    @Test func theAuthorizationBurstKeepsTheChecklist() async throws {
        var scenario = Scenario()
        scenario.device.signedIn = Scenario.SignIn(provider: "AppleBoarded", user: "alice")
        let runner = ScenarioRunner(scenario: scenario, wire: .inProcess)
        try runner.start()
        defer { runner.stop() }
        try await runner.step(.setRequestor("REF30", serviceProviders: nil))
        let accessEnabler = try #require(runner.accessEnabler)
        for index in 1...RoundTripMeasurement.burstSize { accessEnabler.checkAuthorization("resource-\(index)") }
        #expect(await runner.settle())
        Self.expectClean(runner.sandbox, "the authorization burst")
    }

    @Test func theThrottledFlowsKeepTheChecklist() async throws {
        var world = SandboxWorld.default
        world.throttle = ThrottledMeasurement.adobeLimits
        var scenario = Scenario()
        scenario.platform = .tvOS
        scenario.world = world
        scenario.device.signedIn = Scenario.SignIn(provider: "AppleBoarded", user: "alice")
        let partner = ScenarioRunner(scenario: scenario, wire: .inProcess)
        try partner.start()
        defer { partner.stop() }
        try await partner.step(.setRequestor("REF30", serviceProviders: nil))
        try await partner.step(.checkAuthorization("news"))
        Self.expectClean(partner.sandbox, "the throttled partner sign-in and authorization")

        let secondScreen = try await SecondScreenSignIn.startRunner(wire: .inProcess, world: world)
        defer { secondScreen.stop() }
        let outcome = try await SecondScreenSignIn.run(
            on: secondScreen, wire: .inProcess, personDoneAfter: ThrottledMeasurement.secondScreenDelay)
        #expect(outcome.authenticated)
        Self.expectClean(secondScreen.sandbox, "the throttled second-screen sign-in")
    }
}
