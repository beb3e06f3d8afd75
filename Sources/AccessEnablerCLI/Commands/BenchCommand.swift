import AccessEnabler
import AccessEnablerBenchmarks
import AccessEnablerScenarios
import Foundation

/// `accessenabler bench`: the benchmark's figures, as a table or JSON.
enum BenchCommand {
    static let synopsis = CommandSynopsis(
        name: "bench", argument: nil,
        summary: "Measure round trips, CPU time, latency, scale and throughput against an embedded sandbox.",
        options: [
            .init(name: "--json", value: nil, summary: "print machine-readable figures"),
            .init(name: "--quick", value: nil, summary: "fewer iterations (for smoke tests)"),
            .init(name: "--only", value: "KEY", summary: "run one measurement (\(Benchmark.measurementKeys.joined(separator: ", ")))"),
            .init(name: "--driver", value: "FLOW", summary: "only run FLOW --count times, for callgrind or perf (\(InstructionCountDriver.flows.joined(separator: ", ")))"),
            .init(name: "--count", value: "N", summary: "rounds of the --driver flow (default 1000)"),
        ])

    static let help = """
    Usage: \(synopsis.usageLine)

    Measures, against an embedded PassSandbox:
      1. REST round trips per flow, next to the minimum the flow needs;
      2. CPU time the SDK spends per flow (in-process transport, median of many runs);
      3. end-to-end time of the SSO sign-in over loopback HTTP versus bare URLSession calls;
      4. 1,000 simulated devices signing in through SSO concurrently (completions/s, memory);
      5. sandbox requests per second on keep-alive connections.
    --json prints machine-readable figures; --quick uses fewer iterations (for smoke tests);
    --only KEY runs one measurement: \(Benchmark.measurementKeys.joined(separator: ", ")).
    --driver FLOW --count N runs one flow N times and nothing else, for counting its
    instructions under valgrind --tool=callgrind (flows: \(InstructionCountDriver.flows.joined(separator: ", "))).
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
        let only = parsed.values["--only"]
        if let only, !Benchmark.measurementKeys.contains(only) {
            printError("accessenabler bench: unknown measurement '\(only)'; expected one of \(Benchmark.measurementKeys.joined(separator: ", ")).\n\n\(help)")
            return 2
        }
        do {
            let report = try await Benchmark(quick: parsed.flags.contains("--quick")).run(only: only) { progress in
                if !parsed.flags.contains("--json") { printError(progress) }
            }
            print(parsed.flags.contains("--json") ? report.json : report.table)
            return 0
        } catch {
            printError("accessenabler bench: \(error)")
            return 1
        }
    }

    /// `--driver FLOW --count N`: the flow N times and nothing else (see ``InstructionCountDriver``).
    private static func runDriver(flow: String, count text: String?) async -> Int32 {
        guard InstructionCountDriver.flows.contains(flow) else {
            printError("accessenabler bench: unknown driver flow '\(flow)'; expected one of \(InstructionCountDriver.flows.joined(separator: ", ")).\n\n\(help)")
            return 2
        }
        guard let count = Int(text ?? "1000"), count >= 0 else {
            printError("accessenabler bench: --count needs a whole number of rounds, 0 or more; '\(text ?? "")' is not one.\n\n\(help)")
            return 2
        }
        let succeeded = await InstructionCountDriver.run(flow: flow, count: count) { printError($0) }
        return succeeded == count ? 0 : 1
    }
}
