#if canImport(Glibc)
import Glibc
#endif

/// Who may talk to the service, judged from the connecting process's user as the kernel
/// reports it (`SO_PEERCRED`), never from anything the process says.
///
/// - Per user (the default): the socket's directory is 0700 and the socket 0600, so only
///   the service's user reaches it; a process of another user that still connects (through
///   a mode someone loosened) is refused. Every process of the user is an administrator:
///   the kernel cannot tell an app from the user's own shell.
/// - System-wide (`--group NAME`): the socket is 0660 in a 0750 directory of that group, so
///   its members connect; they are apps. The service's own user and root are administrators.
package enum PeerPolicy {
    /// How the service shares its socket.
    package enum Sharing: Sendable, Equatable {
        /// Only the service's user.
        case user
        /// The members of a group too (a system-wide service).
        case group(gid_t)
    }

    /// The role of a process of `peer` connecting to a service of `service`, or `nil` when
    /// it is refused.
    package static func role(peer: uid_t, service: uid_t, sharing: Sharing) -> PeerRole? {
        if peer == service || peer == 0 { return .administrator }
        switch sharing {
        case .user: return nil
        case .group: return .app
        }
    }
}
