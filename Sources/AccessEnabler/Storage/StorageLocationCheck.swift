import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Decides whether a store's directory can be trusted before anything is read from it or
/// written to it, and creates what is missing of it so that nobody else can slip in.
///
/// A store lives in `<storage directory>/<SHA-256 of the software statement>`. Walking the
/// path from `/`, one component at a time, each opened relative to the directory verified
/// before it (`openat` with `O_NOFOLLOW | O_DIRECTORY`, then `fstat` on what was opened — so
/// what is checked is what is used, whatever is renamed meanwhile):
///
/// - **The storage directory and the store's directory** must be real directories (not
///   symbolic links), owned by this process's user (`geteuid()`, so root is held to it too),
///   and writable by nobody else: no write bit for others, and none for the group unless it
///   is the user's private group (named after the user, with no other member). A sticky bit
///   does not make them acceptable: another user could still create the store's directory
///   in them first.
/// - **Every directory above** must belong to root or to this user and be writable by nobody
///   else — or carry the sticky bit (`/tmp`), in which nobody may rename or delete another
///   user's entries.
/// - **A symbolic link above the storage directory** is followed when root or this user owns
///   it (the directory holding it has passed the rule above, so nobody else put it there);
///   one owned by anybody else is refused.
///
/// What is missing is created (mode 0700, `mkdirat` relative to its verified parent) only by
/// ``prepare(statementDirectory:restrictExisting:)``, and opened again to be checked: a
/// directory another user created first, in a sticky `/tmp` say, is refused. Mode changes
/// (`fchmodat` in the verified parent) touch only directories this check created or verified
/// as the user's own. Since nobody else may change any directory on the way, a location
/// found trusted stays so; it is checked when a store opens and before each store's first
/// write (which may create it).
///
/// A file where a directory should be, or a directory that cannot be searched, is no stranger:
/// the check leaves it to the write that follows, which reports it as it always did.
enum StorageLocationCheck {
    /// What ``check(statementDirectory:)`` found.
    enum Verdict: Sendable, Equatable {
        /// The store's directory exists, and nobody but this user and root can change it or
        /// anything on the way to it.
        case trusted
        /// Nothing on the way belongs to a stranger, but the store's directory is not there
        /// (yet), or cannot be reached: there is nothing to read.
        case absent
        /// A stranger could read or replace what is kept there.
        case refused(StorageLocationRefusal)
    }

    /// Checks the store's directory at `statementDirectory` (inside the storage directory)
    /// without creating or changing anything.
    static func check(statementDirectory: URL) -> Verdict {
        switch Walk(creating: false, restrictingExisting: false).run(statementDirectory.path) {
        case .trusted: .trusted
        case .absent, .failed: .absent
        case .refused(let refusal): .refused(refusal)
        }
    }

    /// Checks the store's directory at `statementDirectory` and creates what is missing of it
    /// (mode 0700); with `restrictExisting`, an existing store directory is set to 0700 too.
    /// A location a stranger could touch throws a ``StorageIOError`` carrying the
    /// ``StorageLocationRefusal``; any other failure throws the system's reason.
    static func prepare(statementDirectory: URL, restrictExisting: Bool) throws(StorageIOError) {
        switch Walk(creating: true, restrictingExisting: restrictExisting).run(statementDirectory.path) {
        case .trusted, .absent:
            return
        case .failed(let error):
            throw error
        case .refused(let refusal):
            throw StorageIOError(operation: "check", path: refusal.path, code: EPERM, refusal: refusal)
        }
    }

    /// Whether a directory with `info`'s owner, group and mode may be written by another user.
    static func othersMayWrite(_ info: stat) -> Bool {
        if info.st_mode & Mode.othersWrite != 0 { return true }
        return info.st_mode & Mode.groupWrite != 0 && !UserPrivateGroup.isPrivate(info.st_gid)
    }

    /// Permission bits, spelled out (the C library's `S_I…` macros are not all imported).
    enum Mode {
        static let othersWrite: mode_t = 0o002
        static let groupWrite: mode_t = 0o020
        static let sticky: mode_t = 0o1000
        static let permissions: mode_t = 0o7777
        static let privateDirectory: mode_t = 0o700
    }
}

/// One walk down a path, verifying each directory it opens (see ``StorageLocationCheck``).
private struct Walk {
    let creating: Bool
    let restrictingExisting: Bool
    private let user = geteuid()

    init(creating: Bool, restrictingExisting: Bool) {
        self.creating = creating
        self.restrictingExisting = restrictingExisting
    }

    enum End {
        case trusted
        case absent
        case refused(StorageLocationRefusal)
        case failed(StorageIOError)
    }

    /// What stands at one name inside an open directory.
    private enum Entry {
        /// A directory, opened (`O_PATH`) with its status.
        case directory(descriptor: Int32, info: stat)
        case symbolicLink(stat)
        case missing
        /// A file or anything else that is not a directory.
        case notADirectory
        case failure(Int32)
    }

    /// Linux's `O_PATH` (the C library defines it only for GNU sources): opens a directory
    /// to walk through and check, with search permission only.
    private static let pathOnly: Int32 = 0o10000000
    /// The symbolic links followed on the way, as the kernel's own limit.
    private static let mostLinks = 40

    /// The directories opened so far, `/` first, and their names.
    private var opened: [Int32] = []
    private var names: [String] = []

    func run(_ path: String) -> End {
        var walk = self
        defer { for descriptor in walk.opened { close(descriptor) } }
        return walk.walk(path)
    }

    private mutating func walk(_ path: String) -> End {
        let root = open("/", Self.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return .failed(StorageIOError(operation: "open", path: "/", code: errno)) }
        opened = [root]
        var info = stat()
        guard fstat(root, &info) == 0 else { return .failed(StorageIOError(operation: "stat", path: "/", code: errno)) }
        if let reason = parentProblem(info) { return .refused(StorageLocationRefusal(path: "/", reason: reason)) }

        let components = Self.components(of: path)
        let ownCount = min(2, components.count)
        var pending = Array(components.dropLast(ownCount))
        var links = 0
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == ".." {
                if opened.count > 1 {
                    close(opened.removeLast())
                    names.removeLast()
                }
                continue
            }
            switch entry(name, creatingIfMissing: creating) {
            case .directory(let descriptor, let info):
                enter(descriptor, name)
                if let reason = parentProblem(info) {
                    return .refused(StorageLocationRefusal(path: shown(), reason: reason))
                }
            case .symbolicLink(let info):
                guard info.st_uid == 0 || info.st_uid == user else {
                    return .refused(
                        StorageLocationRefusal(
                            path: shown(name), reason: .symbolicLinkOfAnotherUser(owner: info.st_uid)))
                }
                links += 1
                guard links <= Self.mostLinks else {
                    return .refused(StorageLocationRefusal(path: shown(name), reason: .tooManySymbolicLinks))
                }
                guard let target = linkTarget(name) else {
                    return .failed(StorageIOError(operation: "readlink", path: shown(name), code: errno))
                }
                if target.hasPrefix("/") {
                    while opened.count > 1 { close(opened.removeLast()) }
                    names = []
                }
                pending = Self.components(of: target) + pending
            case .missing:
                return .absent
            case .notADirectory:
                return .failed(StorageIOError(operation: "mkdir", path: shown(name), code: ENOTDIR))
            case .failure(let code):
                return .failed(StorageIOError(operation: "open", path: shown(name), code: code))
            }
        }
        for (index, name) in components.suffix(ownCount).enumerated() {
            let isStoreDirectory = index == ownCount - 1
            switch entry(name, creatingIfMissing: creating) {
            case .directory(let descriptor, let info):
                let parent = opened[opened.count - 1]
                enter(descriptor, name)
                guard info.st_uid == user else {
                    return .refused(
                        StorageLocationRefusal(path: shown(), reason: .ownedByAnotherUser(owner: info.st_uid)))
                }
                guard !StorageLocationCheck.othersMayWrite(info) else {
                    return .refused(
                        StorageLocationRefusal(path: shown(), reason: .writableByOthers(mode: info.st_mode)))
                }
                let mode = info.st_mode & StorageLocationCheck.Mode.permissions
                if isStoreDirectory, restrictingExisting, mode != StorageLocationCheck.Mode.privateDirectory,
                    fchmodat(parent, name, StorageLocationCheck.Mode.privateDirectory, 0) != 0
                {
                    return .failed(StorageIOError(operation: "chmod", path: shown(), code: errno))
                }
            case .symbolicLink:
                return .refused(StorageLocationRefusal(path: shown(name), reason: .symbolicLink))
            case .missing:
                return .absent
            case .notADirectory:
                return .failed(
                    StorageIOError(operation: "mkdir", path: shown(name), code: isStoreDirectory ? EEXIST : ENOTDIR))
            case .failure(let code):
                return .failed(StorageIOError(operation: "open", path: shown(name), code: code))
            }
        }
        return .trusted
    }

    private mutating func enter(_ descriptor: Int32, _ name: String) {
        opened.append(descriptor)
        names.append(name)
    }

    /// The path walked so far (resolved), with `name` after it.
    private func shown(_ name: String? = nil) -> String {
        "/" + (names + [name].compactMap { $0 }).joined(separator: "/")
    }

    /// Why a directory above the storage directory cannot be trusted, if it cannot.
    private func parentProblem(_ info: stat) -> StorageLocationRefusal.Reason? {
        if info.st_uid != 0 && info.st_uid != user { return .parentOwnedByAnotherUser(owner: info.st_uid) }
        if StorageLocationCheck.othersMayWrite(info) && info.st_mode & StorageLocationCheck.Mode.sticky == 0 {
            return .parentWritableByOthers(mode: info.st_mode)
        }
        return nil
    }

    /// What stands at `name` in the last directory opened; when it is missing and the walk
    /// creates, a directory made there (mode 0700) — or whatever another process put there
    /// first, to be checked like anything found.
    private func entry(_ name: String, creatingIfMissing: Bool) -> Entry {
        let parent = opened[opened.count - 1]
        let found = entry(name, in: parent)
        guard creatingIfMissing, case .missing = found else { return found }
        guard mkdirat(parent, name, StorageLocationCheck.Mode.privateDirectory) == 0 else {
            return errno == EEXIST ? entry(name, in: parent) : .failure(errno)
        }
        let made = entry(name, in: parent)
        // mkdir's mode is filtered by the umask; state it. What was made is this process's
        // own, in a parent nobody else may change.
        if case .directory(_, let info) = made, info.st_uid == user {
            _ = fchmodat(parent, name, StorageLocationCheck.Mode.privateDirectory, 0)
        }
        return made
    }

    private func entry(_ name: String, in parent: Int32) -> Entry {
        let descriptor = openat(parent, name, Self.pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor >= 0 {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let code = errno
                close(descriptor)
                return .failure(code)
            }
            if info.st_mode & S_IFMT == S_IFDIR { return .directory(descriptor: descriptor, info: info) }
            close(descriptor)
            return info.st_mode & S_IFMT == S_IFLNK ? .symbolicLink(info) : .notADirectory
        }
        let code = errno
        guard code == ENOTDIR || code == ELOOP else { return code == ENOENT ? .missing : .failure(code) }
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            return errno == ENOENT ? .missing : .failure(errno)
        }
        return info.st_mode & S_IFMT == S_IFLNK ? .symbolicLink(info) : .notADirectory
    }

    /// Where the symbolic link `name` in the last directory opened points.
    private func linkTarget(_ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4097)
        let directory = opened[opened.count - 1]
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                guard let base = text.baseAddress else { return -1 }
                return readlinkat(directory, name, base, text.count - 1)
            }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// The names along `path`, without empty ones and `.`; `..` is left to the walk, which
    /// goes back up the directories it actually opened.
    private static func components(of path: String) -> [String] {
        path.split(separator: "/").filter { $0 != "." }.map(String.init)
    }
}

/// Whether a group is this user's private group: named after the user, the user's primary
/// group, with no other member — as distributions that give every user a group of their own
/// (and a umask of 002) set it up. A directory group-writable for that group is writable by
/// the user alone.
private enum UserPrivateGroup {
    static func isPrivate(_ group: gid_t) -> Bool {
        guard let user = userName(), let (name, members, _) = groupEntry(group) else { return false }
        return name == user.name && user.group == group && members.allSatisfy { $0 == user.name }
    }

    private static func userName() -> (name: String, group: gid_t)? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        // The entry's strings live in the buffer: read them while it is held.
        return buffer.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress, getpwuid_r(geteuid(), &entry, base, bytes.count, &found) == 0,
                found != nil,
                let name = entry.pw_name
            else { return nil }
            return (String(cString: name), entry.pw_gid)
        }
    }

    private static func groupEntry(_ id: gid_t) -> (name: String, members: [String], id: gid_t)? {
        var entry = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 64 * 1024)
        return buffer.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress, getgrgid_r(id, &entry, base, bytes.count, &found) == 0, found != nil,
                let name = entry.gr_name
            else { return nil }
            var members: [String] = []
            if var member = entry.gr_mem {
                while let current = member.pointee {
                    members.append(String(cString: current))
                    member += 1
                }
            }
            return (String(cString: name), members, entry.gr_gid)
        }
    }
}
