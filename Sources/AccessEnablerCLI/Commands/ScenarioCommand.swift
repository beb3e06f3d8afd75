import AccessEnabler
import AccessEnablerScenarios
import Foundation

/// `accessenabler scenario FILE [--trace-http] [--in-process]`: exit 0 when every
/// expectation held, 1 when one failed, 2 for a bad file or bad usage.
enum ScenarioCommand {
    static let synopsis = CommandSynopsis(
        name: "scenario", argument: "FILE",
        summary: "Run a scenario file against a fresh embedded sandbox and print its transcript (JSON lines).",
        options: [
            .init(name: "--trace-http", value: nil, summary: "also print every REST/DCR call as it completes"),
            .init(
                name: "--in-process", value: nil,
                summary: "talk to the sandbox in-process instead of over loopback HTTP"),
        ])

    static let help = """
        Usage: \(synopsis.usageLine)

        Runs the scenario in FILE against a fresh embedded PassSandbox over loopback HTTP and
        prints its transcript, one JSON object per line. With --trace-http every REST/DCR call
        is printed too, as it completes. --in-process talks to the sandbox in-process instead of
        over HTTP (the same transcript, faster). Docs/scenarios/README.md describes the format.

        The transcript ends with what the sandbox's checklist monitor saw: a line
        {"checklist": RULE, "request": …, "detail": …} for each place the SDK broke Adobe's REST
        API V2 Checklist, then {"checklistViolations": N}; an "expect" entry
        {"checklistViolations": 0} requires a clean run.
        Every run ends with one line on standard error: "N expectations met", or "expectation
        $.expect[I] not met: …; closest line seen: …".

        Exit status: 0 when the scenario ran and every "expect" entry matched, 1 when an
        expectation failed, 2 when FILE is missing, is not JSON or is not a valid scenario (the
        message names the file and the JSON path at fault; a fault found only as the run reaches
        it, such as a second-screen login without the "mvpd" the page asks for, too), or when a
        step did not settle.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch CommandArguments(arguments, synopsis: synopsis, help: help) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        // The run's storage holds client credentials: Ctrl-C must not leave it behind.
        ScenarioScratch.removeAllOnInterrupt()
        let path = parsed.positionals[0]
        let scenario: Scenario
        do {
            let data = try InputFile.readJSON(path, as: .scenario).get()
            do {
                scenario = try ScenarioParser.parse(data)
            } catch {
                // The world inside a scenario is worded as a world file's would be.
                let inWorld =
                    error.path == "$.world" || error.path.hasPrefix("$.world.") || error.path.hasPrefix("$.world[")
                throw InputFile.invalid(path, .scenario, of: inWorld ? .world : .scenario, at: error.path, error.reason)
            }
        } catch {
            printError("accessenabler scenario: \((error as? InputFile.Problem)?.message ?? "\(error)")")
            return 2
        }
        let runner = ScenarioRunner(
            scenario: scenario, wire: parsed.flags.contains("--in-process") ? .inProcess : .loopbackHTTP,
            traceHTTP: parsed.flags.contains("--trace-http"), observer: { print($0.json) })
        do {
            let result = try await runner.run()
            printError("accessenabler scenario: \(result.summary)")
            return result.passed ? 0 : 1
        } catch let error as ScenarioError {
            // Found only as the run reached it (a second-screen login that needs an `mvpd`):
            // worded as the file's other faults are.
            printError(
                "accessenabler scenario: \(InputFile.invalid(path, .scenario, of: .scenario, at: error.path, error.reason).message)"
            )
            return 2
        } catch {
            printError("accessenabler scenario: the scenario could not run: \(error)")
            return 2
        }
    }
}
