import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Dispatches the sub-commands and owns their help texts and exit codes.
enum CommandLineTool {
    static let usage = """
    accessenabler — AccessEnabler for Linux: the legacy AccessEnabler SDK on Adobe Pass REST API V2.

    Usage:
      accessenabler demo [--json] [--trace-http]       Walk the Apple SSO cookbook against an embedded sandbox.
      accessenabler scenario FILE [--trace-http]       Run a scenario file and print its transcript (JSON lines).
      accessenabler sandbox [--port N] [--world FILE]  Serve PassSandbox on loopback until interrupted.
      accessenabler bench [--json] [--quick]           Measure round trips, CPU time, latency, scale and throughput.

    Run `accessenabler COMMAND --help` for one command's details.
    """

    static func run(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            printError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help":
            print(usage)
            return 0
        case "demo": return await DemoCommand.run(rest)
        case "scenario": return await ScenarioCommand.run(rest)
        case "sandbox": return await SandboxCommand.run(rest)
        case "bench": return await BenchCommand.run(rest)
        default:
            printError("accessenabler: unknown command '\(command)'.\n\n\(usage)")
            return 2
        }
    }
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// What a sub-command's arguments said: either parsed options to run with, or the exit
/// code to end with (help printed, or misuse explained).
enum CommandArguments {
    case run(ParsedArguments)
    case exit(Int32)

    /// Parses `arguments` for `command`: `--help`/`-h` prints `help` (exit 0); an unknown
    /// option, a missing value or the wrong number of positional arguments prints the
    /// problem and `help` to standard error (exit 2).
    init(_ arguments: [String], command: String, help: String, flags: Set<String> = [], options: Set<String> = [], positionals: ClosedRange<Int> = 0...0) {
        let (parsed, problem) = ParsedArguments.parse(arguments, flags: flags.union(["--help", "-h"]), options: options)
        guard let parsed else {
            printError("accessenabler \(command): \(problem ?? "bad arguments")\n\n\(help)")
            self = .exit(2)
            return
        }
        if parsed.flags.contains("--help") || parsed.flags.contains("-h") {
            print(help)
            self = .exit(0)
            return
        }
        guard positionals.contains(parsed.positionals.count) else {
            let problem = parsed.positionals.count > positionals.upperBound
                ? "unexpected argument \(parsed.positionals[positionals.upperBound])"
                : "missing argument"
            printError("accessenabler \(command): \(problem).\n\n\(help)")
            self = .exit(2)
            return
        }
        self = .run(parsed)
    }
}

/// Parses `--flag` and `--option VALUE` arguments against what a command accepts.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []

    /// `nil` and a message when an argument is unknown or an option lacks its value.
    static func parse(_ arguments: [String], flags: Set<String>, options: Set<String>) -> (ParsedArguments?, String?) {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if flags.contains(argument) {
                parsed.flags.insert(argument)
            } else if options.contains(argument) {
                guard index + 1 < arguments.count else { return (nil, "\(argument) needs a value") }
                parsed.values[argument] = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("-") {
                return (nil, "unknown option \(argument)")
            } else {
                parsed.positionals.append(argument)
            }
            index += 1
        }
        return (parsed, nil)
    }
}
