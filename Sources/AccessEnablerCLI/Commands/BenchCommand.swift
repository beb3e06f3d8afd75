import AccessEnabler
import AccessEnablerBenchmarks
import AccessEnablerScenarios
import Foundation

/// `accessenabler bench`: the benchmark's figures, as a table or JSON.
enum BenchCommand {
    static let synopsis = CommandSynopsis(
        name: "bench", argument: nil,
        summary:
            "Measure round trips, CPU time, latency, scale, throughput, throttling, WAN latency and CPU while waiting against an embedded sandbox.",
        options: [
            .init(name: "--json", value: nil, summary: "print machine-readable figures"),
            .init(name: "--quick", value: nil, summary: "fewer iterations (for smoke tests)"),
            .init(
                name: "--devices", value: "N",
                summary: "devices in the wave that signs in at once (default \(Benchmark.defaultDevices))"),
            .init(
                name: "--repeat", value: "N",
                summary: "run the SSO latency measurement N times and report the range of its ratio (default 1)"),
            .init(
                name: "--only", value: "KEY",
                summary: "run one measurement (\(Benchmark.measurementKeys.joined(separator: ", ")))"),
            .init(
                name: "--driver", value: "FLOW",
                summary: "only run FLOW --count times, for callgrind or perf (\(driverFlows.joined(separator: ", ")))"),
            .init(name: "--count", value: "N", summary: "rounds of the --driver flow (default 1000)"),
            .init(
                name: "--soak", value: "MINUTES",
                summary: "only run one app against the sandbox over loopback HTTP for MINUTES, sampling resident memory"
            ),
        ])

    /// What `--driver` runs: the SDK's flows, the bare yardsticks, the floor and the
    /// authorization burst.
    static let driverFlows =
        InstructionCountDriver.flows + [BareSignInDriver.flow] + FloorDriver.flows + CurlSignInDriver.flows
        + [AuthorizationBurstDriver.flow]

    static let help = """
        Usage: \(synopsis.usageLine)

        Measures, against an embedded PassSandbox, and reports each figure next to its goal:
          1. REST round trips per flow, next to the minimum the flow needs, and the polls a
             second-screen sign-in costs;
          2. CPU time the SDK spends per flow (in-process transport, median of many runs);
          3. the partner SSO sign-in over loopback HTTP against bare URLSession calls;
          4. \(Benchmark.defaultDevices) simulated devices signing in through SSO at once (sign-ins/s, when
             they finished, memory per device);
          5. sandbox requests per second on keep-alive connections;
          6. one device's flows with Adobe's throttling on (429s received);
          7. the flows with 50 ms added to every round trip, in round trips (wanLatency);
          8. the CPU used while one request waits for a server that never answers (waiting).
        Goals with a floor measured in the same run (checkAuthentication's floor program,
        the bare URLSession client) are ratios to it.
        --json prints machine-readable figures; --quick uses fewer iterations (for smoke tests);
        --devices N sets the size of the wave in 4; --repeat N runs 3 N times and reports the
        range of its ratio (with --only ssoLatency: the range over N runs); --only KEY runs one measurement:
        \(Benchmark.measurementKeys.joined(separator: ", ")).
        --driver FLOW --count N runs one flow N times and nothing else, for counting its
        instructions under valgrind --tool=callgrind (flows: \(driverFlows.joined(separator: ", "))).
        --soak MINUTES runs nothing else: one app signs in and out over loopback HTTP against
        a sandbox in a process of its own, with every kind of call in between, for MINUTES
        minutes, and the app process's resident memory is read every 10 s (a leak shows as
        growth after the first minutes; see Docs/Robustness.md).
        Goals are reported next to what was measured; nothing is asserted.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch CommandArguments(arguments, synopsis: synopsis, help: help) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        if let flow = parsed.values["--driver"] {
            return await runDriver(flow: flow, count: parsed.values["--count"])
        }
        if let minutes = parsed.values["--soak"] {
            return await runSoak(minutes: minutes)
        }
        let only = parsed.values["--only"]
        var devices: Int?
        if let text = parsed.values["--devices"] {
            guard let number = Int(text), number >= 1 else {
                printError(
                    "accessenabler bench: --devices needs a whole number of devices, 1 or more; '\(text)' is not one.\n\n\(help)"
                )
                return 2
            }
            devices = number
        }
        var repeats = 1
        if let text = parsed.values["--repeat"] {
            guard let number = Int(text), number >= 1 else {
                printError(
                    "accessenabler bench: --repeat needs a whole number of runs, 1 or more; '\(text)' is not one.\n\n\(help)"
                )
                return 2
            }
            repeats = number
        }
        if let only, !Benchmark.measurementKeys.contains(only) {
            printError(
                "accessenabler bench: unknown measurement '\(only)'; expected one of \(Benchmark.measurementKeys.joined(separator: ", ")).\n\n\(help)"
            )
            return 2
        }
        do {
            let report = try await Benchmark(
                quick: parsed.flags.contains("--quick"), devices: devices, repeats: repeats
            ).run(only: only) { progress in
                if !parsed.flags.contains("--json") { printError(progress) }
            }
            print(parsed.flags.contains("--json") ? report.json : report.table)
            return 0
        } catch {
            printError("accessenabler bench: \(error)")
            return 1
        }
    }

    /// `--soak MINUTES`: one app against the sandbox (in a process of its own) for that long,
    /// resident memory sampled every 10 s (see ``Soak``). Fails when a round did not end as a
    /// healthy round does.
    private static func runSoak(minutes text: String) async -> Int32 {
        guard let minutes = Double(text), minutes > 0, minutes <= 24 * 60 else {
            printError(
                "accessenabler bench: --soak needs a number of minutes above 0, at most a day; '\(text)' is not one.\n\n\(help)"
            )
            return 2
        }
        do {
            let sandbox = try SoakSandboxProcess()
            defer { sandbox.stop() }
            let result = try await Soak(duration: minutes * 60, sandboxURL: sandbox.baseURL).run { printError($0) }
            print(result.summary)
            return result.roundsAsExpected == result.rounds ? 0 : 1
        } catch {
            printError("accessenabler bench: \(error)")
            return 1
        }
    }

    /// `--driver FLOW --count N`: the flow N times and nothing else (see ``InstructionCountDriver``
    /// and ``BareSignInDriver``).
    private static func runDriver(flow: String, count text: String?) async -> Int32 {
        guard driverFlows.contains(flow) else {
            printError(
                "accessenabler bench: unknown driver flow '\(flow)'; expected one of \(driverFlows.joined(separator: ", ")).\n\n\(help)"
            )
            return 2
        }
        guard let count = Int(text ?? "1000"), count >= 0 else {
            printError(
                "accessenabler bench: --count needs a whole number of rounds, 0 or more; '\(text ?? "")' is not one.\n\n\(help)"
            )
            return 2
        }
        let report: @Sendable (String) -> Void = { printError($0) }
        let succeeded: Int
        if flow == BareSignInDriver.flow {
            succeeded = await BareSignInDriver.run(count: count, report: report)
        } else if FloorDriver.flows.contains(flow) {
            succeeded = await FloorDriver.run(flow: flow, count: count, report: report)
        } else if CurlSignInDriver.flows.contains(flow) {
            succeeded = await CurlSignInDriver.run(flow: flow, count: count, report: report)
        } else if flow == AuthorizationBurstDriver.flow {
            succeeded = await AuthorizationBurstDriver.run(count: count, report: report)
        } else {
            succeeded = await InstructionCountDriver.run(flow: flow, count: count, report: report)
        }
        return succeeded == count ? 0 : 1
    }
}
