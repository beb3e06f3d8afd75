import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The writers' lock of one store directory: an advisory `flock` on `store.lock`, shared by
/// every process and every store over the directory (several AccessEnablers of one app, an
/// app and its helper, containers sharing a volume). A writer holds it while it reads what
/// others wrote, merges its own changes in and renames the result into place, so no change
/// of another writer is lost; readers never take it (a rename is atomic, so a reader sees
/// one whole version or the next).
///
/// The file holds nothing and is never mapped into memory: truncating it, deleting it or
/// replacing it (a cleaner, a backup restore) cannot hurt a process. Each acquisition opens
/// it by its path and, once locked, checks that the path still names the file it locked
/// (device and inode); when it does not — the file was deleted or replaced meanwhile — it
/// locks the file the path names now, so every process ends up on the same one. A store
/// keeps no descriptor between acquisitions, and `flock` locks belong to one opening: two
/// threads of one process exclude each other as two processes do.
enum StorageDirectoryLock {
    /// The lock file's name inside a store directory.
    static let fileName = "store.lock"

    /// How long a writer waits for another holder (seconds of real time). A holder keeps it
    /// for one write — milliseconds — so a longer hold means a process that is stuck: past
    /// this bound the write is left for later (the change stays in memory, and the writer's
    /// own calls answer from it) rather than hold up a call any longer.
    static let patience: TimeInterval = 1

    /// The lock, held until ``release()``.
    struct Held: Sendable {
        fileprivate let descriptor: Int32

        /// Lets the lock go.
        func release() {
            if descriptor >= 0 { close(descriptor) }
        }
    }

    /// What an attempt to take the lock came to.
    enum Acquisition: Sendable {
        /// Held: release it when done.
        case held(Held)
        /// Another holder kept it past the patience given.
        case busy
        /// The lock file cannot be opened or created (a read-only or full directory); the
        /// caller goes on without it, and its own write will most likely fail and say why.
        case unavailable(StorageIOError)

        /// Whether another holder kept it.
        var isBusy: Bool {
            if case .busy = self { return true }
            return false
        }
    }

    /// Takes the lock of `directory`, waiting at most `patience` seconds for another holder.
    static func acquire(in directory: String, patience: TimeInterval = Self.patience) -> Acquisition {
        let path = directory + "/" + fileName
        let giveUp = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, patience) * 1_000_000_000)
        var pause: useconds_t = 100
        // A lock file replaced again and again while this writer looks (never in practice)
        // is given up on after a few rounds rather than chased for ever.
        for _ in 0..<8 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                return .unavailable(StorageIOError(operation: "open", path: path, code: errno))
            }
            var locked = false
            while true {
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                    locked = true
                    break
                }
                guard errno == EWOULDBLOCK || errno == EINTR else { break }
                if DispatchTime.now().uptimeNanoseconds >= giveUp { break }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            }
            guard locked else {
                let code = errno
                close(descriptor)
                if code == EWOULDBLOCK || code == EINTR { return .busy }
                return .unavailable(StorageIOError(operation: "flock", path: path, code: code))
            }
            // The path must still name the file locked: otherwise it was deleted or replaced
            // while this writer waited, and the others lock the one the path names now.
            if let locked = FileSignature(descriptor: descriptor), let named = FileSignature(path: path),
                locked.isSameFile(as: named)
            {
                return .held(Held(descriptor: descriptor))
            }
            close(descriptor)
        }
        return .busy
    }
}
