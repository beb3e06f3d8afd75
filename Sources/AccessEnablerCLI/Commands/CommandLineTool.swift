import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Dispatches the sub-commands and owns the top-level usage, `--version` and exit codes.
enum CommandLineTool {
    /// Every command, in the order the usage lists them.
    static let commands: [CommandSynopsis] = [
        DemoCommand.synopsis, ScenarioCommand.synopsis, SandboxCommand.synopsis, BenchCommand.synopsis,
        ProviderServiceCommand.synopsis,
    ]

    /// `accessenabler --help`: every command with every option.
    static var usage: String {
        var lines = [
            "accessenabler — AccessEnabler for Linux: the legacy AccessEnabler iOS/tvOS SDK on Adobe Pass REST API V2.",
            "",
            "Usage: accessenabler COMMAND [ARGUMENTS]",
            "",
            "Commands:",
        ]
        for command in commands { lines += command.usageEntry + [""] }
        lines += [
            "Other options:",
            "  accessenabler --version   print the SDK version",
            "  accessenabler --help      print this help (-h and help work too)",
            "",
            "Run `accessenabler COMMAND --help` for one command's details.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `accessenabler --version`.
    static var version: String { "accessenabler (AccessEnabler for Linux), SDK version \(AccessEnabler.getVersion())" }

    static func run(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            printError("accessenabler: a command is needed.\n\n\(usage)")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help":
            print(usage)
            return 0
        case "--version":
            print(version)
            return 0
        case "demo": return await DemoCommand.run(rest)
        case "scenario": return await ScenarioCommand.run(rest)
        case "sandbox": return await SandboxCommand.run(rest)
        case "bench": return await BenchCommand.run(rest)
        case "provider-service": return await ProviderServiceCommand.run(rest)
        // One app of a device beside the provider service, for the demo and the tests; not in the usage.
        case "provider-app": return await ProviderAppCommand.run(rest)
        default:
            let kind = command.hasPrefix("-") ? "option" : "command"
            printError("accessenabler: unknown \(kind) '\(command)'.\n\n\(usage)")
            return 2
        }
    }
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
