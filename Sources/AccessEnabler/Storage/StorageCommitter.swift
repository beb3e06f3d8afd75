import Foundation

/// Writes every store's batches in this process, on one serial queue, each directory's in
/// the order they were submitted: group commit.
///
/// While a round of writes waits for the disk, the batches submitted meanwhile gather, and
/// the next round writes up to ``roundLimit`` of them with one round of durability (see
/// ``StorageBatchWriter``): a thousand devices signing in at once cost a few dozen rounds,
/// not eight `fsync`s per device. Nobody waits for a round except who asks to
/// (``waitUntilWritten(_:)``: a store opening a directory whose batches are still on their
/// way, a flush); their directories' batches go first in the next round, so a flush waits
/// for at most the round under way and its own, however many batches are queued.
final class StorageCommitter: @unchecked Sendable {
    /// The process's committer. At the process's normal exit (`exit`, or returning from
    /// the main program) it waits for every batch submitted by then, up to 10 seconds, so
    /// an app that ends right after its last callback loses nothing it stored.
    static let shared: StorageCommitter = {
        let committer = StorageCommitter()
        atexit { StorageCommitter.shared.waitUntilEverythingIsWritten(timeout: 10) }
        return committer
    }()

    /// The most batches one round writes, besides those someone waits for: enough to share
    /// the disk's work, few enough to keep a round short.
    static let roundLimit = 32

    private let queue = DispatchQueue(label: "accessenabler.storage", qos: .utility)
    private let condition = NSCondition()
    private var waiting: [(sequence: UInt64, batch: StorageBatch)] = []
    /// Numbers the batches in the order submitted.
    private var submitted: UInt64 = 0
    /// The numbers of the batches submitted and not yet written.
    private var unwrittenSequences: Set<UInt64> = []
    private var scheduled = false
    /// Per directory key: batches submitted and not yet written.
    private var unwritten: [String: Int] = [:]
    /// Per directory key: callers blocked until its batches are written.
    private var awaited: [String: Int] = [:]

    /// The key a directory's batches are counted under: its absolute path with `.`, `..`
    /// and repeated slashes resolved on the text (`standardizedFileURL` gives the same for
    /// the paths a store is given, at tens of microseconds a call). Worked out once per store.
    static func key(for directory: URL) -> String {
        var parts: [Substring] = []
        for part in directory.path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Queues `batch` behind every batch of its directory submitted before it.
    func submit(_ batch: StorageBatch) {
        let key = batch.directoryKey
        let schedule: Bool = condition.withLock {
            submitted += 1
            waiting.append((submitted, batch))
            unwrittenSequences.insert(submitted)
            unwritten[key, default: 0] += 1
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { queue.async { [self] in writeWaiting() } }
    }

    /// Whether batches of the directory under `key` are still on their way to disk.
    func hasUnwritten(_ key: String) -> Bool {
        condition.withLock { unwritten[key] != nil }
    }

    /// Blocks until every batch submitted so far, of every directory, is written (batches
    /// submitted meanwhile are not waited for), or until `timeout` seconds have passed: a
    /// disk that no longer answers must not keep the process from ending. Returns whether
    /// everything was written.
    @discardableResult
    func waitUntilEverythingIsWritten(timeout: TimeInterval) -> Bool {
        let giveUp = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        let last = submitted
        func allWritten() -> Bool { !unwrittenSequences.contains { $0 <= last } }
        while !allWritten() {
            guard condition.wait(until: giveUp) else { return allWritten() }
        }
        return true
    }

    /// Blocks until every batch of the directory under `key` submitted so far is written;
    /// they go first in the next round.
    func waitUntilWritten(_ key: String) {
        condition.lock()
        defer { condition.unlock() }
        guard unwritten[key] != nil else { return }
        awaited[key, default: 0] += 1
        defer { awaited[key] = awaited[key].map { $0 > 1 ? $0 - 1 : nil } ?? nil }
        while unwritten[key] != nil { condition.wait() }
    }

    /// One round: the batches someone waits for, then the oldest others, up to the limit.
    private func writeWaiting() {
        let round: [(sequence: UInt64, batch: StorageBatch)] = condition.withLock {
            // A directory is taken whole or not at all beyond the limit, and the others in
            // the order submitted, so each directory's batches keep their order.
            var taken: [(sequence: UInt64, batch: StorageBatch)] = []
            var left: [(sequence: UInt64, batch: StorageBatch)] = []
            var others = 0
            var passedOver: Set<String> = []
            for entry in waiting {
                let key = entry.batch.directoryKey
                if awaited[key] != nil {
                    taken.append(entry)
                } else if others < Self.roundLimit, !passedOver.contains(key) {
                    taken.append(entry)
                    others += 1
                } else {
                    passedOver.insert(key)
                    left.append(entry)
                }
            }
            waiting = left
            scheduled = !left.isEmpty
            return taken
        }
        StorageBatchWriter.write(round.map(\.batch))
        let more: Bool = condition.withLock {
            for (sequence, batch) in round {
                unwrittenSequences.remove(sequence)
                let key = batch.directoryKey
                if let count = unwritten[key], count > 1 { unwritten[key] = count - 1 } else { unwritten[key] = nil }
            }
            condition.broadcast()
            return scheduled
        }
        if more { queue.async { [self] in writeWaiting() } }
    }
}
