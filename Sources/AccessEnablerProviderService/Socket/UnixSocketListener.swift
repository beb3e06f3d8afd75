import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The service's listening Unix socket.
///
/// At start it deals with what is already at the path: a socket that answers belongs to a
/// running service (refused: one service per socket); a socket nobody answers is a leftover
/// of a service that died (removed); anything else is refused. The socket file gets its mode
/// (and group) before the first connection can arrive, and is removed at ``close()`` unless
/// another file took its place meanwhile.
package final class UnixSocketListener: @unchecked Sendable {
    /// Why the socket could not be opened.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// The socket's path.
    package let path: String
    private let descriptor: Int32
    /// The socket file's inode, to remove only this socket at close.
    private let inode: ino_t
    private let lock = NSLock()
    private var closed = false

    /// Opens and listens on `path` (at most 107 bytes) with `mode`, given to `group` when named.
    /// `leftover` is told when a stale socket file was removed.
    package init(path: String, mode: mode_t, group: gid_t?, leftover: (String) -> Void = { _ in }) throws(Failure) {
        guard let address = UnixSocketAddress(path: path) else {
            throw Failure("the socket path \(path) is longer than \(UnixSocketAddress.maximumPathLength) bytes")
        }
        try Self.clear(path, address: address, leftover: leftover)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("cannot create a socket: \(PrivateDirectory.errorText())") }
        // The file is created 0600 whatever the umask, then given its own mode: no moment
        // when another user could connect.
        let previous = umask(0o177)
        let bound = address.withPointer { bind(descriptor, $0, $1) }
        umask(previous)
        guard bound == 0 else {
            let reason = PrivateDirectory.errorText()
            Glibc.close(descriptor)
            throw Failure("cannot listen at \(path): \(reason)")
        }
        var info = stat()
        guard lstat(path, &info) == 0, group.map({ chown(path, geteuid(), $0) == 0 }) ?? true, chmod(path, mode) == 0,
            listen(descriptor, 64) == 0
        else {
            let reason = PrivateDirectory.errorText()
            Glibc.close(descriptor)
            unlink(path)
            throw Failure("cannot set up the socket \(path): \(reason)")
        }
        self.path = path
        self.descriptor = descriptor
        inode = info.st_ino
    }

    /// Accepts connections on a thread of its own, handing each connected descriptor to
    /// `accepted`, until ``close()``.
    package func start(_ accepted: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection >= 0 {
                    // Not inherited by the prompt's command (accept4 is not in Glibc's module).
                    _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                    accepted(connection)
                    continue
                }
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
                    // Out of descriptors: wait a little rather than spin.
                    if errno == EMFILE || errno == ENFILE { usleep(100_000) }
                    if !lock.withLock({ closed }) { continue }
                }
                return
            }
        }
        thread.name = "accessenabler.provider-service.accept"
        thread.start()
    }

    /// Stops listening and removes the socket file (when it is still this socket's).
    package func close() {
        let first = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        var info = stat()
        if lstat(path, &info) == 0, info.st_ino == inode { unlink(path) }
        shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
    }

    /// Leaves the path free: removes a stale socket, refuses a live one or another file.
    private static func clear(_ path: String, address: UnixSocketAddress, leftover: (String) -> Void) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw Failure("\(path) exists and is not a socket: remove it, or choose another --socket")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw Failure("cannot create a socket: \(PrivateDirectory.errorText())") }
        defer { Glibc.close(probe) }
        if address.withPointer({ connect(probe, $0, $1) }) == 0 {
            throw Failure("another provider service is already listening at \(path)")
        }
        guard errno == ECONNREFUSED else {
            throw Failure("cannot tell whether \(path) is in use: \(PrivateDirectory.errorText())")
        }
        guard unlink(path) == 0 else {
            throw Failure("cannot remove the stale socket \(path): \(PrivateDirectory.errorText())")
        }
        leftover(path)
    }
}

/// A `sockaddr_un` for a path.
struct UnixSocketAddress {
    /// `sun_path` holds 108 bytes, the last one a NUL.
    static let maximumPathLength = 107
    private var storage = sockaddr_un()

    init?(path: String) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumPathLength else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    func withPointer<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
