import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A child process with its standard output and error collected as they arrive.
///
/// Started with `posix_spawn` rather than Foundation's `Process`: on Linux, Swift 6.3's
/// `Process.run()` lists `/proc/self/fd` with a fixed-size copy of each directory entry
/// that can read past the end of glibc's buffer and crash the test process (fixed upstream
/// in swift-corelibs-foundation after 6.3.1). The child gets standard input from
/// `/dev/null` (or a pipe holding `input`, then its end), two pipes for its output, default signal handling, and no other inherited
/// descriptor (so it never keeps a test's listening socket or another child's pipe open).
final class RunningCommand: @unchecked Sendable {
    /// How the child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    enum CommandError: Error {
        case launchFailed(String)
        case noOutput(marker: String, output: String, errors: String)
        case stillRunning
    }

    private let pid: pid_t
    /// The write end of the child's standard input, with `keepInputOpen`.
    private var inputWriter: Int32 = -1
    private let lock = NSLock()
    private var stdout = Data()
    private var stderr = Data()
    private var ending: Ending?
    private var openStreams = 2

    /// Starts `executable`; with `input`, its standard input reads those bytes, then ends
    /// (at most 64 KiB, what a pipe holds without a reader). `environment` adds to (or
    /// replaces in) this process's environment.
    init(
        _ executable: URL, _ arguments: [String], input: Data? = nil, keepInputOpen: Bool = false,
        environment: [String: String] = [:]
    ) throws {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        var inputPipe: [Int32] = [-1, -1]
        // Close-on-exec at once, so no other child started meanwhile keeps a write end open.
        let pipedInput = input != nil || keepInputOpen
        guard Self.closeOnExecPipe(&outputPipe), Self.closeOnExecPipe(&errorPipe),
            !pipedInput || Self.closeOnExecPipe(&inputPipe)
        else {
            for fd in outputPipe + errorPipe + inputPipe where fd >= 0 { close(fd) }
            throw CommandError.launchFailed("cannot create pipes: \(String(cString: strerror(errno)))")
        }
        if let input {
            precondition(input.count <= 65_536, "more input than a pipe holds")
            let written = input.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count) }
            close(inputPipe[1])
            guard written == input.count else {
                for fd in outputPipe + errorPipe + [inputPipe[0]] { close(fd) }
                throw CommandError.launchFailed("cannot write the input: \(String(cString: strerror(errno)))")
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if pipedInput {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        // Close whatever else is open (listing /proc/self/fd through FileManager, which reads
        // entries safely); the margin covers descriptors other threads open meanwhile. glibc
        // ignores closing a descriptor that is not open.
        for fd in 3...(Self.highestOpenDescriptor() + 64) {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let path = executable.path
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var child: pid_t = 0
        let status =
            environment.isEmpty
            ? posix_spawn(&child, path, &actions, &attributes, argv, environ)
            : posix_spawn(&child, path, &actions, &attributes, argv, envp)
        close(outputPipe[1])
        close(errorPipe[1])
        if pipedInput { close(inputPipe[0]) }
        guard status == 0 else {
            if keepInputOpen { close(inputPipe[1]) }
            close(outputPipe[0])
            close(errorPipe[0])
            throw CommandError.launchFailed("cannot start \(path): \(String(cString: strerror(status)))")
        }
        pid = child
        if keepInputOpen { inputWriter = inputPipe[1] }
        collect(outputPipe[0]) { $0.stdout.append($1) }
        collect(errorPipe[0]) { $0.stderr.append($1) }
    }

    deinit {
        closeInput()
        stopForcefully()
    }

    /// Writes `text` to the child's standard input (started with `keepInputOpen`).
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        lock.withLock {
            guard inputWriter >= 0 else { return }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(inputWriter, $0.baseAddress! + written, $0.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                written += count
            }
        }
    }

    /// Ends the child's standard input.
    func closeInput() {
        lock.withLock {
            if inputWriter >= 0 { close(inputWriter) }
            inputWriter = -1
        }
    }

    var output: String { lock.withLock { String(decoding: stdout, as: UTF8.self) } }
    var errors: String { lock.withLock { String(decoding: stderr, as: UTF8.self) } }

    /// `true` until the child has ended (reaps it when it has).
    var isRunning: Bool {
        lock.withLock {
            if ending != nil { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            ending = Self.ending(status)
            return false
        }
    }

    /// Waits (polling, bounded) until standard output contains `marker`; returns it all.
    func waitForOutput(containing marker: String, timeout: TimeInterval) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = output
            if text.contains(marker) { return text }
            if !isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CommandError.noOutput(marker: marker, output: output, errors: errors)
    }

    /// Waits (polling, bounded) for the process to end and for its output to be read to
    /// the end; returns its exit status.
    func waitForExit(timeout: TimeInterval) async throws -> Int32 {
        let ending = try await waitForEnding(timeout: timeout)
        guard case .exited(let status) = ending else {
            Issue.record("the command did not exit normally: \(String(describing: ending))")
            return -1
        }
        return status
    }

    /// Waits (polling, bounded) for the process to end — by exiting or by a signal — and
    /// for its output to be read to the end; returns how it ended.
    func waitForEnding(timeout: TimeInterval) async throws -> Ending? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            guard Date() < deadline else { throw CommandError.stillRunning }
            try await Task.sleep(for: .milliseconds(20))
        }
        // What it wrote last is still in the pipes; a descriptor some other process holds
        // on to must not hold the test up for long.
        let drained = Date().addingTimeInterval(10)
        while lock.withLock({ openStreams > 0 }) && Date() < drained {
            try await Task.sleep(for: .milliseconds(10))
        }
        return lock.withLock { self.ending }
    }

    /// The child's process id.
    var processIdentifier: Int32 { pid }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() {
        if isRunning { kill(pid, SIGINT) }
    }

    /// Ends the child as it ends by itself — its input closed, then `signal` if given — and
    /// waits up to `seconds` for it to exit (writing what it recorded, its coverage included),
    /// killing it only then.
    func stopGracefully(signal: Int32? = nil, within seconds: TimeInterval = 10) {
        closeInput()
        if let signal, isRunning { kill(pid, signal) }
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(10_000) }
        stopForcefully()
    }

    /// Kills the process if a failed test left it running, and reaps it.
    func stopForcefully() {
        guard isRunning else { return }
        kill(pid, SIGKILL)
        lock.withLock {
            guard ending == nil else { return }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            ending = Self.ending(status)
        }
    }

    /// Reads `descriptor` to its end on a thread of its own, handing each chunk to `append`.
    private func collect(_ descriptor: Int32, into append: @escaping @Sendable (RunningCommand, Data) -> Void) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let chunk = Data(buffer[0..<count])
                lock.withLock { append(self, chunk) }
            }
            close(descriptor)
            lock.withLock { openStreams -= 1 }
        }
        thread.start()
    }

    private static func ending(_ status: Int32) -> Ending {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    private static func closeOnExecPipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        return descriptors.allSatisfy { fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }
    }

    private static func highestOpenDescriptor() -> Int32 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let highest = names.compactMap { Int32($0) }.max() ?? 0
        return max(highest, 3)
    }
}
