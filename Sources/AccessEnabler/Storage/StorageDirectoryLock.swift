import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock file of one store directory, `store.lock`, shared by every process and every
/// store over the directory (several AccessEnablers of one app, an app and its helper):
///
/// - an advisory lock across processes (`flock`), held while a store reads the directory
///   at launch (and creates the device identity), while a batch renames its files into
///   place, and while a store reloads what others changed, so none of them sees half of
///   another's batch;
/// - a change counter, the file's first eight bytes, mapped into each store's memory:
///   every batch adds one after its renames, so a store learns that another one changed
///   the directory by comparing one number in memory — no system call — and reloads only
///   then (see ``TokenStore/refreshIfChanged()``).
///
/// Each locked operation opens the file anew: `flock` locks belong to one opening, so two
/// threads of one process exclude each other as two processes do, and a store holds no
/// descriptor between operations. A file that cannot be opened or mapped (a read-only
/// directory) leaves the store working on its own, without the lock and the counter.
final class StorageDirectoryLock: @unchecked Sendable {
    /// The lock file's name inside a store directory.
    static let fileName = "store.lock"

    private let path: String
    /// The change counter in the shared mapping.
    private let counter: UnsafeMutablePointer<Atomic<UInt64>>
    private let mapping: UnsafeMutableRawPointer

    /// Maps the counter of the lock file in `directory` (created 0600 when missing); `nil`
    /// when the file cannot be created, opened or mapped.
    init?(directory: URL) {
        path = directory.path + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        // Only grown, never cut: a concurrent creator's counter survives.
        if info.st_size < Int64(MemoryLayout<UInt64>.size) {
            guard ftruncate(descriptor, off_t(MemoryLayout<UInt64>.size)) == 0 else { return nil }
        }
        let mapped = mmap(nil, MemoryLayout<UInt64>.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        mapping = mapped
        counter = mapped.bindMemory(to: Atomic<UInt64>.self, capacity: 1)
    }

    deinit {
        munmap(mapping, MemoryLayout<UInt64>.size)
    }

    /// The change counter: how many batches (and launch-time clean-ups) have changed the
    /// directory since the lock file was created. One load from shared memory.
    var generation: UInt64 { counter.pointee.load(ordering: .acquiring) }

    /// Adds one to the change counter (call it holding the lock, after the changes);
    /// returns the value before and after.
    @discardableResult
    func advance() -> (before: UInt64, after: UInt64) {
        let after = counter.pointee.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        return (after &- 1, after)
    }

    /// How long a store waits for another holder of the lock (seconds of real time). A
    /// holder keeps it for a batch's renames or a reload — milliseconds — so a longer hold
    /// means a process that is stuck: past this bound the store goes on without the lock
    /// rather than hang its caller (an app's call, or `AccessEnabler`'s initialiser).
    static let patience: TimeInterval = 5

    /// Runs `body` holding the lock exclusively, against every other holder in this and
    /// other processes. When the file cannot be opened, or another holder keeps the lock
    /// longer than ``patience``, the body runs unlocked (the store keeps working; only the
    /// coordination is lost).
    func withExclusiveLock<T>(_ body: () throws -> T) rethrows -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        Self.lock(descriptor, giveUpAfter: Self.patience)
        return try body()
    }

    /// Takes `flock(LOCK_EX)` on `descriptor`, waiting at most `patience` seconds for
    /// another holder; `false` when it was not taken.
    @discardableResult
    static func lock(_ descriptor: Int32, giveUpAfter patience: TimeInterval) -> Bool {
        let giveUp = DispatchTime.now().uptimeNanoseconds + UInt64(patience * 1_000_000_000)
        var pause: useconds_t = 200
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR else { return false }
            if DispatchTime.now().uptimeNanoseconds >= giveUp { return false }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }
}
