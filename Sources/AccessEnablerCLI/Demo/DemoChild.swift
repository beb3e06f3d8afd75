import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process of the demo (`accessenabler provider-service`, `accessenabler
/// provider-app`): lines written to its standard input, its standard output collected as
/// lines, its standard error passed through. Started with `posix_spawn` (Foundation's
/// `Process` on Linux can crash while listing the parent's open descriptors).
final class DemoChild: @unchecked Sendable {
    /// Why a child could not do what the demo waited for.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let name: String
    let pid: pid_t
    private let input: Int32
    private let condition = NSCondition()
    private var output: [String] = []
    private var ended = false

    /// The path of this very executable, to start it again with another command.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Starts `accessenabler ARGUMENTS` as `name`.
    init(_ name: String, arguments: [String]) throws(Failure) {
        self.name = name
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0, pipe(&outputPipe) == 0 else {
            throw Failure(description: "\(name): cannot create pipes")
        }
        for descriptor in inputPipe + outputPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        // Nothing else is inherited: not the sandbox's listening socket, not another child's pipe.
        let open =
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) }.max() ?? 3
        for descriptor in 3...max(open, 3) + 64 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let path = Self.executable
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(inputPipe[0])
        close(outputPipe[1])
        guard status == 0 else {
            close(inputPipe[1])
            close(outputPipe[0])
            throw Failure(description: "\(name): cannot start \(path): \(String(cString: strerror(status)))")
        }
        pid = child
        input = inputPipe[1]
        let reader = Thread { [self, descriptor = outputPipe[0]] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    condition.withLock {
                        output.append(line)
                        condition.broadcast()
                    }
                }
            }
            close(descriptor)
            condition.withLock {
                ended = true
                condition.broadcast()
            }
        }
        reader.start()
    }

    /// Writes `line` and a newline to the child's standard input.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// The lines from `index` on, once one of them satisfies `done` (or after `seconds`,
    /// or when the child's output ended: then `Failure`).
    func lines(from index: Int, until done: (String) -> Bool, seconds: TimeInterval = 120) throws(Failure) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let fresh = Array(output.dropFirst(index))
            if let end = fresh.firstIndex(where: done) { return Array(fresh[...end]) }
            guard !ended, condition.wait(until: deadline) || Date() < deadline else {
                throw Failure(
                    description:
                        "\(name) did not get there; its last lines: \(output.suffix(5).joined(separator: " | "))")
            }
        }
    }

    /// How many lines the child has written so far.
    var lineCount: Int { condition.withLock { output.count } }

    /// Ends the child: standard input closed (an app ends with it), then SIGTERM — at once with
    /// `terminate` (the service stops on it), else if it still runs a few seconds later — and
    /// reaped.
    func stop(terminate: Bool = false) {
        close(input)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(terminate ? 0 : 5)
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGTERM)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}
