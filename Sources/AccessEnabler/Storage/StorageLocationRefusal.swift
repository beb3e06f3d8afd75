import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a storage directory is refused (``StorageLocationCheck``): a stranger — another user
/// of the device — could read the session kept there, plant files in it or point it at the
/// user's own files.
///
/// ``message`` is a sentence a person can act on: which path, what is wrong, what to do, and
/// what the SDK does meanwhile (keeps the session in memory, reads and writes nothing there).
struct StorageLocationRefusal: Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with ``path``.
    enum Reason: Sendable, Equatable {
        /// The storage directory or the store's own directory is a symbolic link.
        case symbolicLink
        /// A symbolic link on the way to the storage directory, owned by `owner` (neither
        /// root nor this process's user).
        case symbolicLinkOfAnotherUser(owner: UInt32)
        /// The storage directory or the store's own directory belongs to `owner`.
        case ownedByAnotherUser(owner: UInt32)
        /// The storage directory or the store's own directory may be written by other users.
        case writableByOthers(mode: UInt32)
        /// A directory above the storage directory belongs to `owner` (neither root nor this
        /// process's user), who could replace what lies below it.
        case parentOwnedByAnotherUser(owner: UInt32)
        /// A directory above the storage directory may be written by other users and has no
        /// sticky bit: any of them could replace what lies below it.
        case parentWritableByOthers(mode: UInt32)
        /// More symbolic links on the way than the system follows.
        case tooManySymbolicLinks
    }

    /// The directory (or link) found wrong.
    var path: String
    var reason: Reason

    /// What is wrong, what to do, and what the SDK does meanwhile.
    var message: String {
        let user = geteuid()
        let problem: String
        switch reason {
        case .symbolicLink:
            problem =
                "it is a symbolic link, which the SDK does not follow there: whoever made it chooses where the"
                + " session goes. Replace it with a real directory of this user's own, or set"
                + " AccessEnablerConfiguration.storageDirectory to the directory it points to"
        case .symbolicLinkOfAnotherUser(let owner):
            problem =
                "it is a symbolic link owned by user \(owner), neither root nor this process's user (\(user)), who"
                + " can point it anywhere. Set AccessEnablerConfiguration.storageDirectory to a path without it"
        case .ownedByAnotherUser(let owner):
            problem =
                "it belongs to user \(owner), not to this process's user (\(user)), who could read or change the"
                + " session kept there. Remove it (the SDK creates its own, mode 0700), or set"
                + " AccessEnablerConfiguration.storageDirectory to a directory this user owns"
        case .writableByOthers(let mode):
            problem =
                "other users may write into it (mode \(Self.octal(mode))) and plant or replace the files kept there."
                + " Make it private (chmod 700), or set AccessEnablerConfiguration.storageDirectory to a directory"
                + " only this user may write"
        case .parentOwnedByAnotherUser(let owner):
            problem =
                "this directory above the storage directory belongs to user \(owner), neither root nor this"
                + " process's user (\(user)), who could replace the storage directory. Set"
                + " AccessEnablerConfiguration.storageDirectory under directories that only root or this user own"
        case .parentWritableByOthers(let mode):
            problem =
                "this directory above the storage directory may be written by other users and has no sticky bit"
                + " (mode \(Self.octal(mode))): any of them could replace the storage directory. Remove their write"
                + " permission (chmod go-w) or set the sticky bit (chmod +t), or set"
                + " AccessEnablerConfiguration.storageDirectory elsewhere"
        case .tooManySymbolicLinks:
            problem =
                "the path goes through more symbolic links than the system follows."
                + " Set AccessEnablerConfiguration.storageDirectory to the real directory"
        }
        return "Refused the storage directory at \(path): \(problem). Until then the SDK keeps the session in memory"
            + " only: it reads and writes nothing there, and a sign-in is lost when the app quits."
    }

    var description: String { message }

    /// `mode`'s permission bits as `chmod` writes them (`0777`, `1777`).
    private static func octal(_ mode: UInt32) -> String {
        let bits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - bits.count)) + bits
    }
}
