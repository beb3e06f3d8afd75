import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// The shared store against what other processes and a dying device do to it, with real
/// second processes (this test binary again, ``StorageFaultHelperProcess``): a `store.lock`
/// truncated, deleted or replaced under a running process; a write in progress in another
/// PID namespace; a sign-in or logout read by another process right after its callback; a
/// process that holds the lock and never lets go; a full or read-only disk under
/// INTEGRITY_CHECK_ALL.
@Suite("Storage: faults across processes", .timeLimit(.minutes(20)))
struct StorageProcessFaultTests {
    /// A scratch storage directory and a directory for the processes' signals.
    struct Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-faults-\(UUID().uuidString)")
        var storage: URL { root.appendingPathComponent("storage") }
        var signals: URL { root.appendingPathComponent("signals") }

        init() throws {
            try FileManager.default.createDirectory(at: signals, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        func signal(_ name: String) {
            #expect(FileManager.default.createFile(atPath: signals.appendingPathComponent(name).path, contents: Data()))
        }

        func open(_ check: IntegrityCheckType = .INTEGRITY_CHECK_NONE, problems: NSLockedValue<[StorageProblem]>? = nil)
            -> TokenStore
        {
            TokenStore(
                directory: storage, softwareStatement: StorageFaultHelper.statement, integrityCheck: check,
                onProblem: { problem in problems?.withLock { $0.append(problem) } }, now: { StorageFaultHelper.start })
        }

        var statementDirectory: URL {
            StorageLayout.statementDirectory(in: storage, softwareStatement: StorageFaultHelper.statement)
        }
        var lockFile: URL { statementDirectory.appendingPathComponent(StorageDirectoryLock.fileName) }
        /// The lock file of the AccessEnablers' store (software statement `STATEMENT`).
        var appLockFile: URL {
            StorageLayout.statementDirectory(in: storage, softwareStatement: "STATEMENT").appendingPathComponent(
                StorageDirectoryLock.fileName)
        }
    }

    @Test(
        "A store.lock truncated, deleted or replaced under a running process neither kills it nor splits it from the others"
    )
    func aDamagedLockFileUnderARunningProcess() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await ChildProcessGate.shared.withGate {
            let child = try StorageFaultHelper.start(.lockFileRounds, scratch: scratch)
            defer { child.stopForcefully() }
            _ = try await child.waitForOutput(containing: "HELPER ready", timeout: SanitizerTiming.scaled(60))
            let damages: [(String, () throws -> Void)] = [
                ("truncated", { #expect(truncate(scratch.lockFile.path, 0) == 0) }),
                ("deleted", { try FileManager.default.removeItem(at: scratch.lockFile) }),
                (
                    "replaced",
                    {
                        let replacement = scratch.statementDirectory.appendingPathComponent("replacement")
                        try Data("restored from a backup".utf8).write(to: replacement)
                        #expect(rename(replacement.path, scratch.lockFile.path) == 0)
                    }
                ),
            ]
            for (index, (name, damage)) in damages.enumerated() {
                let round = index + 1
                try damage()
                // The child's next call comes after the damage: it reads and writes on.
                scratch.signal("go-\(round)")
                _ = try await child.waitForOutput(
                    containing: "HELPER wrote \(round)", timeout: SanitizerTiming.scaled(60))
                let store = scratch.open(.INTEGRITY_CHECK_ALL)
                #expect(
                    store.profile(requestor: "CHILD-\(round)") != nil,
                    "\(name): this process reads what the child wrote")
                store.setProfile(StorageFaultHelper.profile("PARENT-\(round)"))
            }
            scratch.signal("go-\(damages.count + 1)")
            #expect(
                try await child.waitForExit(timeout: SanitizerTiming.scaled(60)) == 0, "\(child.output)\(child.errors)")
            for round in 1...damages.count {
                #expect(
                    child.output.contains("HELPER sees PARENT-\(round)=1"),
                    "the child reads what this process wrote: \(child.output)")
            }
        }
    }

    @Test(
        "A write in progress in another PID namespace keeps its temporary file through every launch; once its writer is gone, the next write sweeps it",
        .enabled(if: StorageFaultHelper.canUnsharePIDNamespace, "needs root and unshare(1)"))
    func aWriterInAnotherPIDNamespace() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        StorageSamplesForProcesses.fill(scratch.open())
        try await ChildProcessGate.shared.withGate {
            // The writer gets a process id this namespace does not have: judged by its id, it
            // would look gone.
            let pid = StorageFaultHelper.absentProcessID()
            let child = try StorageFaultHelper.start(.holdTemporary, scratch: scratch, inNewPIDNamespaceAs: pid)
            defer { child.stopForcefully() }
            let output = try await child.waitForOutput(
                containing: "HELPER holding", timeout: SanitizerTiming.scaled(60))
            let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("HELPER holding ") })
            let fields = line.split(separator: " ")
            let temporary = String(fields[2])
            let writer = try #require(Int32(fields[4]))
            #expect(FileManager.default.fileExists(atPath: temporary))
            if writer == pid {
                #expect(kill(pid, 0) == -1 && errno == ESRCH, "no process \(pid) in this namespace")
            }
            // Launches that write (and sweep leftovers) while the writer lives.
            for round in 0..<3 {
                scratch.open().setAccessToken(
                    StoredAccessToken(value: "token-\(round)", expiresAt: StorageFaultHelper.start + 60))
                #expect(
                    FileManager.default.fileExists(atPath: temporary),
                    "round \(round): the write in progress is left alone")
            }
            scratch.signal("release")
            #expect(
                try await child.waitForExit(timeout: SanitizerTiming.scaled(60)) == 0, "\(child.output)\(child.errors)")
            scratch.open().setAccessToken(StorageSamplesForProcesses.token)
            #expect(!FileManager.default.fileExists(atPath: temporary), "its writer is gone: swept")
        }
    }

    @Test(
        "A sign-in and a logout in another process are what this process's next call reads, right after their callbacks"
    )
    func anotherProcessesSignInIsReadRightAfterItsCallback() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let world = try StorageFaultHelper.World()
        let app = SharedStorageTests.App(
            StorageFaultHelper.World.configuration(baseURL: world.baseURL, storage: scratch.storage))
        #expect(await app.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await app.call { $0.checkAuthentication() }.last == notAuthenticated)
        try await ChildProcessGate.shared.withGate {
            let child = try StorageFaultHelper.start(.signInAndOut, scratch: scratch, baseURL: world.baseURL)
            defer { child.stopForcefully() }
            // The child's delegate is inside its callback, and stays there until this
            // process has read: nothing the child does after the callback can help.
            _ = try await child.waitForOutput(containing: "HELPER callback 1", timeout: SanitizerTiming.scaled(60))
            #expect(
                await app.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,TempPass)", authenticated])
            scratch.signal("read-1")
            _ = try await child.waitForOutput(containing: "HELPER callback 0", timeout: SanitizerTiming.scaled(60))
            #expect(await app.call { $0.checkAuthentication() }.last == notAuthenticated)
            scratch.signal("read-0")
            #expect(
                try await child.waitForExit(timeout: SanitizerTiming.scaled(60)) == 0, "\(child.output)\(child.errors)")
        }
    }

    @Test(
        "A process that holds the lock and never lets go delays a sign-in by at most a second, which is said; the sign-in lands once the lock is free"
    )
    func aStuckHolderOfTheLock() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let world = try StorageFaultHelper.World()
        let notices = NSLockedValue<[String]>([])
        var configuration = StorageFaultHelper.World.configuration(baseURL: world.baseURL, storage: scratch.storage)
        configuration.diagnostics = { diagnostic in
            if case .storageProblem(let message) = diagnostic { notices.withLock { $0.append(message) } }
        }
        let app = SharedStorageTests.App(configuration)
        let reader = SharedStorageTests.App(
            StorageFaultHelper.World.configuration(baseURL: world.baseURL, storage: scratch.storage))
        #expect(await app.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await reader.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await ChildProcessGate.shared.withGate {
            // A stuck process: it holds the directory's lock and does nothing more.
            let holder = try StorageFaultHelper.start(.holdLock, scratch: scratch)
            defer { holder.stopForcefully() }
            _ = try await holder.waitForOutput(containing: "HELPER locked", timeout: SanitizerTiming.scaled(60))

            #expect(await app.call { $0.getAuthentication() } == [regularDialog])
            let start = Date()
            let before = app.accessEnabler.storageLockWaits
            #expect(await app.call { $0.setSelectedProvider("TempPass") }.last == authenticated)
            let waited = Date().timeIntervalSince(start)
            let after = app.accessEnabler.storageLockWaits
            // The sign-in's write found the lock taken, waited for it what was left of the
            // second since the storage thread first found it taken, and went on.
            #expect(after.withoutTheLock > before.withoutTheLock, "\(before) → \(after)")
            #expect(after.granted - before.granted <= StorageDirectoryLock.patience + 0.000_001, "\(after)")
            #expect(waited < StorageDirectoryLock.patience + SanitizerTiming.scaled(20), "and went on (\(waited) s)")
            let notice = try #require(notices.withLock { $0 }.first { $0.contains("held the storage lock") })
            #expect(notice.contains("more than 1 s"))
            // This process answers from what it has: the sign-in, here and now.
            #expect(await app.call { $0.checkAuthentication() }.last == authenticated)
            // Reading takes no lock: another AccessEnabler answers at once, from the disk as it is.
            #expect(await reader.call { $0.checkAuthentication() }.last == notAuthenticated)

            // The stuck process dies: its lock goes with it.
            holder.stopForcefully()
            var landed = false
            let deadline = Date().addingTimeInterval(SanitizerTiming.scaled(30))
            while !landed, Date() < deadline {
                landed =
                    TokenStore(
                        directory: scratch.storage, softwareStatement: "STATEMENT",
                        integrityCheck: .INTEGRITY_CHECK_NONE, now: { Date() }
                    ).profile(requestor: "REF30") != nil
                if !landed { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(landed, "the sign-in is written once the lock is free")
            #expect(await reader.call { $0.checkAuthentication() }.last == authenticated)
        }
    }

    @Test("A process stuck on the lock from a device's first launch delays the calls by a second at most, in all")
    func aStuckHolderCostsEachCallOneSecondAtMost() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let world = try StorageFaultHelper.World()
        let notices = NSLockedValue<[String]>([])
        var configuration = StorageFaultHelper.World.configuration(baseURL: world.baseURL, storage: scratch.storage)
        configuration.diagnostics = { diagnostic in
            if case .storageProblem(let message) = diagnostic { notices.withLock { $0.append(message) } }
        }
        let appConfiguration = configuration
        try await ChildProcessGate.shared.withGate {
            // Stuck before the device's first launch: the new identity, the sign-in, the media
            // token and the logout all find the lock taken.
            let holder = try StorageFaultHelper.start(.holdLock, scratch: scratch)
            defer { holder.stopForcefully() }
            _ = try await holder.waitForOutput(containing: "HELPER locked", timeout: SanitizerTiming.scaled(60))
            let app = SharedStorageTests.App(appConfiguration)
            var durations: [String] = []
            var tallies: [LockWaitBudget.Tally] = []
            func step(_ name: String, _ body: @escaping (AccessEnabler) -> Void) async -> [String] {
                let start = Date()
                let signatures = await app.call(body)
                durations.append("\(name) \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
                tallies.append(app.accessEnabler.storageLockWaits)
                return signatures
            }
            #expect(await step("setRequestor") { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
            #expect(await step("getAuthentication") { $0.getAuthentication() } == [regularDialog])
            #expect(await step("setSelectedProvider") { $0.setSelectedProvider("TempPass") }.last == authenticated)
            let signedIn = ["sendTrackingData(0,true,TempPass)", authenticated]
            #expect(await step("checkAuthentication") { $0.checkAuthentication() } == signedIn)
            #expect(await step("getAuthorization") { $0.getAuthorization("news") }.last == "setToken(news)")
            #expect(await step("logout") { $0.logout() } == [notAuthenticated])
            #expect(await step("checkAuthentication") { $0.checkAuthentication() } == StorageLocationTests.signedOut)
            let tally = try #require(tallies.last)
            print(
                "Stuck holder: \(durations.joined(separator: ", ")); caller waits \(tally.waits),"
                    + " granted \(tally.granted) s, waited \(String(format: "%.3f", tally.waited)) s")
            // The calls waited for the lock, and never got it...
            #expect(tally.waits >= 2, "\(tally)")
            #expect(tally.withoutTheLock == tally.waits, "\(tally)")
            // ...within one second for all of them together: the first wait takes what is left
            // of it, every later one tries once.
            #expect(tally.granted <= StorageDirectoryLock.patience + 0.000_001, "\(tally)")
            for (before, after) in zip([LockWaitBudget.Tally()] + tallies, tallies) {
                #expect(after.granted - before.granted <= StorageDirectoryLock.patience + 0.000_001, "\(durations)")
            }
            let said = notices.withLock { $0 }
            #expect(said.filter { $0.contains("held the storage lock") }.count == 1, "said once: \(said)")

            // The stuck process dies: what the calls stored lands, and the app hears so.
            holder.stopForcefully()
            let deadline = Date().addingTimeInterval(SanitizerTiming.scaled(30))
            while !notices.withLock({ $0 }).contains(where: { $0.contains("is free again") }), Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(notices.withLock { $0 }.contains { $0.contains("is free again") }, "\(notices.withLock { $0 })")
            await app.accessEnabler.waitUntilIdle()
            let reader = TokenStore(
                directory: scratch.storage, softwareStatement: "STATEMENT", integrityCheck: .INTEGRITY_CHECK_ALL,
                now: { Date() })
            #expect(reader.clientCredentials != nil, "the registration was written once the lock was free")
            #expect(reader.profile(requestor: "REF30") == nil, "and so was the logout")
        }
    }

    @Test(
        "A full disk under INTEGRITY_CHECK_ALL keeps a valid session, reports what it cannot write, and crashes nothing — a new AccessEnabler on it included",
        .enabled(if: StorageFaultHelper.canMountTmpfs, "needs root and a tmpfs mount"))
    func aFullDisk() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try StorageFaultHelper.mountTmpfs(at: scratch.storage)
        defer { StorageFaultHelper.unmount(scratch.storage) }
        StorageSamplesForProcesses.fill(scratch.open())
        // Fill what is left.
        let filler = scratch.storage.appendingPathComponent("filler")
        StorageFaultHelper.fill(filler)
        try await ChildProcessGate.shared.withGate {
            let child = try StorageFaultHelper.start(.onFullDisk, scratch: scratch)
            defer { child.stopForcefully() }
            #expect(
                try await child.waitForExit(timeout: SanitizerTiming.scaled(60)) == 0, "\(child.output)\(child.errors)")
            #expect(child.output.contains("HELPER filled=1"), "\(child.output)")
            #expect(child.output.contains("HELPER problems=diskFull"), "\(child.output)")
            #expect(child.output.contains("HELPER new device: setRequestorComplete(1), status 0"), "\(child.output)")
        }
        try FileManager.default.removeItem(at: filler)
        let problems = NSLockedValue<[StorageProblem]>([])
        #expect(
            StorageSamplesForProcesses.isFilled(scratch.open(.INTEGRITY_CHECK_ALL, problems: problems)),
            "nothing was deleted")
        #expect(problems.withLock { $0 }.isEmpty)
    }

    @Test(
        "A read-only file system under INTEGRITY_CHECK_ALL keeps a valid session and says it cannot write",
        .enabled(if: StorageFaultHelper.canMountTmpfs, "needs root and a tmpfs mount"))
    func aReadOnlyFileSystem() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try StorageFaultHelper.mountTmpfs(at: scratch.storage)
        defer { StorageFaultHelper.unmount(scratch.storage) }
        StorageSamplesForProcesses.fill(scratch.open())
        try StorageFaultHelper.remountReadOnly(scratch.storage)
        let problems = NSLockedValue<[StorageProblem]>([])
        let store = scratch.open(.INTEGRITY_CHECK_ALL, problems: problems)
        #expect(StorageSamplesForProcesses.isFilled(store))
        store.setAccessToken(StoredAccessToken(value: "renewed", expiresAt: StorageFaultHelper.start + 60))
        #expect(problems.withLock { $0 }.contains { $0.cause == .readOnly })
        #expect(StorageSamplesForProcesses.isFilled(scratch.open(.INTEGRITY_CHECK_ALL)), "nothing was deleted")
    }
}

/// What opening a store costs in memory, measured in a process of its own (nothing else
/// allocates there meanwhile).
@Suite("Storage: what an AccessEnabler's store costs before its first call", .timeLimit(.minutes(20)))
struct StorageOpeningCostTests {
    @Test("Opening a store costs at most 8 KiB of memory")
    func openingAStoreCostsLittle() async throws {
        let scratch = try StorageProcessFaultTests.Scratch()
        defer { scratch.remove() }
        try await ChildProcessGate.shared.withGate {
            let child = try StorageFaultHelper.start(
                .measureOpening, scratch: scratch, environment: ["MALLOC_ARENA_MAX": "1"])
            defer { child.stopForcefully() }
            #expect(
                try await child.waitForExit(timeout: SanitizerTiming.scaled(120)) == 0, "\(child.output)\(child.errors)"
            )
            let line = try #require(child.output.split(separator: "\n").first { $0.hasPrefix("HELPER bytes ") })
            let fields = line.split(separator: " ")
            let perStore = try #require(Int(fields[4]))
            print("Opening cost: \(line.dropFirst("HELPER ".count))")
            #expect(perStore > 0 && perStore <= 8 * 1024, "\(line)")
        }
    }
}

/// The records the fault tests store and check.
enum StorageSamplesForProcesses {
    static let credentials = StoredClientCredentials(clientID: "client-1", clientSecret: "s3cret")
    static let token = StoredAccessToken(value: "access-token-value", expiresAt: StorageFaultHelper.start + 86_400)

    static func fill(_ store: TokenStore) {
        store.setClientCredentials(credentials)
        store.setAccessToken(token)
        store.setProfile(StorageFaultHelper.profile("REF30"))
    }

    static func isFilled(_ store: TokenStore) -> Bool {
        store.clientCredentials == credentials && store.accessToken == token && store.profile(requestor: "REF30") != nil
    }
}

extension TokenStore {
    /// Stores `profile` as a sign-in does.
    func setProfile(_ profile: StoredProfile) {
        apply(
            ProfileSelection.signIn(
                profile, over: profiles(requestor: profile.requestor), now: StorageFaultHelper.start),
            requestor: profile.requestor)
    }
}

/// Starts and serves the other process of ``StorageProcessFaultTests``.
enum StorageFaultHelper {
    enum Action: String {
        /// Keeps a store open across three damaged lock files, reading and writing after each.
        case lockFileRounds
        /// Holds a temporary file, as a writer does mid-write, until told to let go.
        case holdTemporary
        /// Signs in (TempPass) and logs out, each time staying in the callback until told.
        case signInAndOut
        /// Opens a store under INTEGRITY_CHECK_ALL on a full disk and writes; creates an
        /// AccessEnabler over a new directory there.
        case onFullDisk
        /// Takes the lock of the AccessEnablers' store (software statement `STATEMENT`) and
        /// holds it until killed.
        case holdLock
        /// Opens many stores over new directories (and creates as many AccessEnablers) and
        /// prints the heap each costs, once the storage thread is done with them.
        case measureOpening
    }

    static let actionVariable = "ACCESSENABLER_STORAGE_FAULT_ACTION"
    static let storageVariable = "ACCESSENABLER_STORAGE_FAULT_STORAGE"
    static let signalsVariable = "ACCESSENABLER_STORAGE_FAULT_SIGNALS"
    static let baseURLVariable = "ACCESSENABLER_STORAGE_FAULT_BASE_URL"
    static let statement = "eyJhbGciOiJSUzI1NiJ9.process-faults.sig"
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func profile(_ requestor: String) -> StoredProfile {
        StoredProfile(
            requestor: requestor, mvpd: "NotBoarded", type: .regular, notBefore: start - 60, notAfter: start + 86_400,
            attributes: [:], tokenSource: nil, partnerProviderID: nil, serviceProviderURL: nil)
    }

    /// Runs this test binary with the helper test only, told what to do; with
    /// `inNewPIDNamespaceAs`, in a new PID namespace (and its own /proc) as that process id.
    static func start(
        _ action: Action, scratch: StorageProcessFaultTests.Scratch, baseURL: URL? = nil,
        inNewPIDNamespaceAs pid: pid_t? = nil,
        environment extra: [String: String] = [:]
    ) throws -> RunningCommand {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let test = ["--testing-library", "swift-testing", "--filter", "StorageFaultHelperProcess"]
        var environment = [
            actionVariable: action.rawValue, storageVariable: scratch.storage.path,
            signalsVariable: scratch.signals.path,
            "SWIFT_BACKTRACE": "enable=no",
        ]
        if let baseURL { environment[baseURLVariable] = baseURL.absoluteString }
        environment.merge(extra) { _, new in new }
        guard let pid else { return try RunningCommand(URL(fileURLWithPath: binary), test, environment: environment) }
        // The shell is the namespace's first process; the next one it starts gets `pid`.
        let script = "echo \(pid - 1) > /proc/sys/kernel/ns_last_pid 2>/dev/null; \"$0\" \"$@\""
        return try RunningCommand(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["--pid", "--fork", "--mount-proc", "/bin/sh", "-c", script, binary] + test,
            environment: environment)
    }

    /// A process id no process of this namespace has.
    static func absentProcessID() -> pid_t {
        for candidate in stride(from: pid_t(31_000), to: 20_000, by: -1)
        where kill(candidate, 0) == -1 && errno == ESRCH {
            return candidate
        }
        return 2
    }

    /// Runs `arguments` and waits for it; its exit status (-1 when it could not run).
    @discardableResult
    static func run(_ arguments: [String]) -> Int32 {
        var child: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        guard posix_spawn(&child, arguments[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    static let canUnsharePIDNamespace: Bool =
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && run(["/usr/bin/unshare", "--pid", "--fork", "--mount-proc", "/bin/true"]) == 0

    static let canMountTmpfs: Bool = {
        guard geteuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-tmpfs-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? mountTmpfs(at: probe)) != nil else { return false }
        unmount(probe)
        return true
    }()

    struct MountFailed: Error {}

    /// The bytes the C heap holds in use: `mallinfo2`'s `uordblks` (with `MALLOC_ARENA_MAX=1`,
    /// every thread's allocations), else the resident set.
    static func heapInUse() -> Int {
        #if arch(x86_64)
        // `struct mallinfo2` (ten size_t) is not imported; on x86-64 a function returning it
        // takes the caller's buffer as its first argument.
        typealias MallocInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
        if let symbol = dlsym(nil, "mallinfo2") {
            var fields = [Int](repeating: 0, count: 10)
            fields.withUnsafeMutableBytes { _ = unsafeBitCast(symbol, to: MallocInfo2.self)($0.baseAddress!) }
            return fields[7]
        }
        #endif
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Mounts a 256 KiB tmpfs at `directory` (created when missing).
    static func mountTmpfs(at directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard run(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", directory.path]) == 0 else {
            throw MountFailed()
        }
    }

    static func remountReadOnly(_ directory: URL) throws {
        guard run(["/usr/bin/mount", "-o", "remount,ro", directory.path]) == 0 else { throw MountFailed() }
    }

    static func unmount(_ directory: URL) {
        run(["/usr/bin/umount", "-l", directory.path])
    }

    /// Writes to `file` until the file system is full.
    static func fill(_ file: URL) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x5A, count: 4096)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // What is left is smaller than a page: fill it byte by byte.
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) > 0 {}
    }

    /// A sandbox on loopback HTTP for the sign-in tests, read by both processes.
    final class World: @unchecked Sendable {
        let sandbox = PassSandbox(clock: .system)
        let server: LoopbackHTTPServer
        let baseURL: URL

        init() throws {
            server = LoopbackHTTPServer(port: 0, handler: sandbox)
            _ = try server.start()
            baseURL = try #require(server.baseURL)
            sandbox.baseURLForLinks = baseURL
        }

        deinit { server.shutdown() }

        static func configuration(baseURL: URL, storage: URL) -> AccessEnablerConfiguration {
            var configuration = SharedStorageTests.World.configuration(baseURL: baseURL, storage: storage)
            configuration.requestTimeout = SanitizerTiming.healthyRequestTimeout
            return configuration
        }
    }
}

/// Runs only in the other process of ``StorageProcessFaultTests`` (its environment names an
/// action); skipped in every other run.
@Suite struct StorageFaultHelperProcess {
    struct TimedOut: Error {
        let signal: String
    }

    /// Writes one line to standard output at once (unbuffered: the test process reads it
    /// while this one waits).
    private func say(_ line: String) {
        let bytes = Array("HELPER \(line)\n".utf8)
        _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }

    /// Waits (polling, bounded) until the test process signals `name`.
    private func waitFor(_ name: String, in signals: URL) throws {
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: signals.appendingPathComponent(name).path) {
            guard Date() < deadline else { throw TimedOut(signal: name) }
            usleep(10_000)
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[StorageFaultHelper.actionVariable] != nil))
    func act() async throws {
        let environment = ProcessInfo.processInfo.environment
        let action = try #require(
            environment[StorageFaultHelper.actionVariable].flatMap(StorageFaultHelper.Action.init(rawValue:)))
        let storage = URL(fileURLWithPath: try #require(environment[StorageFaultHelper.storageVariable]))
        let signals = URL(fileURLWithPath: try #require(environment[StorageFaultHelper.signalsVariable]))
        switch action {
        case .lockFileRounds:
            let store = TokenStore(
                directory: storage, softwareStatement: StorageFaultHelper.statement,
                integrityCheck: .INTEGRITY_CHECK_ALL, writeBehind: true,
                now: { StorageFaultHelper.start })
            store.setProfile(StorageFaultHelper.profile("CHILD-0"))
            store.writeUrgentChanges()
            store.flush()
            say("ready")
            for round in 1...4 {
                try waitFor("go-\(round)", in: signals)
                store.refreshIfChanged()
                if round > 1 {
                    say("sees PARENT-\(round - 1)=\(store.profile(requestor: "PARENT-\(round - 1)") == nil ? 0 : 1)")
                }
                guard round < 4 else { break }
                store.setProfile(StorageFaultHelper.profile("CHILD-\(round)"))
                store.writeUrgentChanges()
                store.flush()
                say("wrote \(round)")
            }
        case .holdTemporary:
            let storeFile = StorageLayout.statementDirectory(
                in: storage, softwareStatement: StorageFaultHelper.statement
            )
            .appendingPathComponent(StorageLayout.storeFile)
            let temporary = try StorageFileSystem.writeTemporary(
                Data(#"{"formatVersion":2,"kind":"st"#.utf8), beside: storeFile)
            say("holding \(temporary.url.path) pid \(getpid())")
            try waitFor("release", in: signals)
            // The writer dies mid-write: its file stays, nobody holds it any more.
            temporary.close()
        case .signInAndOut:
            let baseURL = try #require(environment[StorageFaultHelper.baseURLVariable].flatMap(URL.init(string:)))
            let delegate = HandshakeDelegate { status in
                say("callback \(status)")
                try? waitFor("read-\(status)", in: signals)
            }
            let accessEnabler = AccessEnabler(
                softwareStatement: "STATEMENT",
                configuration: StorageFaultHelper.World.configuration(baseURL: baseURL, storage: storage))
            accessEnabler.delegate = delegate
            for step in [
                { $0.setRequestor("REF30") }, { $0.getAuthentication() }, { $0.setSelectedProvider("TempPass") },
                { $0.logout() },
            ] as [(AccessEnabler) -> Void] {
                step(accessEnabler)
                await accessEnabler.waitUntilIdle()
            }
            say("statuses \(delegate.statuses)")
        case .measureOpening:
            let count = 400
            func heap() -> Int { StorageFaultHelper.heapInUse() }
            // Warm up what every store shares (the storage thread, caches), then measure.
            var stores = [
                TokenStore(
                    directory: storage.appendingPathComponent("warm"), softwareStatement: "STATEMENT",
                    integrityCheck: .INTEGRITY_CHECK_NONE, writeBehind: true, now: { Date() })
            ]
            _ = stores[0].deviceIdentifier
            StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 60)
            let before = heap()
            for index in 0..<count {
                stores.append(
                    TokenStore(
                        directory: storage.appendingPathComponent("device-\(index)"), softwareStatement: "STATEMENT",
                        integrityCheck: .INTEGRITY_CHECK_NONE,
                        writeBehind: true, now: { Date() }))
            }
            StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 60)
            let perStore = (heap() - before) / count
            let sandbox = PassSandbox()
            var configuration = AccessEnablerConfiguration(
                environment: .custom(sandbox.baseURLForLinks), platform: .tvOS, storageDirectory: storage,
                transport: sandbox.inProcessTransport,
                clock: SandboxTimeSource(sandbox.clock))
            var accessEnablers: [AccessEnabler] = []
            configuration.storageDirectory = storage.appendingPathComponent("ae-warm")
            accessEnablers.append(AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration))
            try await Task.sleep(for: .milliseconds(200))
            StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 60)
            let beforeAccessEnablers = heap()
            for index in 0..<count {
                configuration.storageDirectory = storage.appendingPathComponent("ae-\(index)")
                accessEnablers.append(AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration))
            }
            try await Task.sleep(for: .milliseconds(500))
            StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 60)
            let perAccessEnabler = (heap() - beforeAccessEnablers) / count
            say(
                "bytes per store \(perStore) per AccessEnabler \(perAccessEnabler) (\(stores.count + accessEnablers.count) alive)"
            )
        case .holdLock:
            let directory = StorageLayout.statementDirectory(in: storage, softwareStatement: "STATEMENT")
            // Before the device's first launch, the directory is not there yet.
            try StorageLocationCheck.prepare(statementDirectory: directory, restrictExisting: false)
            let lockFile = directory.appendingPathComponent(StorageDirectoryLock.fileName)
            let descriptor = open(lockFile.path, O_RDWR | O_CREAT, 0o600)
            try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
            say("locked")
            while true { sleep(60) }
        case .onFullDisk:
            let problems = NSLockedValue<[StorageProblem]>([])
            let store = TokenStore(
                directory: storage, softwareStatement: StorageFaultHelper.statement,
                integrityCheck: .INTEGRITY_CHECK_ALL, writeBehind: true,
                onProblem: { problem in problems.withLock { $0.append(problem) } }, now: { StorageFaultHelper.start })
            say("filled=\(StorageSamplesForProcesses.isFilled(store) ? 1 : 0)")
            store.setProfile(StorageFaultHelper.profile("ANOTHER"))
            store.writeUrgentChanges()
            store.flush()
            say("problems=\(Set(problems.withLock { $0 }.map { "\($0.cause)" }).sorted().joined(separator: ","))")
            // A new device on the full disk: an AccessEnabler created and used there.
            let sandbox = PassSandbox()
            var configuration = AccessEnablerConfiguration(
                environment: .custom(sandbox.baseURLForLinks), platform: .tvOS,
                storageDirectory: storage.appendingPathComponent("new-device"),
                transport: sandbox.inProcessTransport, clock: SandboxTimeSource(sandbox.clock))
            configuration.loginScreen = .thisDevice
            let delegate = HandshakeDelegate { _ in }
            let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
            accessEnabler.delegate = delegate
            accessEnabler.setRequestor("REF30")
            accessEnabler.checkAuthentication()
            await accessEnabler.waitUntilIdle()
            say(
                "new device: setRequestorComplete(\(delegate.requestorStatuses.map(String.init).joined(separator: ","))), status \(delegate.statuses.map(String.init).joined(separator: ","))"
            )
        }
    }
}

/// Hears `setAuthenticationStatus` (handing it to `onStatus` on the callback queue, which
/// waits for it) and `setRequestorComplete`.
final class HandshakeDelegate: EntitlementDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var authentication: [Int32] = []
    private var requestor: [Int32] = []
    private let onStatus: @Sendable (Int32) -> Void

    init(onStatus: @escaping @Sendable (Int32) -> Void) {
        self.onStatus = onStatus
    }

    var statuses: [Int32] { lock.withLock { authentication } }
    var requestorStatuses: [Int32] { lock.withLock { requestor } }

    func setRequestorComplete(_ status: Int32) { lock.withLock { requestor.append(status) } }

    func displayProviderDialog(_ mvpds: [MVPD]) {}

    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        lock.withLock { authentication.append(status) }
        onStatus(status)
    }
}
