import Foundation

// accessenabler: demo, scenario, sandbox, bench. See `accessenabler --help`.
//
// The command runs in a detached task while the main thread waits on a semaphore. Nothing
// here uses the main queue, and a main thread parked in dispatchMain (where top-level
// `await` leaves it) makes valgrind 3.19 crash on its sigsuspend, which would rule out
// counting the benchmark driver's instructions with callgrind.
final class ExitCode: @unchecked Sendable { var value: Int32 = 0 }
let exitCode = ExitCode()
let finished = DispatchSemaphore(value: 0)
let arguments = Array(CommandLine.arguments.dropFirst())
Task.detached {
    exitCode.value = await CommandLineTool.run(arguments)
    finished.signal()
}
finished.wait()
exit(exitCode.value)
