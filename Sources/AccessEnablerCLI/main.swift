import Foundation

// accessenabler: demo, scenario, sandbox, bench. See `accessenabler --help`.
let exitCode = await CommandLineTool.run(Array(CommandLine.arguments.dropFirst()))
exit(exitCode)
