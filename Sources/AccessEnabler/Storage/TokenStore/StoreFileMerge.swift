import Foundation

/// How a ``TokenStore`` takes in another writer's version of `store.json` (another
/// AccessEnabler over the same directory, in this process or another): every record is
/// replaced by the disk's version, or removed when the disk no longer holds it, except those
/// this store changed and has not written (``PendingChanges/takesDiskVersion(of:)``: they are
/// newer). Media tokens and preauthorization answers that have ended are dropped.
///
/// Pure: the store reads the file and hands the result here, under its locks.
enum StoreFileMerge {
    /// What a read of `store.json` found (``StorageLoader/readStore(_:key:integrityCheck:)``):
    /// `nil` when there is none.
    typealias Read = (contents: Result<StorageStoreFile.Contents, StorageFileProblem>, signature: FileSignature?)?

    /// Puts `read` in place of `snapshot`'s records, keeping those `changes` says are newer
    /// in memory. Returns what was found unusable and discarded: records of the file, or the
    /// whole file when it cannot be used here (another store's damage, or an identity this
    /// one does not share) — what this store held of it then goes, the file stays.
    static func merge(
        _ read: Read, into snapshot: inout StorageSnapshot, keeping changes: PendingChanges, path: String, at date: Date
    ) -> [StorageDiscard] {
        var discards: [StorageDiscard] = []
        var found = StorageStoreFile.Contents()
        switch read?.contents {
        case .none:
            break
        case .success(let contents):
            found = contents
            for (record, reason) in contents.unusable {
                discards.append(
                    StorageDiscard(scope: .file, path: path, subject: record.subject, reason: reason.description))
            }
        case .failure(let reason):
            discards.append(
                StorageDiscard(
                    scope: .file, path: path, subject: "the stored sign-ins, client and token",
                    reason: reason.description))
        }
        var disk = StorageSnapshot(identity: snapshot.identity)
        StorageLoader.apply(found, to: &disk)
        disk.requestors = disk.requestors.mapValues { $0.droppingExpiredEntries(at: date) }
        for record in snapshot.recordKeys.union(disk.recordKeys) where changes.takesDiskVersion(of: record) {
            snapshot.take(record, from: disk)
        }
        return discards
    }
}

extension StorageSnapshot {
    /// Puts `other`'s version of `record` (or its absence) in place of this one's.
    fileprivate mutating func take(_ record: StoredRecordKey, from other: StorageSnapshot) {
        switch record {
        case .clientCredentials: clientCredentials = other.clientCredentials
        case .accessToken: accessToken = other.accessToken
        case .requestor(let requestor): requestors[requestor] = other.requestors[requestor]
        case .serviceProviderClient(let baseURL):
            serviceProviderClients[baseURL] = other.serviceProviderClients[baseURL]
        }
    }
}
