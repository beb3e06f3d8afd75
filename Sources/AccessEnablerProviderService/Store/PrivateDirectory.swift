import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A directory only the service's user may change: where it keeps its state and its socket.
///
/// The service refuses, with a sentence saying why, a directory that is a symbolic link,
/// belongs to another user, or may be written by its group or by others, and one whose parent
/// others may write without the sticky bit (they could rename the directory away and put theirs
/// in its place). Missing directories are created with `mode` (and given to `group`). A
/// directory that exists is never changed: the service has no business with the mode of a
/// directory it did not make (`/tmp`, `/run`), and the files it puts there are 0600 or 0660.
package enum PrivateDirectory {
    /// Why a directory was refused.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "refusing the directory \(path): \(reason)" }
    }

    /// Makes sure `path` is a private directory of this process's user: created with `mode`,
    /// and given to `group` when one is named (`mode` may then let the group in), when it
    /// does not exist.
    package static func prepare(_ path: String, mode: mode_t = 0o700, group: gid_t? = nil) throws(Refusal) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let created = try create(url, mode: mode)
        let owner = geteuid()
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            throw Refusal(path: url.path, reason: "it cannot be read (\(Self.errorText()))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(
                path: url.path,
                reason: "it is \(info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a directory")")
        }
        guard info.st_uid == owner else {
            throw Refusal(
                path: url.path, reason: "it belongs to user \(info.st_uid), not to this process's user \(owner)")
        }
        if created {
            // mkdir applied the umask: the mode and group meant, before anything goes in.
            if let group, chown(url.path, owner, group) != 0 {
                throw Refusal(path: url.path, reason: "it cannot be given to group \(group) (\(Self.errorText()))")
            }
            guard chmod(url.path, mode) == 0 else {
                throw Refusal(path: url.path, reason: "its mode cannot be set (\(Self.errorText()))")
            }
        } else if info.st_mode & 0o022 != 0 {
            throw Refusal(
                path: url.path,
                reason: "its group or others may write it (mode \(String(info.st_mode & 0o7777, radix: 8)))")
        }
        try checkParent(of: url, owner: owner)
    }

    /// Creates `url` and its missing parents with `mode`; `true` when `url` itself was created.
    private static func create(_ url: URL, mode: mode_t) throws(Refusal) -> Bool {
        var missing: [URL] = []
        var probe = url
        var info = stat()
        while lstat(probe.path, &info) != 0, errno == ENOENT, probe.path != "/" {
            missing.append(probe)
            probe = probe.deletingLastPathComponent()
        }
        for directory in missing.reversed() where mkdir(directory.path, mode) != 0 && errno != EEXIST {
            throw Refusal(path: directory.path, reason: "it cannot be created (\(Self.errorText()))")
        }
        return missing.first == url
    }

    /// The parent must belong to this user or root, and others may not write it unless it
    /// has the sticky bit (as `/tmp` does).
    private static func checkParent(of url: URL, owner: uid_t) throws(Refusal) {
        let parent = url.deletingLastPathComponent().path
        var info = stat()
        guard stat(parent, &info) == 0 else {
            throw Refusal(path: parent, reason: "it cannot be read (\(Self.errorText()))")
        }
        guard info.st_uid == owner || info.st_uid == 0 else {
            throw Refusal(path: url.path, reason: "its parent \(parent) belongs to user \(info.st_uid)")
        }
        let othersMayWrite = info.st_mode & 0o022 != 0
        let sticky = info.st_mode & mode_t(S_ISVTX) != 0
        guard !othersMayWrite || sticky else {
            throw Refusal(path: url.path, reason: "others may write its parent \(parent), which has no sticky bit")
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
