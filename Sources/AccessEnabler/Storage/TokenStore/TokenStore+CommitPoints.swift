import Foundation

/// ``TokenStore``'s commit points — when the changes memory holds go to disk: at once when
/// the store writes through, before the callbacks for a sign-in or a logout
/// (``TokenStore/writeUrgentChanges()``), on the storage thread after them
/// (``TokenStore/commitPendingWrites()``), or when the app waits for them (``TokenStore/flush()``)
/// — and how long callers wait for another process's lock (``LockWaitBudget``). What is
/// waiting is ``PendingChanges``' to say; the write itself is `TokenStore+Write.swift`'s.
extension TokenStore {
    /// A change was made in memory: written now when the store writes through, otherwise
    /// left for the next commit point.
    func changed() {
        guard !writeBehind else { return }
        write(patience: lockPatience, durableBeforeReturning: true)
    }

    /// Whether changes (or the launch's own work) wait for a write.
    var hasPendingWrites: Bool {
        stateLock.withLock { isPersistent && (changes.hasUnattempted || identityWrite != nil || probeWanted) }
    }

    /// Writes the waiting changes now, on the caller's thread, when one of them is a
    /// sign-in or a logout: renamed into place before this returns (waiting at most
    /// ``lockPatience`` for another process's lock), made durable on the
    /// storage thread right after. The engine calls it before delivering an event's callbacks.
    func writeUrgentChanges() {
        guard writeBehind, stateLock.withLock({ changes.isUrgent && isPersistent }) else { return }
        write(patience: lockPatience, durableBeforeReturning: false)
    }

    /// Hands the waiting changes to the storage thread, which writes them and makes them
    /// durable (the engine calls it once an event's callbacks are delivered).
    func commitPendingWrites() {
        guard hasPendingWrites else { return }
        StorageSyncThread.shared.submitWrite(of: self, key: directoryKey)
    }

    /// Blocks until every change made so far is on disk (or set aside while another process
    /// holds the directory's lock).
    func flush() {
        commitPendingWrites()
        StorageSyncThread.shared.waitUntilWritten(directoryKey)
        let deferred: [StorageSyncThread.SyncRequest] = ioLock.withLock {
            defer { deferredSyncs = [] }
            return deferredSyncs
        }
        guard !deferred.isEmpty else { return }
        StorageSyncThread.shared.submitSync(deferred, key: directoryKey)
        StorageSyncThread.shared.waitUntilWritten(directoryKey)
    }

    /// Runs `action` once every change made so far is on disk (or set aside while another
    /// process holds the directory's lock), holding no thread while it waits.
    func flush(then action: @escaping @Sendable () -> Void) {
        commitPendingWrites()
        StorageSyncThread.shared.whenWritten(directoryKey) { [self] in
            let deferred: [StorageSyncThread.SyncRequest] = ioLock.withLock {
                defer { deferredSyncs = [] }
                return deferredSyncs
            }
            guard !deferred.isEmpty else { return action() }
            StorageSyncThread.shared.submitSync(deferred, key: directoryKey)
            StorageSyncThread.shared.whenWritten(directoryKey, action)
        }
    }

    /// `true` while a change is still on its way to disk.
    var hasQueuedWrites: Bool {
        hasPendingWrites || StorageSyncThread.shared.hasUnwritten(directoryKey)
    }

    /// What a write on the storage thread came to.
    enum WriteOutcome {
        /// Nothing was waiting.
        case nothing
        /// Written (or failed and reported); these files still need their data sync.
        case written([StorageSyncThread.SyncRequest])
        /// Another process holds the directory's lock: try again later. `since` is when
        /// (uptime nanoseconds) it began to hold it against this store's writes — what a
        /// caller's write already waited included — so the storage thread knows when the
        /// wait has passed ``lockPatience``.
        case lockBusy(since: UInt64)
    }

    /// The storage thread's write of the waiting changes, waiting at most `patience` for the
    /// directory's lock.
    func writeBehind(patience: TimeInterval) -> WriteOutcome {
        let outcome = ioLock.withLock { performWrite(patience: patience, onCallersPath: false) }
        if case .lockBusy(let since) = outcome { return .lockBusy(since: noteLockBusy(since: since)) }
        return outcome
    }

    /// Writes the waiting changes on this thread: durably before returning, or leaving the
    /// data sync to the storage thread.
    func write(patience: TimeInterval, durableBeforeReturning: Bool) {
        switch ioLock.withLock({ performWrite(patience: patience, onCallersPath: true) }) {
        case .nothing:
            break
        case .written(let requests):
            if durableBeforeReturning {
                for request in requests { Self.makeDurable(request) }
            } else {
                StorageSyncThread.shared.submitSync(requests, key: directoryKey)
            }
        case .lockBusy(let since):
            // The caller has waited what its budget allowed: the storage thread takes the write over,
            // and a flush no longer waits for it (the wait began that long ago).
            _ = noteLockBusy(since: since)
            StorageSyncThread.shared.submitWrite(of: self, key: directoryKey)
        }
    }

    private static func makeDurable(_ request: StorageSyncThread.SyncRequest) {
        do throws(StorageIOError) {
            try request.system.syncFiles([request.file])
            if let directory = request.createdIn { try request.system.syncDirectory(directory) }
            request.afterwards?()
        } catch {
            request.failed(error)
        }
    }

    /// Says once per episode that another process has held the lock against this store's
    /// writes for longer than ``lockPatience``, given when the attempt that
    /// found it busy began to wait (uptime nanoseconds). Returns when the episode began:
    /// the first such attempt's start.
    func noteLockBusy(since attempt: UInt64) -> UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        let (since, say) = stateLock.withLock {
            (lockBudget.heldByAnother(since: attempt), lockBudget.shouldSay(at: now))
        }
        if say {
            onNotice(
                "Another process has held the storage lock (\(lockFilePath)) for more than \(Int(lockPatience)) s."
                    + " The SDK goes on from what it has in memory and writes its changes as soon as the lock is free;"
                    + " until then other processes do not see them, and calls no longer wait for the lock.")
        }
        return since
    }

    /// The directory's lock file, for messages.
    var lockFilePath: String {
        statementDirectory.appendingPathComponent(StorageDirectoryLock.fileName).path
    }

    /// What the waits for the lock on callers' paths came to (``LockWaitBudget/Tally``).
    var lockWaitsOnCallersPaths: LockWaitBudget.Tally {
        stateLock.withLock { lockBudget.tally }
    }
}
