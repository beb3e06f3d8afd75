import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Measurement 1: the REST/DCR calls each flow makes (counted by the scenario runner's
/// meter, so only the SDK's own calls count: the simulated user agent's page loads do not),
/// next to the minimum the flow needs; and what a second-screen sign-in costs in polls.
enum RoundTripMeasurement {
    /// One flow to count: the steps that make it up, the minimum, and the callback that
    /// proves the flow reached its normal end. (Internal, not private: the tests run the
    /// same flows through the sandbox's checklist monitor.)
    struct Flow {
        var label: String
        var steps: [Scenario.Step]
        /// The fewest requests the flow can make (`-1`: a set-up step, not counted).
        var minimum: Int
        /// The fewest round trips of latency those requests need when the ones that can
        /// overlap do (logout ∥ logout).
        var roundTrips: Int
        var succeeded: ([TranscriptLine]) -> Bool

        init(
            label: String, steps: [Scenario.Step], minimum: Int, roundTrips: Int? = nil,
            succeeded: @escaping ([TranscriptLine]) -> Bool
        ) {
            self.label = label
            self.steps = steps
            self.minimum = minimum
            self.roundTrips = roundTrips ?? minimum
            self.succeeded = succeeded
        }
    }

    /// Authorizations issued together in the burst row.
    static let burstSize = 20

    /// Seconds between the registration code and the person's sign-in on the second
    /// screen, for the poll counts; the round-trip row uses the second.
    static let secondScreenDelays = [0, 12, 60]

    static func run() async throws -> Benchmark.Section {
        var rows: [Benchmark.Row] = []
        rows += try await count(ssoFlows(), device: ssoDevice())
        rows += try await count(loginPageFlows(), device: nil)
        rows += try await secondScreenRows()
        let burst = await authorizationBurst()
        let expected = secondScreenDelays.map { "\($0) s: \(SecondScreenSignIn.expectedPolls(personDoneAfter: $0))" }
            .joined(separator: ", ")
        return Benchmark.Section(
            key: "roundTrips", title: "1. REST round trips per flow (SDK's calls only; goal: equal to the minimum)",
            rows: rows + [burst.row],
            notes: [
                "Minimum (requests, and the round trips of latency they need when the requests that can overlap do): cold setRequestor = DCR register + DCR token + profiles (3, 3); warm (signed in) = profiles (1, 1) — setRequestor asks no configuration; SSO = sessions/sso + profiles/sso (2, 2), the configuration the partner framework needs having come with the cold setRequestor of a device with no profile; login page = configuration (the provider list) + sessions + profiles/code; second screen with the provider chosen on the TV = configuration + sessions + the polls of profiles/code/{code}; authorization = decisions/authorize; preauthorization = decisions/preauthorize, then cached; logout = one logout per MVPD the device holds, all at once (two profiles: 2, 1).",
                "Burst: \(burstSize) checkAuthorization calls for \(burstSize) resources issued together on a signed-in device; REST V2 takes a list of resources per decisions request, so they need ⌈\(burstSize) / limit⌉ requests (limit: \(burst.limit) resources per request, the SDK's default). Each call must still end in its own callback (setToken or tokenRequestFailed).",
                "Counted in-process (the count does not depend on the wire); each flow's terminal callback is checked, a wrong outcome is noted.",
                "Second screen (tvOS, loginScreen = .secondScreen), on the manual scenario clock moved 1 s at a time: the first poll comes 5 s after the code and one every 5 s after it; the person signs in N s after the code, after any poll due at that second. Polls = floor(N / 5) + 1 (\(expected)).",
            ],
            goals: [
                Benchmark.Goal(
                    "REST round trips at the minimum in every flow",
                    Benchmark.Figure(
                        "flows at minimum", Double(rows.filter { $0.met == true }.count), "of \(rows.count)"),
                    goal: "all \(rows.count)", met: rows.allSatisfy { $0.met == true }),
                Benchmark.Goal(
                    "\(burstSize) checkAuthorization calls together: decisions requests",
                    Benchmark.Figure("requests", burst.row.figures.first?.value),
                    goal: "= \(burst.expected)", met: burst.row.met == true),
            ])
    }

    /// The second screen: the sign-in's round trips when the person is done after 12 s, and
    /// the polls it costs for each of ``secondScreenDelays``.
    private static func secondScreenRows() async throws -> [Benchmark.Row] {
        var pollRows: [Benchmark.Row] = []
        var roundTripRow: Benchmark.Row?
        for delay in secondScreenDelays {
            let runner = try await SecondScreenSignIn.startRunner(wire: .inProcess)
            defer { runner.stop() }
            let outcome = try await SecondScreenSignIn.run(on: runner, wire: .inProcess, personDoneAfter: delay)
            let expectedPolls = SecondScreenSignIn.expectedPolls(personDoneAfter: delay)
            let note =
                outcome.authenticated
                ? nil
                : "flow did not end as expected" + (outcome.activated ? "" : " (the second screen refused the sign-in)")
            pollRows.append(
                Benchmark.Row(
                    "second screen, person done after \(delay) s: polls",
                    figures: [
                        Benchmark.Figure("calls", Double(outcome.polls)),
                        Benchmark.Figure("minimum", Double(expectedPolls)),
                        Benchmark.Figure("round trips", Double(expectedPolls)),
                    ], goal: "= \(expectedPolls)", met: outcome.authenticated && outcome.polls == expectedPolls,
                    note: note))
            if delay == 12 {
                // The provider list (configuration), the session, the polls.
                let minimum = 2 + expectedPolls
                var notes = note.map { [$0] } ?? []
                if outcome.calls.count != minimum {
                    notes.append("calls: " + outcome.calls.map(pathShape).joined(separator: ", "))
                }
                roundTripRow = Benchmark.Row(
                    "getAuthentication via second screen, done after \(delay) s",
                    figures: [
                        Benchmark.Figure("calls", Double(outcome.calls.count)),
                        Benchmark.Figure("minimum", Double(minimum)),
                        Benchmark.Figure("round trips", Double(minimum)),
                    ], goal: "= \(minimum)",
                    met: outcome.authenticated && outcome.calls.count == minimum && outcome.sessions == 1,
                    note: notes.isEmpty ? nil : notes.joined(separator: "; "))
            }
        }
        return (roundTripRow.map { [$0] } ?? []) + pollRows
    }

    static func ssoDevice() -> Scenario.Device {
        var device = Scenario.Device()
        device.picker = [.select(provider: "AppleBoarded", user: "alice")]
        return device
    }

    /// Device granted but signed in nowhere; the picker will select AppleBoarded.
    static func ssoFlows() -> [Flow] {
        [
            // A first launch with a partner framework and no profile: registration, the
            // profiles, then the configuration the partner framework's questions need.
            Flow(
                label: "(set-up) setRequestor with a partner framework",
                steps: [.setRequestor("REF30", serviceProviders: nil)], minimum: -1, succeeded: { _ in true }),
            Flow(
                label: "getAuthentication via partner SSO (picker)",
                steps: [.getAuthentication(forceAuthn: false, filter: [], featured: [])], minimum: 2,
                succeeded: { has($0, "setAuthenticationStatus", status: 1) }),
            Flow(
                label: "checkAuthentication", steps: [.checkAuthentication], minimum: 0,
                succeeded: { has($0, "setAuthenticationStatus", status: 1) }),
            Flow(
                label: "checkAuthorization", steps: [.checkAuthorization("news")], minimum: 1,
                succeeded: { $0.contains { $0.callback == "setToken" } }),
            Flow(
                label: "checkPreauthorizedResources, first",
                steps: [.checkPreauthorizedResources(["news", "sports", "movies"], cache: true)], minimum: 1,
                succeeded: { $0.contains { $0.callback == "preauthorizedResources" } }),
            Flow(
                label: "checkPreauthorizedResources, repeated",
                steps: [.checkPreauthorizedResources(["news", "sports", "movies"], cache: true)], minimum: 0,
                succeeded: { $0.contains { $0.callback == "preauthorizedResources" } }),
            Flow(
                label: "logout", steps: [.logout], minimum: 1,
                succeeded: { has($0, "setAuthenticationStatus", status: 0) }),
        ]
    }

    /// No partner framework: getAuthentication opens the provider dialog, the user picks a
    /// provider and logs in on its page, and the app hands the redirect back.
    static func loginPageFlows() -> [Flow] {
        [
            Flow(
                label: "setRequestor, cold (empty storage)", steps: [.setRequestor("REF30", serviceProviders: nil)],
                minimum: 3, roundTrips: 3,
                succeeded: { has($0, "setRequestorComplete", status: 1) }),
            Flow(
                label: "getAuthentication via login page",
                steps: [
                    .getAuthentication(forceAuthn: false, filter: [], featured: []),
                    .setSelectedProvider("NotBoarded"),
                    .login(username: "alice", password: "alice123"),
                ], minimum: 3,
                succeeded: { lines in
                    lines.contains { $0.callback == "displayProviderDialog" }
                        && has(lines, "setAuthenticationStatus", status: 1)
                }),
            // A relaunch while signed in: the profiles, nothing else.
            Flow(
                label: "setRequestor, warm (after relaunch)",
                steps: [.restart, .setRequestor("REF30", serviceProviders: nil)], minimum: 1, roundTrips: 1,
                succeeded: { has($0, "setRequestorComplete", status: 1) }),
            Flow(
                label: "(set-up) a second MVPD's sign-in",
                steps: [
                    .getAuthentication(forceAuthn: true, filter: [], featured: []),
                    .setSelectedProvider("SVCProvider"),
                    .login(username: "bob", password: "bob123"),
                ], minimum: -1, succeeded: { _ in true }),
            Flow(
                label: "logout with two profiles (two MVPDs)", steps: [.logout], minimum: 2, roundTrips: 1,
                succeeded: { has($0, "setAuthenticationStatus", status: 0) }),
        ]
    }

    private static func count(_ flows: [Flow], device: Scenario.Device?) async throws -> [Benchmark.Row] {
        var scenario = Scenario()
        if let device { scenario.device = device } else { scenario.device.present = false }
        let runner = ScenarioRunner(scenario: scenario, wire: .inProcess)
        try runner.start()
        defer { runner.stop() }
        var rows: [Benchmark.Row] = []
        for flow in flows {
            runner.recorder.reset()
            runner.meter.reset()
            for step in flow.steps { try await runner.step(step) }
            guard flow.minimum >= 0 else { continue }
            let calls = runner.meter.requests
            let succeeded = flow.succeeded(runner.recorder.callbacks)
            var notes: [String] = []
            if !succeeded { notes.append("flow did not end as expected") }
            if calls.count != flow.minimum { notes.append("calls: " + calls.map(pathShape).joined(separator: ", ")) }
            rows.append(
                Benchmark.Row(
                    flow.label,
                    figures: [
                        Benchmark.Figure("calls", Double(calls.count)),
                        Benchmark.Figure("minimum", Double(flow.minimum)),
                        Benchmark.Figure("round trips", Double(flow.roundTrips)),
                    ],
                    goal: "= \(flow.minimum)", met: succeeded && calls.count == flow.minimum,
                    note: notes.isEmpty ? nil : notes.joined(separator: "; ")))
        }
        return rows
    }

    /// \(burstSize) checkAuthorization calls issued together by one device signed in through
    /// partner SSO (in-process): the decisions requests they cost, against ⌈burst / limit⌉.
    private static func authorizationBurst() async -> (row: Benchmark.Row, expected: Int, limit: Int) {
        let limit = BurstDevice.limit
        let expected = BurstDevice.minimumRequests(for: burstSize)
        let device = await BurstDevice(scratchName: "burst")
        defer { device.remove() }
        let signedIn = device.signedIn
        let (requests, answered) = await device.burst((1...burstSize).map { "resource-\($0)" })
        var notes: [String] = []
        if !signedIn { notes.append("the device did not sign in") }
        if answered != burstSize { notes.append("\(answered) of \(burstSize) calls ended in their callback") }
        if requests == burstSize {
            notes.append("one decisions request per call: not coalesced")
        } else if requests != expected {
            notes.append("\(requests) requests: not every call waiting together went out in a full request")
        }
        let row = Benchmark.Row(
            "\(burstSize) checkAuthorization calls together",
            figures: [
                Benchmark.Figure("calls", Double(requests)), Benchmark.Figure("minimum", Double(expected)),
                Benchmark.Figure("round trips", 1),
            ], goal: "= ⌈\(burstSize) / \(limit)⌉ = \(expected)",
            met: signedIn && answered == burstSize && requests == expected,
            note: notes.isEmpty ? nil : notes.joined(separator: "; "))
        return (row, expected, limit)
    }

    private static func has(_ lines: [TranscriptLine], _ callback: String, status: Int) -> Bool {
        lines.contains { $0.callback == callback && $0["status"] == .number(Double(status)) }
    }

    /// `"GET /api/v2/REF30/profiles/code/abc"` → `"GET profiles/code/…"`: short, and no codes.
    private static func pathShape(_ call: String) -> String {
        var parts = call.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return call }
        var segments = parts[1].split(separator: "/").map(String.init)
        if segments.starts(with: ["api", "v2"]) { segments.removeFirst(3) }
        if segments.count > 2, segments[0] == "profiles", segments[1] == "code" { segments[2] = "…" }
        parts[1] = segments.joined(separator: "/")
        return parts.joined(separator: " ")
    }
}
