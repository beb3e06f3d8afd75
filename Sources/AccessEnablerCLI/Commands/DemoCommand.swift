import AccessEnabler
import AccessEnablerScenarios
import Foundation

/// `accessenabler demo`: the Apple SSO cookbook against an embedded sandbox on loopback.
enum DemoCommand {
    static let help = """
    Usage: accessenabler demo [--json] [--trace-http]

    Starts PassSandbox on a free loopback port and walks the Apple SSO cookbook: silent
    sign-in at setRequestor, checkAuthentication, tokenSource, authorization and
    preauthorization, logout with VSA203, the picker and each of its fallbacks, a regular
    MVPD login through the login page, and a regular logout. Each callback is printed as it
    arrives. With --json the output is the scenario transcript format (one JSON object per
    line). Nothing is left running afterwards.
    """

    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch CommandArguments(arguments, command: "demo", help: help, flags: ["--json", "--trace-http"]) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        let json = parsed.flags.contains("--json")
        let (scenario, captions) = DemoScript.make()
        let captionByStep = Dictionary(captions.map { ($0.beforeStep, $0.text) }, uniquingKeysWith: { a, _ in a })
        if !json {
            print("AccessEnabler for Linux — the Apple SSO cookbook, end to end against an embedded PassSandbox.")
            print("Requestor REF30; the app calls ▶, the SDK answers ←, advanced statuses ⓘ.\n")
        }
        let runner = ScenarioRunner(scenario: scenario, wire: .loopbackHTTP, traceHTTP: parsed.flags.contains("--trace-http")) { line in
            if json {
                print(line.json)
                return
            }
            if case .number(let index) = line["step"] {
                let step = Int(index)
                if let caption = captionByStep[step] { print("\n\(caption)") }
                if scenario.steps.indices.contains(step) {
                    print("  ▶ \(scenario.steps[step].summary)")
                    return
                }
            }
            print(HumanTranscriptFormatter.render(line))
        }
        do {
            _ = try await runner.run()
            if !json { print("\nDone: every callback above came from the SDK talking REST API V2 to the sandbox over loopback HTTP.") }
            return 0
        } catch {
            printError("accessenabler demo: \(error)")
            return 1
        }
    }
}
