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
    /// This machine's stable identifier (`/etc/machine-id`), when there is one.
    var machineID: @Sendable () -> String?

    /// The real file system and machine.
    static let posix = StorageSystem(
        writeAtomically: { (data, url) throws(StorageIOError) in try StorageFileSystem.writeAtomically(data, to: url) },
        remove: { (url) throws(StorageIOError) in try StorageFileSystem.remove(url) },
        ensureDirectory: { (url, restrict) throws(StorageIOError) in try StorageFileSystem.ensureDirectory(url, restrictExisting: restrict) },
        creationObstacle: { StorageFileSystem.creationObstacle(at: $0) },
        machineID: { StorageFileSystem.machineID() })
}
