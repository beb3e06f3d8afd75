import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Measurement 6: the SDK's flows against Adobe's throttling. The sandbox's world option
/// `throttle` is on with Adobe's limits (a token bucket per device: 1 request per second
/// after a burst of 10, a refusal answered `429 Too Many Requests`), and one device signs
/// in cold through partner SSO, asks for an authorization, and signs in again on a second
/// screen, polling for a minute, over loopback HTTP on the manual scenario clock. The
/// sandbox counts the 429s it sent: the goal is none. A control burst from another device
/// beyond the limit must be refused, so a zero means the throttle was on, not idle.
enum ThrottledMeasurement {
    /// Adobe's documented limits.
    static let adobeLimits = SandboxThrottle(requestsPerSecond: 1, burst: 10)

    /// Seconds between the code and the person's sign-in in the second-screen flow.
    static let secondScreenDelay = 60

    /// Requests in the control burst: the burst plus the current request are admitted, the rest refused.
    static let controlRequests = 12

    static func run() async throws -> Benchmark.Section {
        var world = SandboxWorld.default
        world.throttle = adobeLimits
        var rows: [Benchmark.Row] = []

        // A cold sign-in through partner SSO, then an authorization, at the same instant.
        var scenario = Scenario()
        scenario.platform = .tvOS
        scenario.world = world
        scenario.device.signedIn = Scenario.SignIn(provider: "AppleBoarded", user: "alice")
        let partner = ScenarioRunner(scenario: scenario, wire: .loopbackHTTP)
        try partner.start()
        defer { partner.stop() }
        rows.append(
            try await flowRow(
                "cold sign-in through partner SSO (setRequestor)", partner,
                .setRequestor("REF30", serviceProviders: nil),
                succeeded: { $0.contains { $0.callback == "setRequestorComplete" && $0["status"] == .number(1) } }))
        rows.append(
            try await flowRow(
                "authorization right after (checkAuthorization)", partner, .checkAuthorization("news"),
                succeeded: { $0.contains { $0.callback == "setToken" } }))

        // setRequestor, then a second-screen sign-in that polls for a minute.
        let secondScreen = try await SecondScreenSignIn.startRunner(wire: .loopbackHTTP, world: world)
        defer { secondScreen.stop() }
        let setUp = secondScreen.meter.requests.count
        let refusedBefore = secondScreen.sandbox.throttledResponseCount
        let outcome = try await SecondScreenSignIn.run(
            on: secondScreen, wire: .loopbackHTTP, personDoneAfter: secondScreenDelay)
        let refused = secondScreen.sandbox.throttledResponseCount
        rows.append(
            Benchmark.Row(
                "setRequestor, then a second-screen sign-in done after \(secondScreenDelay) s",
                figures: [
                    Benchmark.Figure("requests", Double(setUp + outcome.calls.count)),
                    Benchmark.Figure("429s", Double(refused)),
                ], goal: "0 × 429, signed in", met: refused == 0 && outcome.authenticated,
                note: outcome.authenticated
                    ? "\(outcome.polls) polls over \(outcome.polls * SecondScreenSignIn.pollInterval) s; \(refused - refusedBefore) refused while polling"
                    : "flow did not end as expected"))

        // The control: a burst beyond the limit from one device must be refused.
        let control = await controlBurst(partner.sandbox)
        rows.append(
            Benchmark.Row(
                "control: \(controlRequests) requests from one device at one instant",
                figures: [
                    Benchmark.Figure("requests", Double(controlRequests)), Benchmark.Figure("429s", Double(control)),
                ], goal: "= \(controlRequests - adobeLimits.burst - 1) (the throttle is on)",
                met: control == controlRequests - adobeLimits.burst - 1))

        let flows = rows.dropLast()
        let refusals = flows.compactMap { $0.figures.first { $0.name == "429s" }?.value }.reduce(0, +)
        let allMet = rows.allSatisfy { $0.met == true }
        return Benchmark.Section(
            key: "throttled",
            title: "6. Adobe's throttling on (1 request/s per device after a burst of 10): no sign-in refused",
            rows: rows,
            notes: [
                "The sandbox's world option throttle = {requestsPerSecond 1, burst 10}: a token bucket per device (AP-Device-Identifier; a DCR request without one counts against its client or connection) holding 11 tokens and refilling one per second; a refused request gets 429 with Adobe's HTML body. 429s = what the sandbox's throttle refused.",
                "Loopback HTTP, the manual scenario clock: requests within a step are at the same instant (no refill), and the clock moves only with the second screen's polling (1 s steps), so every figure is the worst case of a device acting as fast as it can.",
                "The control burst comes from another device identifier, straight after the flows: \(controlRequests) requests at one instant, of which 11 fit the bucket; a refusal there shows the zeros above are the throttle admitting, not the throttle off.",
            ],
            goals: [
                Benchmark.Goal(
                    "throttled: sign-in, authorization, second screen", Benchmark.Figure("429s", refusals),
                    goal: "0, every flow done and the control refused",
                    met: allMet)
            ])
    }

    /// Runs `step` on `runner` and counts the SDK's requests and the sandbox's refusals.
    private static func flowRow(
        _ label: String, _ runner: ScenarioRunner, _ step: Scenario.Step, succeeded: ([TranscriptLine]) -> Bool
    ) async throws -> Benchmark.Row {
        runner.recorder.reset()
        runner.meter.reset()
        let before = runner.sandbox.throttledResponseCount
        try await runner.step(step)
        let refused = runner.sandbox.throttledResponseCount - before
        let ok = succeeded(runner.recorder.callbacks)
        return Benchmark.Row(
            label,
            figures: [
                Benchmark.Figure("requests", Double(runner.meter.requests.count)),
                Benchmark.Figure("429s", Double(refused)),
            ], goal: "0 × 429, signed in", met: refused == 0 && ok, note: ok ? nil : "flow did not end as expected")
    }

    /// Sends ``controlRequests`` configuration requests from one new device at one instant
    /// (in-process); returns how many the throttle refused.
    private static func controlBurst(_ sandbox: PassSandbox) async -> Int {
        let before = sandbox.throttledResponseCount
        let url = sandbox.baseURLForLinks.appendingPathComponent("api/v2/REF30/configuration")
        let request = HTTPRequestMessage(
            method: "GET", url: url,
            headers: [
                ("AP-Device-Identifier", "fingerprint " + Data("benchmark-control-device".utf8).base64EncodedString())
            ])
        for _ in 0..<controlRequests { _ = try? await sandbox.inProcessTransport.send(request, timeout: 5) }
        return sandbox.throttledResponseCount - before
    }
}
