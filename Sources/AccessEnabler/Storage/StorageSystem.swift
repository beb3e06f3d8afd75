import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file-system operations a store performs and the machine fact it falls back on, as
/// values, so tests can make them fail as a full or read-only disk would. ``posix`` is the
/// real thing (``StorageFileSystem``).
struct StorageSystem: Sendable {
    /// Replaces a file atomically and durably, mode 0600.
    var writeAtomically: @Sendable (Data, URL) throws(StorageIOError) -> Void
    /// Deletes a file durably; a missing file is not an error.
    var remove: @Sendable (URL) throws(StorageIOError) -> Void
    /// Creates a directory (and parents) with mode 0700; `true` restricts an existing one too.
    var ensureDirectory: @Sendable (URL, Bool) throws(StorageIOError) -> Void
    /// Why a new file at this URL could not be written, found without writing (a cheap
    /// check before a write that happens later): `nil` when nothing stands in the way.
    var creationObstacle: @Sendable (URL) -> StorageIOError?
    /// Why this directory could not be created (or used), found without creating it:
    /// `nil` when it exists as a directory or could be made.
    var directoryObstacle: @Sendable (URL) -> StorageIOError?
    /// This machine's stable identifier (`/etc/machine-id`), when there is one.
    var machineID: @Sendable () -> String?

    // The steps of a batch of writes (see ``StorageBatchWriter``): every temporary file is
    // written first, then all are made durable together, then renamed into place, then the
    // directory is made durable once.

    /// Writes `data` to a new temporary file beside the given file (mode 0600), not yet
    /// durable; returns the temporary file.
    var writeTemporary: @Sendable (Data, URL) throws(StorageIOError) -> URL
    /// Makes the content of these files durable, together (one wait for the disk, not one per file).
    var syncFiles: @Sendable ([URL]) throws(StorageIOError) -> Void
    /// Renames the first file over the second.
    var replace: @Sendable (URL, URL) throws(StorageIOError) -> Void
    /// Deletes a file, not yet durably; a missing file is not an error.
    var unlink: @Sendable (URL) throws(StorageIOError) -> Void
    /// Makes the renames and deletions in a directory durable.
    var syncDirectory: @Sendable (URL) throws(StorageIOError) -> Void

    /// The real file system and machine.
    static let posix = StorageSystem(
        writeAtomically: { (data, url) throws(StorageIOError) in try StorageFileSystem.writeAtomically(data, to: url) },
        remove: { (url) throws(StorageIOError) in try StorageFileSystem.remove(url) },
        ensureDirectory: { (url, restrict) throws(StorageIOError) in try StorageFileSystem.ensureDirectory(url, restrictExisting: restrict) },
        creationObstacle: { StorageFileSystem.creationObstacle(at: $0) },
        directoryObstacle: { StorageFileSystem.directoryObstacle(at: $0) },
        machineID: { StorageFileSystem.machineID() },
        writeTemporary: { (data, url) throws(StorageIOError) in try StorageFileSystem.writeTemporary(data, beside: url) },
        syncFiles: { (urls) throws(StorageIOError) in try StorageFileSystem.syncFiles(urls) },
        replace: { (temporary, url) throws(StorageIOError) in try StorageFileSystem.move(temporary, over: url) },
        unlink: { (url) throws(StorageIOError) in try StorageFileSystem.unlinkFile(url) },
        syncDirectory: { (url) throws(StorageIOError) in try StorageFileSystem.syncDirectory(url) })
}
