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

    var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}

/// The few POSIX operations storage needs, done so that a crash at any instant leaves either
/// the old or the new version of a file, never a mix: private permissions (directories 0700,
/// files 0600) and write-to-temporary, fsync, rename, fsync-directory.
enum StorageFileSystem {
    /// Suffix of temporary files; leftovers from an interrupted write are removed at launch.
    static let temporarySuffix = ".tmp"

    /// Creates `directory` and any missing parents with mode 0700. When `restrictExisting`,
    /// an existing `directory` is set to 0700 too (parents that already exist are left alone).
    static func ensureDirectory(_ directory: URL, restrictExisting: Bool) throws(StorageIOError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            if restrictExisting, chmod(path, 0o700) != 0 {
                throw StorageIOError(operation: "chmod", path: path, code: errno)
            }
            return
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path != path {
            try ensureDirectory(parent, restrictExisting: false)
        }
        if mkdir(path, 0o700) != 0 {
            let code = errno
            // EEXIST is fine only if another process just created the directory.
            let createdMeanwhile =
                code == EEXIST
                && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            if !createdMeanwhile {
                throw StorageIOError(operation: "mkdir", path: path, code: code)
            }
        }
        // mkdir's mode is filtered by the umask; state it explicitly.
        if chmod(path, 0o700) != 0 {
            throw StorageIOError(operation: "chmod", path: path, code: errno)
        }
    }

    /// Replaces `file` with `data` atomically and durably, with mode 0600.
    static func writeAtomically(_ data: Data, to file: URL) throws(StorageIOError) {
        let temporary = try writeTemporary(data, beside: file)
        do throws(StorageIOError) {
            try syncFile(temporary)
            try move(temporary, over: file)
        } catch {
            unlink(temporary.path)
            throw error
        }
        try syncDirectory(file.deletingLastPathComponent())
    }

    /// Writes `data` to a new temporary file (mode 0600) in `file`'s directory, named after
    /// `file` and its writer (``StorageLayout/temporaryFileName(for:writer:token:)``), and
    /// returns it. The content is not durable until ``syncFile(_:)``; a crash leaves the file
    /// behind, and a later launch removes it once this process is gone.
    static func writeTemporary(_ data: Data, beside file: URL) throws(StorageIOError) -> URL {
        // Made on the path's text: URL's path operations cost tens of thousands of
        // instructions each, and every record written makes a temporary file.
        let (directory, name) = splitPath(file.path)
        let temporaryName = StorageLayout.temporaryFileName(for: name, writer: currentProcess, token: Hex.encode(randomBytes(count: 6)))
        let temporaryPath = "\(directory)/\(temporaryName)"
        let temporary = URL(fileURLWithPath: temporaryPath, isDirectory: false)
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageIOError(operation: "open", path: temporaryPath, code: errno)
        }
        do throws(StorageIOError) {
            defer { close(descriptor) }
            if fchmod(descriptor, 0o600) != 0 {
                throw StorageIOError(operation: "fchmod", path: temporaryPath, code: errno)
            }
            try writeAll(data, to: descriptor, path: temporaryPath)
        } catch {
            unlink(temporaryPath)
            throw error
        }
        return temporary
    }

    /// `path`'s directory (without a trailing slash; empty for the root) and last component.
    static func splitPath(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// Makes `file`'s content durable (`fdatasync`: the data and what is needed to read it back).
    static func syncFile(_ file: URL) throws(StorageIOError) {
        let descriptor = open(file.path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StorageIOError(operation: "open", path: file.path, code: errno)
        }
        defer { close(descriptor) }
        if fdatasync(descriptor) != 0 {
            throw StorageIOError(operation: "fsync", path: file.path, code: errno)
        }
    }

    /// Makes the content of `files` durable, waiting for the disk about once: it first
    /// starts writing every file back (`sync_file_range`, which does not wait), then waits
    /// for each with `fdatasync`. The first wait commits the file system's journal for all
    /// of them; the others find their data written and nothing left to commit. Unlike
    /// `syncfs`, it never waits for other programs' unwritten data.
    static func syncFiles(_ files: [URL]) throws(StorageIOError) {
        guard files.count > 1 else {
            if let file = files.first { try syncFile(file) }
            return
        }
        var opened: [(descriptor: Int32, path: String)] = []
        defer { for file in opened { close(file.descriptor) } }
        for file in files {
            let descriptor = open(file.path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw StorageIOError(operation: "open", path: file.path, code: errno) }
            opened.append((descriptor, file.path))
            _ = startWriteBack?(descriptor, 0, 0, writeBackFlag)
        }
        for file in opened where fdatasync(file.descriptor) != 0 {
            throw StorageIOError(operation: "fsync", path: file.path, code: errno)
        }
    }

    /// Linux's `sync_file_range(2)`, looked up at run time (the C library declares it only
    /// for GNU sources, which Swift's Glibc module does not enable); `nil` elsewhere, where
    /// `fdatasync` alone does the work.
    private static let startWriteBack: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
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

    /// The whole content of `file`, or nil when it does not exist.
    static func contents(of file: URL) throws(StorageIOError) -> Data? {
        let path = file.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw StorageIOError(operation: "open", path: path, code: errno)
        }
        defer { close(descriptor) }
        var content = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageIOError(operation: "read", path: path, code: errno)
            }
            if count == 0 { return content }
            content.append(contentsOf: buffer[0..<count])
        }
    }

    /// Deletes `file` and makes the deletion durable; a missing file is not an error.
    static func remove(_ file: URL) throws(StorageIOError) {
        if unlink(file.path) != 0 {
            if errno == ENOENT { return }
            throw StorageIOError(operation: "unlink", path: file.path, code: errno)
        }
        try syncDirectory(file.deletingLastPathComponent())
    }

    /// This process's id, read once.
    static let currentProcess = getpid()

    /// Whether a process with id `pid` exists (possibly another user's).
    static func processExists(_ pid: pid_t) -> Bool {
        // kill(pid, 0) fails with ESRCH only when no such process exists.
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// How many seconds ago `file` was last modified, or `nil` when it cannot be read.
    static func age(of file: URL) -> TimeInterval? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        let modified = TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1_000_000_000
        return Date().timeIntervalSince1970 - modified
    }

    /// Names of the entries of `directory` (empty when it cannot be listed).
    static func fileNames(in directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
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
            return StorageIOError(operation: "create", path: path, code: info.st_mode & S_IFMT == S_IFDIR ? EISDIR : EEXIST)
        }
        let directory = file.deletingLastPathComponent()
        if stat(directory.path, &info) != 0, errno == ENOENT {
            return directoryObstacle(at: directory)
        }
        return writableDirectoryObstacle(directory.path)
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
            if volume.f_flag & UInt(ST_RDONLY) != 0 { return StorageIOError(operation: "statvfs", path: path, code: EROFS) }
            // Room for a temporary copy of a small record and its directory entry.
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
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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

    /// Makes a rename or unlink in `directory` durable.
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
