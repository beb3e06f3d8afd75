import Foundation

/// The file-system operations a store performs and the machine fact it falls back on, as
/// values, so tests can make them fail as a full or read-only disk would. ``posix`` is the
/// real thing (``StorageFileSystem``).
///
/// A write is: a temporary file beside its file (``writeTemporary``), renamed over it
/// (``replace``); then, off the caller's path, its data made durable (``syncFiles``) and —
/// only when the rename created the file — its directory (``syncDirectory``).
struct StorageSystem: Sendable {
    /// Checks a store's directory (``StorageLocationCheck``) and creates what is missing of it
    /// with mode 0700; `true` restricts an existing one too. A location a stranger could touch
    /// throws an error carrying its ``StorageLocationRefusal``.
    var ensureDirectory: @Sendable (URL, Bool) throws(StorageIOError) -> Void
    /// Why a new file at this URL could not be written, found without writing (a cheap
    /// check before a write that happens later): `nil` when nothing stands in the way.
    var creationObstacle: @Sendable (URL) -> StorageIOError?
    /// This machine's stable identifier (`/etc/machine-id`), when there is one.
    var machineID: @Sendable () -> String?
    /// Writes `data` to a new temporary file beside the given file (mode 0600), locked by
    /// this writer and not yet durable; returns it open.
    var writeTemporary: @Sendable (Data, URL) throws(StorageIOError) -> StorageTemporaryFile
    /// Renames the first file over the second.
    var replace: @Sendable (URL, URL) throws(StorageIOError) -> Void
    /// Deletes a file, not yet durably; a missing file is not an error.
    var unlink: @Sendable (URL) throws(StorageIOError) -> Void
    /// Makes the content of these files durable, together (one wait for the disk, not one per file).
    var syncFiles: @Sendable ([URL]) throws(StorageIOError) -> Void
    /// Makes the files created (or deleted) in a directory durable.
    var syncDirectory: @Sendable (URL) throws(StorageIOError) -> Void

    /// The real file system and machine.
    static let posix = StorageSystem(
        ensureDirectory: { (url, restrict) throws(StorageIOError) in
            try StorageLocationCheck.prepare(statementDirectory: url, restrictExisting: restrict)
        },
        creationObstacle: { StorageFileSystem.creationObstacle(at: $0) },
        machineID: { StorageFileSystem.machineID() },
        writeTemporary: { (data, url) throws(StorageIOError) in try StorageFileSystem.writeTemporary(data, beside: url)
        },
        replace: { (temporary, url) throws(StorageIOError) in try StorageFileSystem.move(temporary, over: url) },
        unlink: { (url) throws(StorageIOError) in try StorageFileSystem.unlinkFile(url) },
        syncFiles: { (urls) throws(StorageIOError) in try StorageFileSystem.syncFiles(urls) },
        syncDirectory: { (url) throws(StorageIOError) in try StorageFileSystem.syncDirectory(url) })
}
