import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file-system call, with the path and the system's reason.
struct StorageIOError: Error, Sendable, CustomStringConvertible {
    var operation: String
    var path: String
    var code: Int32
    /// Set when the location was refused (``StorageLocationCheck``): a stranger could touch it.
    var refusal: StorageLocationRefusal? = nil

    var description: String { refusal?.message ?? "\(operation) \(path): \(String(cString: strerror(code)))" }
}

/// A temporary file being written: its path and the open descriptor through which its writer
/// holds a lock on it (`flock`) until it is renamed into place or removed.
struct StorageTemporaryFile: Sendable {
    let url: URL
    /// `-1` when there is none (a test's stand-in).
    let descriptor: Int32

    /// Closes the descriptor, which lets go of the writer's lock.
    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}

/// The few POSIX operations storage needs, done so that a crash at any instant leaves either
/// the old or the new version of a file, never a mix: private permissions (directories 0700,
/// files 0600), a temporary file locked by its writer, rename, then the data sync.
enum StorageFileSystem {
    /// Suffix of temporary files; leftovers from an interrupted write are removed by a later write.
    static let temporarySuffix = ".tmp"

    /// The largest store file read (16 MiB): anything longer is not a store this SDK wrote.
    static let largestFile = 16 * 1024 * 1024

    /// Writes `data` to a new temporary file (mode 0600) in `file`'s directory, named after
    /// `file` (``StorageLayout/temporaryFileName(for:token:)``), and returns it open and
    /// locked: its writer holds an exclusive `flock` on it, so a launch that sweeps leftovers
    /// (``sweepTemporaryFiles(in:)``) leaves it alone for as long as the writer lives — in
    /// whatever process or PID namespace. The content is not durable until synced.
    static func writeTemporary(_ data: Data, beside file: URL) throws(StorageIOError) -> StorageTemporaryFile {
        // Made on the path's text: URL's path operations cost tens of thousands of
        // instructions each.
        let (directory, name) = splitPath(file.path)
        let temporaryPath =
            "\(directory)/\(StorageLayout.temporaryFileName(for: name, token: Hex.encode(randomBytes(count: 8))))"
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw StorageIOError(operation: "open", path: temporaryPath, code: errno)
        }
        do throws(StorageIOError) {
            if flock(descriptor, LOCK_EX) != 0 {
                throw StorageIOError(operation: "flock", path: temporaryPath, code: errno)
            }
            try writeAll(data, to: descriptor, path: temporaryPath)
        } catch {
            unlink(temporaryPath)
            close(descriptor)
            throw error
        }
        return StorageTemporaryFile(
            url: URL(fileURLWithPath: temporaryPath, isDirectory: false), descriptor: descriptor)
    }

    /// Gives the file open as `descriptor` a modification time later than `previous`'s (and
    /// no earlier than now), so that its signature differs from every earlier version's.
    static func stamp(_ descriptor: Int32, after previous: FileSignature?) {
        guard descriptor >= 0 else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var stamp = now
        if let previous {
            let floor = (seconds: previous.modifiedSeconds, nanoseconds: previous.modifiedNanoseconds + 1)
            if (floor.seconds, floor.nanoseconds) > (Int(now.tv_sec), Int(now.tv_nsec)) {
                stamp.tv_sec = floor.nanoseconds >= 1_000_000_000 ? floor.seconds + 1 : floor.seconds
                stamp.tv_nsec = floor.nanoseconds >= 1_000_000_000 ? 0 : floor.nanoseconds
            }
        }
        // Access time left as it is, modification time set.
        var times = [timespec(tv_sec: 0, tv_nsec: omitTime), stamp]
        _ = futimens(descriptor, &times)
    }

    /// `UTIME_OMIT`, which the C library defines as a macro Swift does not import.
    private static let omitTime = (1 << 30) - 2

    /// `path`'s directory (without a trailing slash; empty for the root) and last component.
    static func splitPath(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// Makes the content of `files` durable, waiting for the disk about once: it first
    /// starts writing every file back (`sync_file_range`, which does not wait), then waits
    /// for each with `fdatasync`. The first wait commits the file system's journal for all
    /// of them; the others find their data written and nothing left to commit. Unlike
    /// `syncfs`, it never waits for other programs' unwritten data. A file that is gone (a
    /// later write replaced it, and syncs its own version) is skipped.
    static func syncFiles(_ files: [URL]) throws(StorageIOError) {
        var opened: [(descriptor: Int32, path: String)] = []
        defer { for file in opened { close(file.descriptor) } }
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { continue }
                throw StorageIOError(operation: "open", path: file.path, code: errno)
            }
            opened.append((descriptor, file.path))
            if files.count > 1 { _ = syncFileRange?(descriptor, 0, 0, writeBackFlag) }
        }
        for file in opened where fdatasync(file.descriptor) != 0 {
            throw StorageIOError(operation: "fdatasync", path: file.path, code: errno)
        }
    }

    /// Starts writing back the data of every file at `paths` without waiting for it
    /// (`sync_file_range`), so that the `fdatasync` that follows for the first of them finds
    /// the others' data on its way and commits the journal for all of them at once.
    static func startWriteBack(_ paths: [String]) {
        guard let syncFileRange else { return }
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            _ = syncFileRange(descriptor, 0, 0, writeBackFlag)
            close(descriptor)
        }
    }

    /// Linux's `sync_file_range(2)`, looked up at run time (the C library declares it only
    /// for GNU sources, which Swift's Glibc module does not enable); `nil` elsewhere, where
    /// `fdatasync` alone does the work.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// `SYNC_FILE_RANGE_WRITE`: start writing back dirty pages, do not wait.
    private static let writeBackFlag: UInt32 = 2

    /// Renames `temporary` over `file` (atomic on one file system).
    static func move(_ temporary: URL, over file: URL) throws(StorageIOError) {
        if rename(temporary.path, file.path) != 0 {
            throw StorageIOError(operation: "rename", path: file.path, code: errno)
        }
    }

    /// Deletes `file`, not yet durably; a missing file is not an error.
    static func unlinkFile(_ file: URL) throws(StorageIOError) {
        if unlink(file.path) != 0, errno != ENOENT {
            throw StorageIOError(operation: "unlink", path: file.path, code: errno)
        }
    }

    /// The whole content of `file` and the signature of the version read, or `nil` when it
    /// does not exist. A file longer than ``largestFile`` is refused (`EFBIG`).
    static func read(_ path: String) throws(StorageIOError) -> (data: Data, signature: FileSignature?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            // Not there, or a file stands where a directory of the path should be (which
            // the store reports when it tries to write).
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw StorageIOError(operation: "open", path: path, code: errno)
        }
        defer { close(descriptor) }
        let signature = FileSignature(descriptor: descriptor)
        if let size = signature?.size, size > Int64(largestFile) {
            throw StorageIOError(operation: "read", path: path, code: EFBIG)
        }
        var content = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageIOError(operation: "read", path: path, code: errno)
            }
            if count == 0 { return (content, signature) }
            content.append(contentsOf: buffer[0..<count])
            if content.count > largestFile { throw StorageIOError(operation: "read", path: path, code: EFBIG) }
        }
    }

    /// The whole content of `file`, or nil when it does not exist.
    static func contents(of file: URL) throws(StorageIOError) -> Data? {
        try read(file.path)?.data
    }

    /// Removes the temporary files in `directory` that nobody holds: their writer is gone
    /// (it crashed or was killed mid-write). A temporary file whose writer lives is locked
    /// (``writeTemporary(_:beside:)``) and stays, whatever process or PID namespace holds
    /// it — no process id is trusted. Returns how many were removed.
    ///
    /// It touches only what the SDK wrote: the directory must be this user's own (opened
    /// without following a link), and a file goes only when its name is one the SDK gives
    /// its temporaries (``StorageLayout/isTemporaryFile(_:)``), it is a regular file with no
    /// other name (one link), this user owns it, and the entry removed is the file checked
    /// (`unlinkat` in the directory opened, after comparing device and inode). Nothing is
    /// followed, opened for writing or given other permissions.
    @discardableResult
    static func sweepTemporaryFiles(in directory: URL) -> Int {
        let user = geteuid()
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return 0 }
        defer { close(folder) }
        var info = stat()
        guard fstat(folder, &info) == 0, info.st_uid == user, !StorageLocationCheck.othersMayWrite(info) else {
            return 0
        }
        var removed = 0
        for name in entryNames(of: folder) where StorageLayout.isTemporaryFile(name) {
            let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var file = stat()
            guard fstat(descriptor, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_uid == user,
                file.st_nlink == 1
            else { continue }
            // Held by its writer: a write in progress.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            var entry = stat()
            guard fstatat(folder, name, &entry, AT_SYMLINK_NOFOLLOW) == 0, entry.st_dev == file.st_dev,
                entry.st_ino == file.st_ino
            else { continue }
            if unlinkat(folder, name, 0) == 0 { removed += 1 }
        }
        return removed
    }

    /// The names in the open directory `folder` (`.` and `..` left out), read through a
    /// descriptor of its own so `folder` stays open.
    private static func entryNames(of folder: Int32) -> [String] {
        let copy = dup(folder)
        guard copy >= 0 else { return [] }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `count` bytes from the system's cryptographically secure generator: one `getentropy`
    /// call (one `getrandom` system call) for up to 256 bytes.
    static func randomBytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = count <= 256 && bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) == 0 }
        if !filled {
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max, using: &generator) }
        }
        return bytes
    }

    /// Why a new file at `file` could not be written, found without writing: a directory in
    /// the way, a directory the process may not write, a read-only or full file system.
    /// `nil` when nothing stands in the way (the write itself may still fail). A directory
    /// that does not exist yet stands in the way only when it could not be created.
    static func creationObstacle(at file: URL) -> StorageIOError? {
        let path = file.path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            return StorageIOError(
                operation: "create", path: path, code: info.st_mode & S_IFMT == S_IFDIR ? EISDIR : EEXIST)
        }
        let directory = splitPath(path).directory
        guard stat(directory, &info) == 0 else {
            if errno == ENOENT { return directoryObstacle(at: URL(fileURLWithPath: directory, isDirectory: true)) }
            return StorageIOError(operation: "stat", path: directory, code: errno)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return StorageIOError(operation: "mkdir", path: directory, code: EEXIST)
        }
        return writableDirectoryObstacle(directory)
    }

    /// Why `directory` could not be created or used, found without creating it: a file in
    /// the way, an ancestor the process may not write, a read-only or full file system.
    /// `nil` when it exists as a directory, or when its nearest existing ancestor would let
    /// it be created.
    static func directoryObstacle(at directory: URL) -> StorageIOError? {
        // Walked up on the path's text: URL's own path operations cost tens of microseconds
        // each, and a new store asks this before its sign-in can start.
        let target = directory.path
        var current = target
        var info = stat()
        while true {
            if stat(current, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    return StorageIOError(operation: "mkdir", path: current, code: current == target ? EEXIST : ENOTDIR)
                }
                return current == target ? nil : writableDirectoryObstacle(current)
            }
            guard errno == ENOENT else { return StorageIOError(operation: "stat", path: current, code: errno) }
            guard let slash = current.utf8.lastIndex(of: UInt8(ascii: "/")), current != "/" else {
                return StorageIOError(operation: "stat", path: current, code: ENOENT)
            }
            current = slash == current.utf8.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// Why nothing can be created in the existing directory at `path`: not writable, a
    /// read-only or full file system; `nil` when nothing stands in the way.
    private static func writableDirectoryObstacle(_ path: String) -> StorageIOError? {
        if access(path, W_OK | X_OK) != 0 {
            return StorageIOError(operation: "access", path: path, code: errno)
        }
        var volume = statvfs()
        if statvfs(path, &volume) == 0 {
            if volume.f_flag & UInt(ST_RDONLY) != 0 {
                return StorageIOError(operation: "statvfs", path: path, code: EROFS)
            }
            // Room for a temporary copy of a small store and its directory entry.
            if UInt64(volume.f_bavail) * UInt64(volume.f_frsize) < 64 * 1024 {
                return StorageIOError(operation: "statvfs", path: path, code: ENOSPC)
            }
        }
        return nil
    }

    /// This machine's identifier from `/etc/machine-id` (or D-Bus's copy), when readable:
    /// 32 hex characters, stable for the life of the installation.
    static func machineID() -> String? {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            guard let data = try? contents(of: URL(fileURLWithPath: path)) else { continue }
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return text }
        }
        return nil
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(StorageIOError) {
        var failure: Int32?
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if let failure {
            throw StorageIOError(operation: "write", path: path, code: failure)
        }
    }

    /// Makes a file's creation (or a deletion) in `directory` durable.
    static func syncDirectory(_ directory: URL) throws(StorageIOError) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StorageIOError(operation: "open", path: directory.path, code: errno)
        }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 {
            throw StorageIOError(operation: "fsync", path: directory.path, code: errno)
        }
    }
}
