/// The commit policy's bookkeeping for one ``TokenStore``: which records memory changed and
/// has not yet put on disk, whether one of them is a sign-in or a logout that must be written
/// before its callback, and which of memory's and another writer's versions of a record wins.
///
/// A pure value: the store keeps it under its state lock and asks it; it does no I/O. Changes
/// are numbered in the order made, so a write that took changes up to a number leaves the later
/// ones waiting.
struct PendingChanges: Sendable, Equatable {
    /// The number of the latest change.
    private(set) var latest: UInt64 = 0
    /// Changes up to this number were handed to a write (written, or failed and reported).
    private(set) var attemptedUpTo: UInt64 = 0
    /// A change of a requestor's profiles waits for ``TokenStore/writeUrgentChanges()``.
    private(set) var isUrgent = false
    /// The records this store changed and has not yet put on disk, with the number of the
    /// latest change of each: memory's version wins over the disk's until it is written.
    private var unwritten: [StoredRecordKey: UInt64] = [:]
    /// A clear not yet on disk (its change number): nothing the disk held comes back.
    private var wipe: UInt64?
    /// A new client not yet on disk (its change number): no requestor record the disk held
    /// comes back (they were obtained with the old client).
    private var requestorsDropped: UInt64?

    /// Nothing changed yet.
    init() {}

    /// What a store must write as it opens: a clear the integrity check made (`wipe`), and the
    /// records it discarded or must put in the current format (`rewrite`), as change number 1.
    init(launchWipe wipe: Bool, rewrite: Set<StoredRecordKey>) {
        guard wipe || !rewrite.isEmpty else { return }
        latest = 1
        if wipe { self.wipe = 1 }
        for record in rewrite { unwritten[record] = 1 }
    }

    /// Whether changes were made that no write has taken yet.
    var hasUnattempted: Bool { latest > attemptedUpTo }

    /// Numbers a new change.
    mutating func next() -> UInt64 {
        latest += 1
        return latest
    }

    /// `record` was changed in memory by change number `change`.
    mutating func changed(_ record: StoredRecordKey, by change: UInt64) {
        unwritten[record] = change
    }

    /// A sign-in or a logout is among the waiting changes: it is written before its callback.
    mutating func markUrgent() {
        isUrgent = true
    }

    /// Change number `change` removed every record (the device identity stays).
    mutating func wiped(by change: UInt64) {
        wipe = change
    }

    /// Change number `change` stored a new client, which removed every requestor record.
    mutating func droppedRequestors(by change: UInt64) {
        requestorsDropped = change
    }

    /// The changes up to `upTo` are on disk: the disk's version of those records holds again.
    mutating func written(upTo: UInt64) {
        attemptedUpTo = max(attemptedUpTo, upTo)
        unwritten = unwritten.filter { $0.value > upTo }
        if let change = wipe, change <= upTo { wipe = nil }
        if let change = requestorsDropped, change <= upTo { requestorsDropped = nil }
        isUrgent = isUrgent && latest > upTo
    }

    /// The write of the changes up to `upTo` failed (and was reported): they stay in memory,
    /// still winning over the disk's version, and are not tried again until the next change.
    mutating func failed(upTo: UInt64) {
        attemptedUpTo = max(attemptedUpTo, upTo)
        isUrgent = isUrgent && latest > upTo
    }

    /// Nothing up to `upTo` will be written (the directory could not be made): none of it
    /// is urgent any more.
    mutating func abandoned(upTo: UInt64) {
        attemptedUpTo = upTo
        isUrgent = false
    }

    /// Nothing will ever be written (the location was refused): every change made so far
    /// counts as handled.
    mutating func abandonedAll() {
        attemptedUpTo = latest
        isUrgent = false
    }

    /// Whether another writer's version of `record` may replace memory's: not while this
    /// store holds a change of it not yet written, a clear not yet written, or — for a
    /// requestor's record — a new client not yet written.
    func takesDiskVersion(of record: StoredRecordKey) -> Bool {
        if unwritten[record] != nil { return false }
        if wipe != nil { return false }
        if requestorsDropped != nil, case .requestor = record { return false }
        return true
    }

    /// What the changes made since the last write attempt are, in words, and whether they
    /// only remove (none of those records is still `held`).
    func subjects(held: Set<StoredRecordKey>) -> (subject: String, operation: StorageProblem.Operation) {
        if let change = wipe, change > attemptedUpTo { return ("the stored sign-ins, client and token", .delete) }
        let records = unwritten.filter { $0.value > attemptedUpTo }.keys.sorted { $0.subject < $1.subject }
        let subject = records.isEmpty ? "the stored values" : records.map(\.subject).joined(separator: ", ")
        let removals = records.allSatisfy { !held.contains($0) }
        return (subject, !records.isEmpty && removals ? .delete : .save)
    }
}
