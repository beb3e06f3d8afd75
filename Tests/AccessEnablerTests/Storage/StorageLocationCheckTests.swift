import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// The store's directory is checked on real directories, links and — as root — files of
/// another user: what is the user's own is used (and created 0700), what a stranger could
/// touch is refused, and a file in the way is left to the write that reports it.
@Suite struct StorageLocationCheckTests {
    /// A scratch directory of this user's own (0700), removed by ``remove()``.
    struct Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "location-check-\(UUID().uuidString)", isDirectory: true)

        init() throws {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            #expect(chmod(root.path, 0o700) == 0)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        /// A directory `name` in the scratch directory with `mode`.
        func directory(_ name: String, mode: mode_t = 0o700) throws -> URL {
            let url = root.appendingPathComponent(name, isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            #expect(chmod(url.path, mode) == 0)
            return url
        }

        /// The store's directory of the tests' software statement under `storage`.
        func store(in storage: URL) -> URL {
            StorageLayout.statementDirectory(in: storage, softwareStatement: "STATEMENT")
        }
    }

    /// Another user's id, for files made as root and handed over (`chown`).
    static let stranger: uid_t = 65534
    static let isRoot = geteuid() == 0

    static func mode(_ url: URL) -> mode_t {
        var info = stat()
        #expect(lstat(url.path, &info) == 0)
        return info.st_mode & 0o7777
    }

    static func refusal(_ verdict: StorageLocationCheck.Verdict) -> StorageLocationRefusal? {
        if case .refused(let refusal) = verdict { return refusal }
        return nil
    }

    /// `prepare`'s refusal, or `nil` when it did not refuse.
    static func preparing(_ store: URL) -> StorageLocationRefusal? {
        do throws(StorageIOError) {
            try StorageLocationCheck.prepare(statementDirectory: store, restrictExisting: true)
            return nil
        } catch {
            return error.refusal
        }
    }

    @Test func theUsersOwnDirectoriesAreUsedAndWhatIsMissingIsCreatedPrivate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let storage = scratch.root.appendingPathComponent("share/accessenabler")
        let store = scratch.store(in: storage)
        #expect(StorageLocationCheck.check(statementDirectory: store) == .absent)
        #expect(!FileManager.default.fileExists(atPath: storage.path), "checking creates nothing")
        try StorageLocationCheck.prepare(statementDirectory: store, restrictExisting: true)
        #expect(StorageLocationCheck.check(statementDirectory: store) == .trusted)
        for created in [storage.deletingLastPathComponent(), storage, store] {
            #expect(Self.mode(created) == 0o700, "\(created.path)")
        }
        // An existing store directory of the user's own is made private again.
        #expect(chmod(store.path, 0o755) == 0)
        try StorageLocationCheck.prepare(statementDirectory: store, restrictExisting: true)
        #expect(Self.mode(store) == 0o700)
        // A storage directory the app made itself, readable by others, is the user's own.
        let appMade = try scratch.directory("app-data", mode: 0o755)
        try StorageLocationCheck.prepare(statementDirectory: scratch.store(in: appMade), restrictExisting: true)
        #expect(Self.mode(appMade) == 0o755, "a directory the SDK did not create keeps its mode")
    }

    @Test func aStickyParentOthersMayWriteIsFineWhenTheDirectoryInItIsTheUsersOwn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let shared = try scratch.directory("tmp", mode: 0o1777)
        let store = scratch.store(in: shared.appendingPathComponent("accessenabler"))
        try StorageLocationCheck.prepare(statementDirectory: store, restrictExisting: true)
        #expect(StorageLocationCheck.check(statementDirectory: store) == .trusted)
    }

    @Test func aParentOthersMayWriteWithoutTheStickyBitIsRefusedAndNothingIsCreatedUnderIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let open = try scratch.directory("open", mode: 0o777)
        let storage = open.appendingPathComponent("accessenabler")
        let store = scratch.store(in: storage)
        let expected = StorageLocationRefusal(path: open.path, reason: .parentWritableByOthers(mode: 0o40777))
        #expect(StorageLocationCheck.check(statementDirectory: store) == .refused(expected))
        #expect(Self.preparing(store) == expected)
        #expect(!FileManager.default.fileExists(atPath: storage.path))
        #expect(expected.message.contains("Refused the storage directory at \(open.path)"))
        #expect(expected.message.contains("no sticky bit (mode 0777)"))
        #expect(expected.message.contains("chmod +t"))
        #expect(expected.message.contains("keeps the session in memory only"))
    }

    @Test func aStorageDirectoryOthersMayWriteIsRefusedEvenWithTheStickyBit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for mode: mode_t in [0o777, 0o1777, 0o722] {
            let storage = try scratch.directory("storage-\(String(mode, radix: 8))", mode: mode)
            let refusal = try #require(
                Self.refusal(StorageLocationCheck.check(statementDirectory: scratch.store(in: storage))))
            #expect(refusal.path == storage.path)
            guard case .writableByOthers = refusal.reason else {
                Issue.record("\(refusal)")
                continue
            }
            #expect(Self.preparing(scratch.store(in: storage)) == refusal)
            #expect(Self.mode(storage) == mode, "left as it was")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: storage.path)) == [])
        }
    }

    @Test func aSymbolicLinkAsTheStorageOrTheStoreDirectoryIsRefusedAndItsTargetUntouched() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = try scratch.directory("documents", mode: 0o755)
        let linkedStorage = scratch.root.appendingPathComponent("storage-link")
        #expect(symlink(target.path, linkedStorage.path) == 0)
        let storeOfLink = scratch.store(in: linkedStorage)
        let expected = StorageLocationRefusal(path: linkedStorage.path, reason: .symbolicLink)
        #expect(StorageLocationCheck.check(statementDirectory: storeOfLink) == .refused(expected))
        #expect(Self.preparing(storeOfLink) == expected)

        let storage = try scratch.directory("storage")
        let linkedStore = scratch.store(in: storage)
        #expect(symlink(target.path, linkedStore.path) == 0)
        #expect(
            StorageLocationCheck.check(statementDirectory: linkedStore)
                == .refused(StorageLocationRefusal(path: linkedStore.path, reason: .symbolicLink)))
        #expect(Self.preparing(linkedStore)?.reason == .symbolicLink)
        #expect(Self.mode(target) == 0o755, "never chmodded through the link")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: target.path)) == [])
    }

    @Test func aSymbolicLinkAboveTheStorageDirectoryIsFollowedWhenTheUserOwnsIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let real = try scratch.directory("data/share")
        let link = scratch.root.appendingPathComponent("share")
        #expect(symlink("data/share", link.path) == 0, "a relative link")
        let store = scratch.store(in: link.appendingPathComponent("accessenabler"))
        try StorageLocationCheck.prepare(statementDirectory: store, restrictExisting: true)
        #expect(StorageLocationCheck.check(statementDirectory: store) == .trusted)
        #expect(
            FileManager.default.fileExists(atPath: scratch.store(in: real.appendingPathComponent("accessenabler")).path)
        )
        // `..` goes back up the directories actually opened.
        let roundabout = URL(fileURLWithPath: link.path + "/../share/accessenabler/" + store.lastPathComponent)
        #expect(StorageLocationCheck.check(statementDirectory: roundabout) == .trusted)
    }

    @Test func anAbsoluteLinkAboveIsFollowedAndALoopOfLinksIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let real = try scratch.directory("volume/home")
        let link = scratch.root.appendingPathComponent("home")
        #expect(symlink(real.path, link.path) == 0, "an absolute link")
        let store = scratch.store(in: link.appendingPathComponent("accessenabler"))
        try StorageLocationCheck.prepare(statementDirectory: store, restrictExisting: true)
        #expect(StorageLocationCheck.check(statementDirectory: store) == .trusted)
        #expect(
            FileManager.default.fileExists(atPath: scratch.store(in: real.appendingPathComponent("accessenabler")).path)
        )
        // Two links that point at each other: the walk gives up as the kernel would.
        let first = scratch.root.appendingPathComponent("first")
        let second = scratch.root.appendingPathComponent("second")
        #expect(symlink(second.path, first.path) == 0 && symlink(first.path, second.path) == 0)
        let looped = try #require(
            Self.refusal(
                StorageLocationCheck.check(
                    statementDirectory: scratch.store(in: first.appendingPathComponent("accessenabler")))))
        #expect(looped.reason == .tooManySymbolicLinks)
        #expect(looped.message.contains("more symbolic links than the system follows"))
    }

    @Test(.enabled(if: isRoot, "needs root to give a directory another group"))
    func aDirectoryItsGroupMayWriteIsTheUsersOnlyWhenTheGroupIsTheUsersOwn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Root's group, named after root with no other member: root's private group.
        let own = try scratch.directory("own-group", mode: 0o770)
        #expect(chown(own.path, 0, 0) == 0)
        try StorageLocationCheck.prepare(statementDirectory: scratch.store(in: own), restrictExisting: true)
        #expect(StorageLocationCheck.check(statementDirectory: scratch.store(in: own)) == .trusted)
        // Another group: its members could plant files there.
        let shared = try scratch.directory("shared-group", mode: 0o770)
        #expect(chown(shared.path, 0, Self.stranger) == 0)
        let refusal = try #require(
            Self.refusal(StorageLocationCheck.check(statementDirectory: scratch.store(in: shared))))
        #expect(refusal.path == shared.path)
        guard case .writableByOthers = refusal.reason else {
            Issue.record("\(refusal)")
            return
        }
    }

    @Test func aFileInTheWayIsNoStrangerItIsLeftToTheWrite() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.root.appendingPathComponent("not-a-directory")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        let store = scratch.store(in: file)
        #expect(StorageLocationCheck.check(statementDirectory: store) == .absent)
        do throws(StorageIOError) {
            try StorageLocationCheck.prepare(statementDirectory: store, restrictExisting: true)
            Issue.record("prepared over a file")
        } catch {
            #expect(error.refusal == nil)
            #expect(error.code == ENOTDIR && error.path == file.path)
        }
        // Deeper: the file stands where a directory above the storage directory should be.
        let deeper = scratch.store(in: file.appendingPathComponent("share/accessenabler"))
        #expect(StorageLocationCheck.check(statementDirectory: deeper) == .absent)
        do throws(StorageIOError) {
            try StorageLocationCheck.prepare(statementDirectory: deeper, restrictExisting: true)
            Issue.record("prepared under a file")
        } catch {
            #expect(error.refusal == nil)
            #expect(error.code == ENOTDIR && error.path == file.path)
        }
    }

    @Test(.enabled(if: isRoot, "needs root to make another user's files"))
    func directoriesOfAnotherUserAreRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The storage directory belongs to another user.
        let planted = try scratch.directory("planted", mode: 0o700)
        #expect(chown(planted.path, Self.stranger, Self.stranger) == 0)
        #expect(
            StorageLocationCheck.check(statementDirectory: scratch.store(in: planted))
                == .refused(
                    StorageLocationRefusal(path: planted.path, reason: .ownedByAnotherUser(owner: Self.stranger))))
        // The store's own directory belongs to another user.
        let storage = try scratch.directory("storage")
        let store = scratch.store(in: storage)
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: false)
        #expect(chmod(store.path, 0o755) == 0)
        #expect(chown(store.path, Self.stranger, Self.stranger) == 0)
        #expect(
            Self.preparing(store)
                == StorageLocationRefusal(path: store.path, reason: .ownedByAnotherUser(owner: Self.stranger)))
        #expect(Self.mode(store) == 0o755, "not chmodded")
        // A directory above belongs to another user (who could replace what is below).
        let theirs = try scratch.directory("theirs", mode: 0o755)
        #expect(chown(theirs.path, Self.stranger, Self.stranger) == 0)
        let below = scratch.store(in: theirs.appendingPathComponent("accessenabler"))
        #expect(
            Self.preparing(below)
                == StorageLocationRefusal(path: theirs.path, reason: .parentOwnedByAnotherUser(owner: Self.stranger)))
        #expect(!FileManager.default.fileExists(atPath: theirs.appendingPathComponent("accessenabler").path))
        // A link above owned by another user is not followed.
        let real = try scratch.directory("real")
        let link = scratch.root.appendingPathComponent("their-link")
        #expect(symlink(real.path, link.path) == 0)
        #expect(lchown(link.path, Self.stranger, Self.stranger) == 0)
        #expect(
            StorageLocationCheck.check(
                statementDirectory: scratch.store(in: link.appendingPathComponent("accessenabler")))
                == .refused(
                    StorageLocationRefusal(path: link.path, reason: .symbolicLinkOfAnotherUser(owner: Self.stranger))))
    }

    @Test(
        .enabled(
            if: isRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func aDirectoryAnotherUserCreatesFirstInAStickyParentIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The other user reaches the sticky directory, as everybody reaches /tmp.
        #expect(chmod(scratch.root.path, 0o755) == 0)
        let shared = try scratch.directory("tmp", mode: 0o1777)
        let storage = shared.appendingPathComponent("accessenabler")
        let store = scratch.store(in: storage)
        #expect(StorageLocationCheck.check(statementDirectory: store) == .absent)
        // Between the check at opening and the first write, another user's process makes it.
        let made = AnotherUserProcess.runAs(Self.stranger, ["/bin/mkdir", "-m", "0700", storage.path])
        #expect(made == 0)
        #expect(
            Self.preparing(store)
                == StorageLocationRefusal(path: storage.path, reason: .ownedByAnotherUser(owner: Self.stranger)))
    }

    @Test func theRefusalSaysWhatIsWrongAndWhatToDo() {
        let cases: [(StorageLocationRefusal.Reason, [String])] = [
            (.symbolicLink, ["is a symbolic link", "storageDirectory"]),
            (.symbolicLinkOfAnotherUser(owner: 1001), ["owned by user 1001", "storageDirectory"]),
            (
                .ownedByAnotherUser(owner: 1001),
                ["belongs to user 1001", "not to this process's user (\(geteuid()))", "Remove it"]
            ),
            (.writableByOthers(mode: 0o40777), ["mode 0777", "chmod 700"]),
            (.parentOwnedByAnotherUser(owner: 1001), ["belongs to user 1001", "storageDirectory"]),
            (.parentWritableByOthers(mode: 0o40777), ["no sticky bit (mode 0777)", "chmod go-w", "chmod +t"]),
            (.tooManySymbolicLinks, ["more symbolic links", "storageDirectory"]),
        ]
        for (reason, phrases) in cases {
            let message = StorageLocationRefusal(path: "/some/where", reason: reason).message
            #expect(message.hasPrefix("Refused the storage directory at /some/where: "))
            #expect(message.hasSuffix("a sign-in is lost when the app quits."))
            for phrase in phrases { #expect(message.contains(phrase), "\(message)") }
        }
    }
}

/// A command run as another user (`setpriv`): a real second process.
enum AnotherUserProcess {
    static func runAs(_ user: uid_t, _ arguments: [String]) -> Int32 {
        let all = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] + arguments
        var child: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        guard posix_spawn(&child, all[0], nil, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}
