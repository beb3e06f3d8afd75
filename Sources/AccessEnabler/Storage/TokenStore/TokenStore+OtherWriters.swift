import Foundation

/// ``TokenStore``'s reads of other writers' versions: what other stores over the same
/// directory wrote since this one last looked, taken in between two calls of the app
/// (``TokenStore/refreshIfChanged()``) and before each write (``StoreFileMerge`` decides what
/// wins).
extension TokenStore {
    /// Takes in what other stores over the same directory (other AccessEnablers, in this
    /// process or another) wrote since this store last looked. Costs one `stat` when
    /// nothing changed; otherwise `store.json` is read again (no lock: it is replaced whole,
    /// never written in place). Call it between two calls of the app (the engine's turn).
    func refreshIfChanged() {
        guard stateLock.withLock({ isPersistent }) else { return }
        let onDisk = FileSignature(path: storeFilePath)
        guard onDisk != stateLock.withLock({ seen }) else { return }
        ioLock.withLock {
            guard locationMayBeRead() else { return }
            let onDisk = FileSignature(path: storeFilePath)
            guard onDisk != stateLock.withLock({ seen }) else { return }
            takeIn(readStoreFile(), signature: onDisk)
        }
    }

    /// Reads `store.json` as it is on disk now, checked with this store's key.
    func readStoreFile() -> StoreFileMerge.Read {
        StorageLoader.readStore(
            storeFilePath, key: stateLock.withLock { snapshot.identity.integrityKeyBytes },
            integrityCheck: integrityCheck)
    }

    /// Puts another writer's version of `store.json` in place of what memory held, except
    /// for the records this store changed and has not written (they are newer). Must be
    /// called with `ioLock` held.
    func takeIn(_ read: StoreFileMerge.Read, signature: FileSignature?) {
        let date = now()
        let discards: [StorageDiscard] = stateLock.withLock {
            let discards = StoreFileMerge.merge(
                read, into: &snapshot, keeping: changes, path: storeFilePath, at: date)
            seen = read?.signature ?? signature
            return discards
        }
        for discard in discards {
            stateLock.withLock { problem = discard.message }
            onDiscard(discard)
        }
    }
}
