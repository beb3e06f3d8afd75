import Foundation

/// What one command accepts, written once: its usage line, its entry in the top-level
/// usage and its argument parsing all come from here, so no option can be accepted
/// without being listed.
struct CommandSynopsis: Sendable {
    /// An option: a flag (`--json`) or an option with a value (`--port N`).
    struct Option: Sendable {
        /// `--json`.
        var name: String
        /// What the value is called (`N`, `FILE`), or `nil` for a flag.
        var value: String?
        /// One line: what it does.
        var summary: String

        /// `--port N` or `--json`.
        var usage: String { value.map { "\(name) \($0)" } ?? name }
    }

    /// The command's name (`demo`).
    var name: String
    /// The positional argument's name (`FILE`), if the command takes one.
    var argument: String?
    /// One line: what the command does.
    var summary: String
    /// Every option it accepts (besides `--help`).
    var options: [Option]

    /// `accessenabler sandbox [--port N] [--world FILE]`.
    var usageLine: String {
        (["accessenabler", name] + (argument.map { [$0] } ?? []) + options.map { "[\($0.usage)]" }).joined(
            separator: " ")
    }

    /// The options that take no value.
    var flags: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }
    /// The options that take a value.
    var valueOptions: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }

    /// The command's entry in the top-level usage: its usage line, summary and options.
    var usageEntry: [String] {
        let width = options.map(\.usage.count).max() ?? 0
        return ["  \(usageLine)", "      \(summary)"]
            + options.map { "      \($0.usage.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
    }
}
