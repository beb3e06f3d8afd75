import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a command to its end on a thread of its own, bounded in time, and collects its
/// standard output.
///
/// Started with `posix_spawn` (Foundation's `Process` on Linux can crash the process while
/// listing its open descriptors), in a process group of its own so that a command that
/// overstays is killed with everything it started; standard input is `/dev/null`, standard
/// error the service's, and nothing else is inherited.
package enum ChildProcess {
    /// How a command ended.
    package enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
        /// It overstayed its time and was killed.
        case timedOut
        /// It could not be started.
        case notStarted(String)
    }

    /// The most output kept.
    static let maximumOutput = 64 * 1024

    /// Runs `arguments` (the first is the executable's path) with `environment` added to this
    /// process's, for at most `timeout` seconds.
    package static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval) async
        -> (Ending, String)
    {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: runBlocking(arguments, environment: environment, timeout: timeout))
            }
            thread.name = "accessenabler.child-process"
            thread.start()
        }
    }

    private static func runBlocking(_ arguments: [String], environment: [String: String], timeout: TimeInterval) -> (
        Ending, String
    ) {
        var output: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else {
            return (.notStarted("cannot create a pipe: \(String(cString: strerror(errno)))"), "")
        }
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(output[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        // Nothing else goes to the command: not a client's socket, not the listening one.
        for descriptor in 3...highestOpenDescriptor() + 64 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        close(output[1])
        guard status == 0 else {
            close(output[0])
            return (.notStarted("cannot start \(arguments[0]): \(String(cString: strerror(status)))"), "")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var open = true
        while open, Date() < deadline {
            var descriptor = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(1, min(1_000, deadline.timeIntervalSinceNow * 1_000)))
            let ready = poll(&descriptor, 1, wait)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                open = false
            } else if collected.count < maximumOutput {
                collected += buffer[0..<min(count, maximumOutput - collected.count)]
            }
        }
        close(output[0])
        let text = String(decoding: collected, as: UTF8.self)
        // The output closed: the command is ending; give it until the deadline to exit.
        var waitStatus: Int32 = 0
        while true {
            let reaped = waitpid(child, &waitStatus, WNOHANG)
            if reaped == child { break }
            if reaped < 0, errno != EINTR { return (.notStarted("cannot wait for \(arguments[0])"), text) }
            if Date() >= deadline {
                kill(-child, SIGKILL)
                while waitpid(child, &waitStatus, 0) < 0, errno == EINTR {}
                return (.timedOut, text)
            }
            usleep(10_000)
        }
        let signal = waitStatus & 0x7f
        return (signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signalled(signal), text)
    }

    /// The highest descriptor open now (listing `/proc/self/fd`), at least 3.
    private static func highestOpenDescriptor() -> Int32 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return max(names.compactMap { Int32($0) }.max() ?? 0, 3)
    }
}
