import Foundation

/// What a sub-command's arguments said: either parsed options to run with, or the exit
/// code to end with (help printed, or misuse explained).
enum CommandArguments {
    case run(ParsedArguments)
    case exit(Int32)

    /// Parses `arguments` for the command `synopsis` describes: `--help`/`-h` prints `help`
    /// (exit 0); an unknown option, a missing value or the wrong number of positional
    /// arguments prints the problem and `help` to standard error (exit 2).
    init(_ arguments: [String], synopsis: CommandSynopsis, help: String) {
        let command = synopsis.name
        let (parsed, problem) = ParsedArguments.parse(
            arguments, flags: synopsis.flags.union(["--help", "-h"]), options: synopsis.valueOptions)
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
        let expected = synopsis.argument == nil ? 0...0 : 1...1
        guard expected.contains(parsed.positionals.count) else {
            let problem =
                parsed.positionals.count > expected.upperBound
                ? "unexpected argument \(parsed.positionals[expected.upperBound])"
                : "missing argument \(synopsis.argument ?? "")"
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
