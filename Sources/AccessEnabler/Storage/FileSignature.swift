import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which version of a file a store knows: device, inode, size and modification time.
///
/// A writer replaces `store.json` by renaming a new file over it and gives each version a
/// modification time later than the one it replaces (``StorageFileSystem/stamp(_:after:)``),
/// so a version another writer made always shows as a different signature — even when the
/// file system hands the new file an inode number an older version had, and whatever the
/// clock does.
struct FileSignature: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    /// The signature of the file at `path`, or `nil` when there is none (one `stat`).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The signature of the open file `descriptor`, or `nil` when it cannot be read.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }

    /// Whether both name the same file (device and inode), whatever its content.
    func isSameFile(as other: FileSignature) -> Bool {
        device == other.device && inode == other.inode
    }
}
