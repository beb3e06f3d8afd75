import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The temporary storage directories of scenario runs: they hold DCR client credentials
/// and access tokens, so none may outlive its run.
///
/// Each directory's name carries the process id (`accessenabler-scenario-<pid>-<uuid>`).
/// A run removes its own at the end; ``removeAllOnInterrupt()`` makes Ctrl-C and `kill`
/// remove them too; and every new run first removes those left by processes that no
/// longer exist (a run killed with SIGKILL, a crash).
public enum ScenarioScratch {
    static let prefix = "accessenabler-scenario-"
    private static let live = NSLockedDirectories()

    /// A new directory for one run, registered for removal.
    static func makeDirectory() -> URL {
        removeOrphans()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)\(getpid())-\(UUID().uuidString)")
        live.insert(url)
        return url
    }

    /// Removes `url` and forgets it.
    static func remove(_ url: URL) {
        removeForGood(url)
        live.remove(url)
    }

    /// Removes `url` even while the SDK's write queue may still be writing into it.
    ///
    /// Removing a directory's files one by one loses a race with a writer that adds one
    /// meanwhile: the final `rmdir` then fails and credentials stay on disk. So the directory
    /// is first renamed in one step (keeping the prefix and process id, so a crash still
    /// leaves it to the orphan sweep); a writer holding the old path can no longer add to it,
    /// and the few writes already under way are outlasted by trying the removal again.
    private static func removeForGood(_ url: URL) {
        let doomed = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent)-removing")
        let target = rename(url.path, doomed.path) == 0 ? doomed : url
        for _ in 0..<20 {
            try? FileManager.default.removeItem(at: target)
            guard FileManager.default.fileExists(atPath: target.path) else { return }
            usleep(5_000)
        }
    }

    /// The directories of runs in progress in this process.
    public static var directoriesInUse: [URL] { live.all }

    /// Installs SIGINT and SIGTERM handlers that remove every directory in use, then end
    /// the process with the conventional status (130 for SIGINT, 143 for SIGTERM). For
    /// command-line tools; call it once.
    public static func removeAllOnInterrupt() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                for url in live.all { removeForGood(url) }
                exit(128 + signalNumber)
            }
            source.resume()
            handlers.append(source)
        }
    }

    nonisolated(unsafe) private static var handlers: [any DispatchSourceSignal] = []

    /// Removes the directories of runs whose process is gone.
    static func removeOrphans() {
        let directory = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid != getpid() else { continue }
            // kill(pid, 0) fails with ESRCH when no such process exists.
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }
    }
}

/// A locked set of directories.
private final class NSLockedDirectories: @unchecked Sendable {
    private let lock = NSLock()
    private var urls: Set<URL> = []
    func insert(_ url: URL) { lock.withLock { _ = urls.insert(url) } }
    func remove(_ url: URL) { lock.withLock { _ = urls.remove(url) } }
    var all: [URL] { lock.withLock { Array(urls) } }
}
