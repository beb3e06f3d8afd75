#if canImport(Glibc)
import Glibc
#endif

/// The process at the other end of a Unix socket, as the kernel reports it (`SO_PEERCRED`).
package struct PeerCredentials: Sendable, Equatable {
    /// Linux's `struct ucred` (three 32-bit fields), which Glibc's Swift module leaves out.
    private struct UCred {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    package var pid: pid_t
    package var uid: uid_t
    package var gid: gid_t

    /// The peer of the connected socket `descriptor`, or `nil` when the kernel does not say.
    package init?(socket descriptor: Int32) {
        var credentials = UCred()
        var length = socklen_t(MemoryLayout<UCred>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout<UCred>.size
        else {
            return nil
        }
        pid = credentials.pid
        uid = credentials.uid
        gid = credentials.gid
    }
}
