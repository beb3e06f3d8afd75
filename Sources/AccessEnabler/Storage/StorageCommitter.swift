import Foundation

/// Writes every store's batches in this process, on one serial queue, in the order they
/// were submitted: group commit.
///
/// While a round of writes waits for the disk, the batches submitted meanwhile gather, and
/// the next round writes them all with one round of durability (see ``StorageBatchWriter``):
/// a thousand devices signing in at once cost a few rounds of `fsync`s, not eight per
/// device. Nobody waits for a round except who asks to (``waitUntilWritten(_:)``): a store
/// opening a directory whose batches are still on their way, and a flush.
final class StorageCommitter: @unchecked Sendable {
    /// The process's committer.
    static let shared = StorageCommitter()

    private let queue = DispatchQueue(label: "accessenabler.storage", qos: .utility)
    private let condition = NSCondition()
    private var waiting: [StorageBatch] = []
    private var scheduled = false
    /// Per directory path: batches submitted and not yet written.
    private var unwritten: [String: Int] = [:]

    /// Queues `batch` behind every batch submitted before it.
    func submit(_ batch: StorageBatch) {
        let key = Self.key(batch.directory)
        let schedule: Bool = condition.withLock {
            waiting.append(batch)
            unwritten[key, default: 0] += 1
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { queue.async { [self] in writeWaiting() } }
    }

    /// Whether batches of `directory` are still on their way to disk.
    func hasUnwritten(_ directory: URL) -> Bool {
        let key = Self.key(directory)
        return condition.withLock { unwritten[key] != nil }
    }

    /// Blocks until every batch of `directory` submitted so far is written.
    func waitUntilWritten(_ directory: URL) {
        let key = Self.key(directory)
        condition.lock()
        defer { condition.unlock() }
        while unwritten[key] != nil { condition.wait() }
    }

    /// One round: every batch waiting now, written together.
    private func writeWaiting() {
        let batches: [StorageBatch] = condition.withLock {
            scheduled = false
            defer { waiting = [] }
            return waiting
        }
        StorageBatchWriter.write(batches)
        condition.withLock {
            for batch in batches {
                let key = Self.key(batch.directory)
                if let count = unwritten[key], count > 1 { unwritten[key] = count - 1 } else { unwritten[key] = nil }
            }
            condition.broadcast()
        }
    }

    private static func key(_ directory: URL) -> String { directory.standardizedFileURL.path }
}
