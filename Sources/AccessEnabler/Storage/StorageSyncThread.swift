import Foundation

/// The process's one storage thread: it makes renamed files durable, and writes the changes
/// that wait for no callback (``TokenStore/commitPendingWrites()``), for every store of the
/// process — on a thread of its own, so a disk that takes its time never holds one of
/// Swift's cooperative threads or a Dispatch worker, and a thousand devices signing in at
/// once cost one thread, not hundreds.
///
/// It works in rounds: the writes waiting are made (each store's one file renamed into
/// place), then every file of the round is made durable together — write-back started for
/// all of them (`sync_file_range`), then `fdatasync` on each, so the journal commit the
/// first one waits for carries the others — and each directory in which a file was created
/// is synced once. A write whose directory lock is held by another process is set aside and
/// tried again a little later, without holding up the other stores.
///
/// Nobody waits for a round except who asks to (``waitUntilWritten(_:)``: a store opening
/// a directory whose writes are still on their way, a flush). The thread starts with the
/// first job: a process that never writes never has it.
final class StorageSyncThread: @unchecked Sendable {
    /// The process's storage thread. At the process's normal exit (`exit`, or returning from
    /// the main program) it waits for every write handed to it by then, up to 10 seconds, so
    /// an app that ends right after its last callback loses nothing it stored.
    static let shared: StorageSyncThread = {
        let thread = StorageSyncThread()
        atexit { StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 10) }
        return thread
    }()

    /// A file renamed into place whose data (and, when the rename created it, whose
    /// directory entry) must be made durable.
    struct SyncRequest: Sendable {
        /// The file, as renamed into place (its current version is synced).
        var file: URL
        /// The directory to sync too, when the rename created the file.
        var createdIn: URL?
        /// The file operations of the store that wrote it.
        var system: StorageSystem
        /// Told when the sync fails.
        var failed: @Sendable (StorageIOError) -> Void
        /// Run once the file is durable (a migration removes the old layout's files then).
        var afterwards: (@Sendable () -> Void)?
    }

    private enum Work {
        case write(TokenStore)
        case sync([SyncRequest])
    }

    private struct Job {
        var key: String
        var sequence: UInt64
        var work: Work
        /// For a write set aside: when to try again, and the pause before that.
        var retryAt: UInt64 = 0
        var pause: UInt64 = 0
        /// Whether nobody waits for it any longer: another process has held the lock against
        /// its store's writes past the store's ``TokenStore/lockPatience``.
        var released = false

        /// Whether it is a write of `store`'s changes.
        func writes(_ store: TokenStore) -> Bool {
            if case .write(let other) = work { return other === store }
            return false
        }
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    /// Writes set aside because another process held the directory's lock.
    private var parked: [Job] = []
    private var submitted: UInt64 = 0
    /// Per directory key: jobs not done, but for those released (a flush no longer waits
    /// for a write whose lock another process has held past the patience).
    private var unfinished: [String: Int] = [:]
    /// Every job not done, but for those released (the process's exit waits for these).
    private var unfinishedSequences: Set<UInt64> = []
    /// The stores with a write queued or set aside and not yet taken, so a second request
    /// adds nothing (the write taken next writes every change made by then).
    private var queuedWrites: Set<ObjectIdentifier> = []
    /// Per directory key: what to run once its jobs are done (``whenWritten(_:_:)``).
    private var whenDone: [String: [@Sendable () -> Void]] = [:]
    private var started = false

    /// The lock patience of a write made on this thread: short, so a stuck holder of one
    /// directory's lock does not hold up the others (the write is set aside and tried again).
    static let writePatience: TimeInterval = 0.05
    /// The longest pause before a write set aside is tried again.
    private static let longestPause: UInt64 = 250_000_000

    /// Queues a write of `store`'s waiting changes (see ``TokenStore/writeBehind()``).
    func submitWrite(of store: TokenStore, key: String) {
        enqueue(key: key) { sequence in
            guard queuedWrites.insert(ObjectIdentifier(store)).inserted else { return nil }
            return Job(key: key, sequence: sequence, work: .write(store))
        }
    }

    /// Queues the data sync of files a caller renamed into place, in one round.
    func submitSync(_ requests: [SyncRequest], key: String) {
        guard !requests.isEmpty else { return }
        enqueue(key: key) { sequence in Job(key: key, sequence: sequence, work: .sync(requests)) }
    }

    private func enqueue(key: String, _ make: (UInt64) -> Job?) {
        condition.withLock {
            guard let job = make(submitted + 1) else { return }
            submitted += 1
            queue.append(job)
            unfinished[key, default: 0] += 1
            unfinishedSequences.insert(job.sequence)
            if !started {
                started = true
                Thread.detachNewThread { [self] in run() }
            }
            condition.broadcast()
        }
    }

    /// Whether writes or syncs of the directory under `key` are queued or under way.
    func hasUnwritten(_ key: String) -> Bool {
        condition.withLock { unfinished[key] != nil }
    }

    /// Whether a write of the directory under `key` is set aside because another process
    /// holds its lock (the tests watch for it).
    func hasWriteSetAside(_ key: String) -> Bool {
        condition.withLock { parked.contains { $0.key == key } }
    }

    /// How many writes of the directory under `key` are set aside (one per store at most:
    /// the tests check that a long wait does not pile them up).
    func writesSetAside(_ key: String) -> Int {
        condition.withLock { parked.filter { $0.key == key }.count }
    }

    /// Runs `action` once every job of the directory under `key` submitted so far is done —
    /// at once when none is left — without holding a thread while it waits.
    func whenWritten(_ key: String, _ action: @escaping @Sendable () -> Void) {
        let now: Bool = condition.withLock {
            guard unfinished[key] != nil else { return true }
            whenDone[key, default: []].append(action)
            return false
        }
        if now { action() }
    }

    /// Blocks until every job of the directory under `key` submitted so far is done. A write
    /// another process's lock holds up is waited for until that process has held the lock
    /// against it for the store's ``TokenStore/lockPatience`` (counting what the write's caller
    /// already waited): a stuck process delays nobody longer. The write stays set aside and
    /// lands when the lock is free.
    func waitUntilWritten(_ key: String) {
        condition.lock()
        defer { condition.unlock() }
        while unfinished[key] != nil { condition.wait() }
    }

    /// Blocks until no job is left of any directory under `key` (the directory itself
    /// included), as ``waitUntilWritten(_:)`` does for one.
    func waitUntilWritten(under key: String) {
        let inside = key.hasSuffix("/") ? key : key + "/"
        condition.lock()
        defer { condition.unlock() }
        while unfinished.keys.contains(where: { $0 == key || $0.hasPrefix(inside) }) { condition.wait() }
    }

    /// Blocks until every job submitted so far, of every directory, is done, or until
    /// `timeout` seconds have passed: a disk that no longer answers must not keep the
    /// process from ending. A write held up by another process's lock past its store's
    /// ``TokenStore/lockPatience`` is not waited for (see ``waitUntilWritten(_:)``).
    /// Returns whether everything waited for was done.
    @discardableResult
    func waitUntilEverythingIsWritten(timeout: TimeInterval) -> Bool {
        let giveUp = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        let last = submitted
        func allDone() -> Bool { !unfinishedSequences.contains { $0 <= last } }
        while !allDone() {
            guard condition.wait(until: giveUp) else { return allDone() }
        }
        return true
    }

    // MARK: - The thread

    /// The thread's name, as `ps -L`, `top -H` and debuggers show it (the system keeps 15
    /// characters at most).
    static let threadName = "ae-storage"

    /// The thread, once it runs.
    private var thread: pthread_t?

    /// Whether the caller runs on the storage thread.
    var isCurrentThread: Bool {
        guard let thread = condition.withLock({ thread }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    private func run() {
        condition.withLock { thread = pthread_self() }
        Thread.current.name = Self.threadName
        while true {
            let jobs = nextRound()
            var syncs: [SyncRequest] = []
            var finished: [Job] = []
            var setAside: [Job] = []
            var released: [Job] = []
            for job in jobs {
                switch job.work {
                case .sync(let requests):
                    syncs += requests
                    finished.append(job)
                case .write(let store):
                    switch store.writeBehind(patience: Self.writePatience) {
                    case .written(let requests):
                        syncs += requests
                        finished.append(job)
                    case .nothing:
                        finished.append(job)
                    case .lockBusy(let since):
                        // Past the patience the holder is a stuck process: whoever waits
                        // for this write stops waiting (it stays set aside).
                        var job = job
                        let patience = UInt64(store.lockPatience * 1_000_000_000)
                        if !job.released, DispatchTime.now().uptimeNanoseconds &- since >= patience {
                            job.released = true
                            released.append(job)
                        }
                        setAside.append(job)
                    }
                }
            }
            Self.makeDurable(syncs)
            let actions: [@Sendable () -> Void] = condition.withLock {
                let now = DispatchTime.now().uptimeNanoseconds
                var actions: [@Sendable () -> Void] = []
                func done(_ job: Job) {
                    unfinishedSequences.remove(job.sequence)
                    if let count = unfinished[job.key], count > 1 {
                        unfinished[job.key] = count - 1
                    } else {
                        unfinished[job.key] = nil
                        actions += whenDone.removeValue(forKey: job.key) ?? []
                    }
                }
                for job in finished where !job.released { done(job) }
                for job in released { done(job) }
                for var job in setAside {
                    // One write of a store waits at a time: it writes every change made by
                    // then. A second one (asked for while the first was being tried) goes,
                    // or the set-aside writes would pile up, each tried in turn every round.
                    if case .write(let store) = job.work, parked.contains(where: { $0.writes(store) }) {
                        if !job.released { done(job) }
                        continue
                    }
                    // Another process holds the lock: try again shortly.
                    if case .write(let store) = job.work { queuedWrites.insert(ObjectIdentifier(store)) }
                    job.pause = min(max(job.pause * 2, 20_000_000), Self.longestPause)
                    job.retryAt = now &+ job.pause
                    parked.append(job)
                }
                condition.broadcast()
                return actions
            }
            for action in actions { action() }
        }
    }

    /// Waits for work: the queued jobs, and the writes set aside whose pause is over.
    private func nextRound() -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let due = parked.filter { $0.retryAt <= now }
            if !due.isEmpty {
                parked.removeAll { $0.retryAt <= now }
                queue += due
            }
            if !queue.isEmpty {
                let jobs = queue
                queue = []
                for job in jobs {
                    if case .write(let store) = job.work { queuedWrites.remove(ObjectIdentifier(store)) }
                }
                return jobs
            }
            if let soonest = parked.map(\.retryAt).min() {
                let wait = Double(soonest &- now) / 1_000_000_000
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
            } else {
                condition.wait()
            }
        }
    }

    /// Makes every file of `requests` durable, waiting for the disk about once for all of
    /// them, then each directory in which one was created.
    private static func makeDurable(_ requests: [SyncRequest]) {
        guard !requests.isEmpty else { return }
        var seen: Set<String> = []
        let unique = requests.filter { seen.insert($0.file.path).inserted }
        if unique.count > 1 { StorageFileSystem.startWriteBack(unique.map(\.file.path)) }
        var failedFiles: Set<String> = []
        for request in unique {
            do throws(StorageIOError) {
                try request.system.syncFiles([request.file])
            } catch {
                failedFiles.insert(request.file.path)
                request.failed(error)
            }
        }
        var directories: [String: Bool] = [:]
        for request in requests {
            guard let directory = request.createdIn else { continue }
            if directories[directory.path] == nil {
                do throws(StorageIOError) {
                    try request.system.syncDirectory(directory)
                    directories[directory.path] = true
                } catch {
                    directories[directory.path] = false
                    request.failed(error)
                }
            }
            if directories[directory.path] == false { failedFiles.insert(request.file.path) }
        }
        // Only what is durable lets the old layout's files go.
        for request in requests where !failedFiles.contains(request.file.path) { request.afterwards?() }
    }
}
