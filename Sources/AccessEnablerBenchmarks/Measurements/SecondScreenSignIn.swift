import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// One second-screen sign-in, driven on the scenario's manual clock, with the SDK's
/// requests counted: what a sign-in on another device costs in round trips.
///
/// On a runner whose scenario is tvOS with `loginScreen = .secondScreen` and no partner
/// framework, and whose requestor is set: getAuthentication, then the provider chosen
/// (`POST sessions`, status `REGCODE`). The clock then moves one second at a time; when it
/// reads `personDoneAfter` seconds past the code, and after the polls due at that second
/// have run, the person signs in on the second screen. The clock keeps moving until the
/// SDK's polling (`GET profiles/code/{code}`, every 5 s) finds the profile.
enum SecondScreenSignIn {
    /// What the sign-in cost.
    struct Outcome: Sendable {
        /// `POST sessions` requests.
        var sessions = 0
        /// `GET profiles/code/{code}` requests.
        var polls = 0
        /// Every request the SDK sent, as `"METHOD /path"`.
        var calls: [String] = []
        /// Whether it ended with `setAuthenticationStatus(1)`.
        var authenticated = false
        /// Whether the person's sign-in on the second screen went through.
        var activated = false
    }

    /// The SDK's poll interval (`secondScreenPollInterval`'s default).
    static let pollInterval = 5

    /// Polls a sign-in costs when the person is done `seconds` after the code: the first
    /// poll comes one interval after the code, and a poll due at the very second the person
    /// finishes has run before, so the profile is found at the first poll after it.
    static func expectedPolls(personDoneAfter seconds: Int) -> Int { seconds / pollInterval + 1 }

    /// Runs the sign-in on `runner`, whose sandbox answers over `wire` (see the type's
    /// description); gives up on the polling after `limit` seconds of scenario time.
    static func run(
        on runner: ScenarioRunner, wire: ScenarioRunner.Wire, personDoneAfter seconds: Int, mvpd: String = "NotBoarded",
        limit: Int = 600
    ) async throws -> Outcome {
        runner.recorder.reset()
        runner.meter.reset()
        try await runner.step(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        try await runner.step(.setSelectedProvider(mvpd))
        var outcome = Outcome()
        guard case .registrationCode(let code) = runner.recorder.lastHandOver else {
            outcome.calls = runner.meter.requests
            return outcome
        }
        var elapsed = 0
        while elapsed <= limit {
            if elapsed == seconds {
                let person =
                    wire == .inProcess
                    ? SimulatedUserAgent(sandbox: runner.sandbox) : SimulatedUserAgent(httpBase: runner.baseURL)
                outcome.activated =
                    (try? await person.activate(code: code, username: "alice", password: "alice123")) != nil
            }
            if runner.recorder.authenticationStatusCount > 0 { break }
            try await runner.step(.advanceClock(1))
            elapsed += 1
        }
        outcome.calls = runner.meter.requests
        outcome.sessions = outcome.calls.filter { $0.hasPrefix("POST ") && $0.hasSuffix("/sessions") }.count
        outcome.polls = outcome.calls.filter { $0.hasPrefix("GET ") && $0.contains("/profiles/code/") }.count
        outcome.authenticated = runner.recorder.callbacks.contains {
            $0.callback == "setAuthenticationStatus" && $0["status"] == .number(1)
        }
        return outcome
    }

    /// A runner for it: tvOS, second screen, no partner framework, the requestor set;
    /// `world` may turn throttling on.
    static func startRunner(wire: ScenarioRunner.Wire, world: SandboxWorld = .default) async throws -> ScenarioRunner {
        var scenario = Scenario()
        scenario.platform = .tvOS
        scenario.loginScreen = .secondScreen
        scenario.world = world
        scenario.device.present = false
        let runner = ScenarioRunner(scenario: scenario, wire: wire)
        try runner.start()
        try await runner.step(.setRequestor("REF30", serviceProviders: nil))
        return runner
    }
}
