import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A headless Chromium started for one test, speaking the DevTools protocol over two pipes
/// (`--remote-debugging-pipe`: it reads commands on descriptor 3, writes on 4), with a
/// temporary profile of its own.
///
/// It runs in a process group of its own, so ``terminate()`` ends the browser and every
/// helper process it started, then removes the profile. Chromium also quits by itself
/// when its pipes close, so a test process that dies does not leave a browser behind.
final class ChromiumProcess: @unchecked Sendable {
    /// The process id (also the process group id).
    let pid: pid_t
    /// Write end: commands to the browser.
    let commandDescriptor: Int32
    /// Read end: answers and events from the browser.
    let replyDescriptor: Int32
    /// The temporary profile (removed by ``terminate()``).
    let profileDirectory: URL
    /// Where the browser's own output goes, for error messages.
    let logFile: URL

    private let lock = NSLock()
    private var terminated = false
    /// Set once a reader took over ``replyDescriptor`` (it then closes it itself).
    private var replyDescriptorTaken = false

    /// The first Chromium found on `PATH` (`chromium`, `chromium-browser`, `google-chrome`),
    /// or `nil`.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Starts `executable` headless with a new temporary profile and the DevTools pipes.
    init(executable: String, windowSize: (width: Int, height: Int)) throws(BrowserError) {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headless-browser-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: profile, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .launchFailed("cannot create the temporary profile \(profile.path): \(error)")
        }
        profileDirectory = profile
        logFile = profile.appendingPathComponent("browser-output.log")

        var arguments = [
            executable,
            "--headless=new",
            "--remote-debugging-pipe",
            "--user-data-dir=\(profile.path)",
            "--no-first-run", "--no-default-browser-check",
            "--disable-gpu", "--disable-dev-shm-usage", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--disable-features=Translate,MediaRouter,OptimizationHints",
            "--no-proxy-server", "--password-store=basic", "--mute-audio", "--hide-scrollbars",
            "--force-color-profile=srgb", "--lang=en-US",
            "--window-size=\(windowSize.width),\(windowSize.height)",
        ]
        // Chromium refuses to start its sandbox as root (containers, CI); the pages it
        // loads here are the test's own.
        if geteuid() == 0 { arguments.append("--no-sandbox") }
        arguments.append("about:blank")

        // Two pipes, moved above descriptor 4 so that placing them on 3 and 4 in the child
        // never collides with where they already are.
        var toBrowser: [Int32] = [-1, -1]
        var fromBrowser: [Int32] = [-1, -1]
        guard Self.highPipe(&toBrowser), Self.highPipe(&fromBrowser) else {
            for fd in toBrowser + fromBrowser where fd >= 0 { close(fd) }
            try? FileManager.default.removeItem(at: profile)
            throw .launchFailed("cannot create pipes: \(String(cString: strerror(errno)))")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)

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
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard status == 0 else {
            close(toBrowser[1])
            close(fromBrowser[0])
            try? FileManager.default.removeItem(at: profile)
            throw .launchFailed("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        commandDescriptor = toBrowser[1]
        replyDescriptor = fromBrowser[0]
    }

    deinit { terminate() }

    /// Kills the browser's process group, reaps it, closes the pipes and removes the
    /// temporary profile. Safe to call more than once.
    func terminate() {
        let first: Bool = lock.withLock {
            defer { terminated = true }
            return !terminated
        }
        guard first else { return }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        close(commandDescriptor)
        if !lock.withLock({ replyDescriptorTaken }) { close(replyDescriptor) }
        try? FileManager.default.removeItem(at: profileDirectory)
    }

    /// Hands ``replyDescriptor`` to a reader, which from then on closes it (a descriptor
    /// closed under a blocked reader could be reused by another file).
    func takeReplyDescriptor() -> Int32 {
        lock.withLock { replyDescriptorTaken = true }
        return replyDescriptor
    }

    /// The last lines the browser printed (for an error message).
    func outputTail(maximumCharacters: Int = 1_500) -> String {
        guard let data = FileManager.default.contents(atPath: logFile.path) else { return "" }
        let text = String(decoding: data, as: UTF8.self)
        return String(text.suffix(maximumCharacters))
    }

    /// A close-on-exec pipe whose two descriptors are both above 4.
    private static func highPipe(_ fds: inout [Int32]) -> Bool {
        var raw: [Int32] = [-1, -1]
        // (`pipe2` is not visible from Swift; the unflagged descriptors live only until the
        // close-on-exec copies below replace them.)
        guard pipe(&raw) == 0 else { return false }
        let moved = raw.map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
        for fd in raw { close(fd) }
        guard moved.allSatisfy({ $0 >= 0 }) else {
            for fd in moved where fd >= 0 { close(fd) }
            return false
        }
        fds = moved
        return true
    }
}
