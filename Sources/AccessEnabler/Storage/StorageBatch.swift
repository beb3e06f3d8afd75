import Foundation

/// One store's changes to its files, written together by ``StorageBatchWriter``: each file
/// replaced crash-safely (or deleted), with one round of durability for the whole batch
/// instead of one per file.
struct StorageBatch: Sendable {
    /// A change to one file.
    struct Change: Sendable {
        /// What becomes of the file.
        enum Content: Sendable {
            /// Its new bytes, encoded when the batch is written (off the caller's path).
            case write(@Sendable () throws -> Data)
            /// The file goes.
            case delete
        }

        let file: URL
        /// What the file holds, in words, for a problem report ("the access token").
        let subject: String
        let content: Content
    }

    /// The directory holding every file of the batch.
    let directory: URL
    /// ``StorageCommitter/key(for:)`` of `directory`.
    let directoryKey: String
    /// `true` when the directory may not exist yet: it is created (0700, with its parents)
    /// before the first file.
    let createDirectory: Bool
    /// In the order they were made; a file appears at most once (its last change).
    let changes: [Change]
    /// The file operations.
    let system: StorageSystem
    /// The directory's lock, held while the batch's files are renamed into place; `nil`
    /// when the store has none (the changes are then made unlocked).
    let lock: StorageDirectoryLock?
    /// Told about each change that could not be made, with the file's name.
    let failed: @Sendable (StorageProblem, _ fileName: String) -> Void
    /// Told once the batch is written.
    let written: @Sendable (StorageBatchOutcome) -> Void
}

/// What became of a batch, for the store that submitted it.
struct StorageBatchOutcome: Sendable {
    /// Whether the directory exists now.
    var directoryExists: Bool
    /// The files changed, by name: each written file's new signature (read while the lock
    /// was held, so it is this batch's version), `nil` for a file deleted. Changes that
    /// failed are absent.
    var committed: [String: FileSignature?]
    /// The directory's change counter before and after this batch, when it has a lock and
    /// changed a file.
    var generation: (before: UInt64, after: UInt64)?
}

/// Writes batches so that a crash at any instant leaves every file either as it was or as
/// the batch made it, never a mix:
///
/// 1. each directory that may be missing is created (0700);
/// 2. each new content goes to a temporary file beside its file (0600);
/// 3. the temporary files are made durable, with one call per batch;
/// 4. each is renamed over its file, and deletions are made, in the order of the changes,
///    holding the directory's lock (``StorageDirectoryLock``) and then advancing its change
///    counter, so other stores over the directory see the whole batch or none of it and know
///    to look again;
/// 5. each directory is made durable once.
///
/// A crash before step 4 leaves only temporary files, which the next launch removes; a
/// crash during step 4 leaves each file whole, old or new. A batch waits for the disk
/// about twice (step 3 starts every file's write-back before waiting, and step 5 syncs the
/// directory once), not twice per file; and batches of several stores written in one round
/// share the disk's work: step 2 runs for all of them before step 3, so the journal commit
/// the first batch waits for carries the others' files too.
enum StorageBatchWriter {
    static func write(_ batches: [StorageBatch]) {
        // What each change needs after step 2: its temporary file, or `nil` for a deletion.
        var staged: [(batch: Int, change: Int, temporary: URL?)] = []
        var directoryExists = [Bool](repeating: true, count: batches.count)
        for (batchIndex, batch) in batches.enumerated() {
            if batch.createDirectory {
                do throws(StorageIOError) {
                    try batch.system.ensureDirectory(batch.directory, true)
                } catch {
                    directoryExists[batchIndex] = false
                    for change in batch.changes { report(error, for: change, in: batch) }
                    continue
                }
            }
            for (changeIndex, change) in batch.changes.enumerated() {
                switch change.content {
                case .delete:
                    staged.append((batchIndex, changeIndex, nil))
                case .write(let encode):
                    let data: Data
                    do {
                        data = try encode()
                    } catch {
                        batch.failed(StorageProblem(subject: change.subject, path: change.file.path, operation: .save, cause: .other("\(error)")), change.file.lastPathComponent)
                        continue
                    }
                    do throws(StorageIOError) {
                        staged.append((batchIndex, changeIndex, try batch.system.writeTemporary(data, change.file)))
                    } catch {
                        report(error, for: change, in: batch)
                    }
                }
            }
        }

        // Step 3: one call per batch makes its temporary files durable.
        var ready: [(batch: Int, change: Int, temporary: URL?)] = []
        var byBatch = [[(batch: Int, change: Int, temporary: URL?)]](repeating: [], count: batches.count)
        for entry in staged { byBatch[entry.batch].append(entry) }
        for (batchIndex, batch) in batches.enumerated() {
            let entries = byBatch[batchIndex]
            let temporaries = entries.compactMap(\.temporary)
            do throws(StorageIOError) {
                try batch.system.syncFiles(temporaries)
                ready += entries
            } catch {
                for entry in entries {
                    if let temporary = entry.temporary {
                        try? batch.system.unlink(temporary)
                        report(error, for: batch.changes[entry.change], in: batch)
                    } else {
                        ready.append(entry)
                    }
                }
            }
        }

        // Step 4, one batch at a time under its directory's lock: another store over the
        // directory (in this process or another) sees all of a batch or none of it.
        var touched: [(batch: Int, changes: [Int])] = []
        var outcomes = [StorageBatchOutcome](repeating: StorageBatchOutcome(directoryExists: true, committed: [:]), count: batches.count)
        var readyByBatch = [[(change: Int, temporary: URL?)]](repeating: [], count: batches.count)
        var batchOrder: [Int] = []
        for entry in ready {
            if readyByBatch[entry.batch].isEmpty { batchOrder.append(entry.batch) }
            readyByBatch[entry.batch].append((entry.change, entry.temporary))
        }
        for batchIndex in batchOrder {
            let batch = batches[batchIndex]
            let apply = {
                var changed: [Int] = []
                var committed: [String: FileSignature?] = [:]
                for (changeIndex, temporary) in readyByBatch[batchIndex] {
                    let change = batch.changes[changeIndex]
                    do throws(StorageIOError) {
                        if let temporary {
                            do throws(StorageIOError) {
                                try batch.system.replace(temporary, change.file)
                            } catch {
                                try? batch.system.unlink(temporary)
                                throw error
                            }
                            committed[change.file.lastPathComponent] = .some(FileSignature(path: change.file.path))
                        } else {
                            try batch.system.unlink(change.file)
                            committed[change.file.lastPathComponent] = .some(nil)
                        }
                        changed.append(changeIndex)
                    } catch {
                        report(error, for: change, in: batch)
                    }
                }
                let generation = changed.isEmpty ? nil : batch.lock?.advance()
                return (changed, committed, generation)
            }
            let (changed, committed, generation) = batch.lock.map { $0.withExclusiveLock(apply) } ?? apply()
            outcomes[batchIndex].committed = committed
            outcomes[batchIndex].generation = generation
            if !changed.isEmpty { touched.append((batchIndex, changed)) }
        }

        var synced: Set<String> = []
        for (batchIndex, changes) in touched {
            let batch = batches[batchIndex]
            guard synced.insert(batch.directory.path).inserted else { continue }
            do throws(StorageIOError) {
                try batch.system.syncDirectory(batch.directory)
            } catch {
                for change in changes { report(error, for: batch.changes[change], in: batch) }
            }
        }
        for (index, batch) in batches.enumerated() {
            outcomes[index].directoryExists = directoryExists[index]
            batch.written(outcomes[index])
        }
    }

    private static func report(_ error: StorageIOError, for change: StorageBatch.Change, in batch: StorageBatch) {
        let operation: StorageProblem.Operation
        switch change.content {
        case .write: operation = .save
        case .delete: operation = .delete
        }
        batch.failed(StorageProblem(subject: change.subject, path: change.file.path, operation: operation, cause: .init(errno: error.code)), change.file.lastPathComponent)
    }
}
