import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// A storage directory a stranger could touch is refused, end to end: an AccessEnabler over
/// a directory planted by another user, through a symbolic link into the user's own files,
/// or under a parent others may write without the sticky bit, tells the app why (status N500
/// and a `storageProblem` diagnostic with the path and what to do), signs in from memory,
/// and leaves the place exactly as it found it. Real directories, links and — as root — a
/// real second process running as another user.
@Suite("Storage: a location a stranger could touch is refused", .timeLimit(.minutes(10)))
struct StorageLocationTests {
    /// A scratch directory of this user's own, removed at the end.
    struct Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-location-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            #expect(chmod(root.path, 0o700) == 0)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        func url(_ name: String) -> URL { root.appendingPathComponent(name) }
    }

    /// Another user of the device: `nobody`, acted as by a second process (`setpriv`).
    enum Stranger {
        static let uid: uid_t = 65534

        /// Why files of another user cannot be made here, or `nil` when they can.
        static let unavailable: String? =
            geteuid() == 0 ? nil : "needs root to make another user's files (running as uid \(geteuid()))"

        /// Whether a second process can run as the stranger (`setpriv`); without it, root
        /// hands what it made over with `chown`.
        static let canRunAs = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

        /// Runs `arguments` as the stranger, in a process of its own; its exit status.
        static func run(_ arguments: [String]) -> Int32 {
            StorageFaultHelper.run(
                ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"] + arguments)
        }
    }

    /// What a directory holds and how it is set: names, each file's mode and content, its own
    /// mode and owner — compared before and after an AccessEnabler ran over it.
    struct Picture: Equatable {
        var mode: mode_t
        var owner: uid_t
        var files: [String: String]

        init(of directory: URL) {
            var info = stat()
            _ = lstat(directory.path, &info)
            mode = info.st_mode & 0o7777
            owner = info.st_uid
            var files: [String: String] = [:]
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                let path = directory.appendingPathComponent(name).path
                var file = stat()
                _ = lstat(path, &file)
                let content = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<not a readable file>"
                files[name] = "\(String(file.st_mode & 0o7777, radix: 8)) \(file.st_uid) \(content)"
            }
            self.files = files
        }
    }

    /// The storage problems the app heard of.
    final class Problems: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []
        var all: [String] { lock.withLock { messages } }
        var handler: @Sendable (Diagnostic) -> Void {
            { [self] diagnostic in
                if case .storageProblem(let message) = diagnostic { lock.withLock { messages.append(message) } }
            }
        }
    }

    /// checkAuthentication's callbacks with no session, and with the one signed in here.
    static let signedOut = ["status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated]
    static let signedIn = ["sendTrackingData(0,true,NotBoarded)", authenticated]

    /// Sets the requestor over `storage` (expecting the refusal's status first), signs in,
    /// checks the session holds in memory, and checks a relaunch over the same location
    /// finds nothing kept. Returns the refusal's message.
    private func runRefused(
        _ wire: ScenarioRunner.Wire, storage: URL, problems: Problems, plantedIdentifier: String? = nil
    ) async throws -> (String, RegularHarness) {
        let harness = try RegularHarness(wire, storage: storage) { $0.diagnostics = problems.handler }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["status(N500,error)", "setRequestorComplete(1)"])
        // The device identity kept there was not read: no request carries it.
        let sent = harness.capture.requests.compactMap { $0.header("AP-Device-Identifier") }
        #expect(!sent.isEmpty)
        if let plantedIdentifier {
            #expect(
                !sent.contains(DeviceIdentifier.headerValue(plantedIdentifier)), "the planted identity was not used")
        }
        // The status's sentence, as the diagnostics handler heard it too.
        let status = problems.all.first ?? "nothing was said"
        #expect(problems.all.count == 1, "said once: \(problems.all)")
        #expect(await harness.call { $0.checkAuthentication() } == Self.signedOut, "nothing was read from there")
        try await harness.logIn(mvpd: "NotBoarded")
        #expect(await harness.call { $0.checkAuthentication() } == Self.signedIn, "the session lives in memory")
        harness.relaunch()
        #expect(await harness.call { $0.setRequestor("REF30") } == ["status(N500,error)", "setRequestorComplete(1)"])
        #expect(await harness.call { $0.checkAuthentication() } == Self.signedOut, "and nothing of it was kept there")
        return (status, harness)
    }

    /// A signed-in session for REF30 over `directory`, as a store another user planted holds
    /// one; returns the store's own directory and its device identifier.
    private static func plantedSession(under directory: URL) -> (directory: URL, identifier: String) {
        let store = TokenStore(
            directory: directory, softwareStatement: "STATEMENT", integrityCheck: .INTEGRITY_CHECK_NONE,
            now: { StorageFaultHelper.start })
        store.setProfile(StorageFaultHelper.profile("REF30"))
        return (store.statementDirectory, store.deviceIdentifier)
    }

    @Test(
        "A storage directory another user planted is refused, nothing of it is read, and nothing is written there",
        .enabled(if: Stranger.unavailable == nil, "needs root to make another user's files"),
        arguments: [ScenarioRunner.Wire.loopbackHTTP, .inProcess])
    func aDirectoryOfAnotherUser(wire: ScenarioRunner.Wire) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A world-writable sticky directory, as /tmp is: another user plants the storage
        // directory there first, open to everybody, with a signed-in session of its choosing.
        #expect(chmod(scratch.root.path, 0o755) == 0, "the other user reaches it, as everybody reaches /tmp")
        let shared = scratch.url("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        #expect(chmod(shared.path, 0o1777) == 0)
        let storage = shared.appendingPathComponent("accessenabler")
        let (planted, plantedIdentifier) = Self.plantedSession(under: scratch.url("session"))
        let plantedCopy = storage.appendingPathComponent(planted.lastPathComponent)
        if Stranger.canRunAs {
            // A real second process, running as that user, makes the directory.
            #expect(Stranger.run(["/bin/mkdir", "-m", "0777", storage.path]) == 0)
            try FileManager.default.copyItem(at: planted, to: plantedCopy)
        } else {
            print(
                "StorageLocationTests: no /usr/bin/setpriv; root makes the directory and hands it over with chown"
            )
            try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: false)
            #expect(chmod(storage.path, 0o777) == 0)
            try FileManager.default.copyItem(at: planted, to: plantedCopy)
        }
        #expect(StorageFaultHelper.run(["/bin/chown", "-R", "\(Stranger.uid):\(Stranger.uid)", storage.path]) == 0)
        let before = (Picture(of: storage), Picture(of: plantedCopy))
        let problems = Problems()
        let (status, harness) = try await runRefused(
            wire, storage: storage, problems: problems, plantedIdentifier: plantedIdentifier)
        defer { withExtendedLifetime(harness) {} }
        #expect(status.contains("Refused the storage directory at \(storage.path)"), "\(status)")
        #expect(status.contains("belongs to user \(Stranger.uid)"), "\(status)")
        #expect(status.contains("AccessEnablerConfiguration.storageDirectory"), "\(status)")
        #expect(
            (Picture(of: storage), Picture(of: plantedCopy)) == before, "nothing was written, moved or chmodded there")
    }

    @Test(
        "A symbolic link into the user's own files as the storage directory is not followed: the files are untouched",
        arguments: [ScenarioRunner.Wire.loopbackHTTP, .inProcess], [true, false])
    func aSymbolicLinkIntoTheUsersFiles(wire: ScenarioRunner.Wire, linkIsTheStoreDirectory: Bool) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The user's own files: a document, and files whose names look like the SDK's
        // temporaries (one unlocked, as a write that died leaves it).
        let victim = scratch.url("documents")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: false)
        #expect(chmod(victim.path, 0o755) == 0)
        for (name, mode) in [("letter.txt", 0o644), (".store.json.0123456789abcdef.tmp", 0o600), (".notes.tmp", 0o640)]
            as [(String, mode_t)]
        {
            let path = victim.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data("the user's own \(name)".utf8)))
            #expect(chmod(path, mode) == 0)
        }
        let storage: URL
        if linkIsTheStoreDirectory {
            // The storage directory is real; the store's own directory in it points away.
            storage = scratch.url("storage")
            try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: false)
            #expect(chmod(storage.path, 0o700) == 0)
            let store = StorageLayout.statementDirectory(in: storage, softwareStatement: "STATEMENT")
            #expect(symlink(victim.path, store.path) == 0)
        } else {
            storage = scratch.url("storage")
            #expect(symlink(victim.path, storage.path) == 0)
        }
        let before = Picture(of: victim)
        let problems = Problems()
        let (status, harness) = try await runRefused(wire, storage: storage, problems: problems)
        defer { withExtendedLifetime(harness) {} }
        #expect(status.contains("is a symbolic link"), "\(status)")
        #expect(
            Picture(of: victim) == before, "the user's files, their modes and the directory's mode are as they were")
    }

    @Test(
        "A parent others may write without the sticky bit is refused; with the sticky bit the SDK's directory is used",
        arguments: [ScenarioRunner.Wire.loopbackHTTP, .inProcess])
    func aParentOthersMayWrite(wire: ScenarioRunner.Wire) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let open = scratch.url("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false)
        #expect(chmod(open.path, 0o777) == 0)
        let storage = open.appendingPathComponent("accessenabler")
        let problems = Problems()
        let (status, harness) = try await runRefused(wire, storage: storage, problems: problems)
        defer { withExtendedLifetime(harness) {} }
        #expect(status.contains("Refused the storage directory at \(open.path)"), "\(status)")
        #expect(status.contains("no sticky bit (mode 0777)"), "\(status)")
        #expect(status.contains("chmod +t"), "\(status)")
        #expect(!FileManager.default.fileExists(atPath: storage.path), "nothing was created there")

        // The sticky bit, as /tmp has it: nobody may replace another user's entries, so the
        // SDK's own directory there is safe — and used.
        #expect(chmod(open.path, 0o1777) == 0)
        let sticky = try RegularHarness(wire, storage: storage)
        #expect(await sticky.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await sticky.logIn(mvpd: "NotBoarded")
        sticky.relaunch()
        #expect(await sticky.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await sticky.call { $0.checkAuthentication() } == Self.signedIn, "the session was kept")
        var info = stat()
        #expect(lstat(storage.path, &info) == 0 && info.st_mode & 0o777 == 0o700 && info.st_uid == geteuid())
    }
}
