import Foundation
import Testing

@testable import AccessEnabler

/// Writing: opening a store touches nothing on disk; changes wait for a commit point and go to
/// disk as one file, one rename, whatever changed; a sign-in is renamed into place by the
/// caller, its data sync follows on the storage thread; syncs of several stores share a
/// round; and a crash at any instant leaves the old store or the new one, whole.
@Suite("Storage: one write per commit point")
struct StorageWriteTests {
    /// Records the write steps a store performs, with the thread each ran on.
    final class StepLog: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(tag: Int, step: String, thread: String)] = []

        var steps: [(tag: Int, step: String, thread: String)] { lock.withLock { entries } }
        func count(_ step: String) -> Int { steps.filter { $0.step == step }.count }
        func reset() { lock.withLock { entries.removeAll() } }

        private func record(_ tag: Int, _ step: String) {
            let thread = StorageSyncThread.shared.isCurrentThread ? StorageSyncThread.threadName : "caller"
            lock.withLock { entries.append((tag, step, thread)) }
        }

        /// The real file system, logging each step; `blockingSync`: the first data sync says
        /// it has begun, then waits until it may go on.
        func system(tag: Int = 0, blockingSync gate: (entered: DispatchSemaphore, mayGoOn: DispatchSemaphore)? = nil)
            -> StorageSystem
        {
            var system = StorageSystem.posix
            let posix = StorageSystem.posix
            let blocked = NSLockedValue(gate.map { [$0.entered, $0.mayGoOn] } ?? [])
            system.ensureDirectory = { [self] (url, restrict) throws(StorageIOError) in
                record(tag, "ensureDirectory")
                try posix.ensureDirectory(url, restrict)
            }
            system.writeTemporary = { [self] (data, url) throws(StorageIOError) in
                record(tag, "writeTemporary \(url.lastPathComponent)")
                return try posix.writeTemporary(data, url)
            }
            system.replace = { [self] (temporary, url) throws(StorageIOError) in
                record(tag, "replace \(url.lastPathComponent)")
                try posix.replace(temporary, url)
            }
            system.syncFiles = { [self] (urls) throws(StorageIOError) in
                let pending = blocked.withLock { semaphores in
                    defer { semaphores = [] }
                    return semaphores
                }
                if pending.count == 2 {
                    pending[0].signal()
                    pending[1].wait()
                }
                for url in urls { record(tag, "syncFiles \(url.lastPathComponent)") }
                try posix.syncFiles(urls)
            }
            system.syncDirectory = { [self] (url) throws(StorageIOError) in
                record(tag, "syncDirectory")
                try posix.syncDirectory(url)
            }
            return system
        }
    }

    private func openBehind(_ scratch: StorageScratch, _ system: StorageSystem = .posix) -> TokenStore {
        TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
            writeBehind: true, system: system, now: { StorageScratch.start })
    }

    /// Runs `work` on a thread of its own and waits for it, at most `seconds`, without
    /// holding one of Swift's cooperative threads.
    private func onAThread(within seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) async -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            work()
            done.signal()
        }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: done.wait(timeout: .now() + seconds) == .success) }
        }
    }

    @Test("Opening a store creates nothing and waits for no disk; the new identity is claimed on the storage thread")
    func openingWaitsForNoDisk() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        // A disk that does not answer: creating a directory blocks until the test lets it go.
        let mayCreate = DispatchSemaphore(value: 0)
        var system = StorageSystem.posix
        system.ensureDirectory = { (url, restrict) throws(StorageIOError) in
            mayCreate.wait()
            try StorageSystem.posix.ensureDirectory(url, restrict)
        }
        let opened = NSLockedValue<TokenStore?>(nil)
        let gated = system
        let returned = await onAThread(within: 30) {
            opened.withLock { $0 = openBehind(scratch, gated) }
            // Let the disk answer as soon as the store is open: the storage thread, which
            // every store of the process shares, does not wait for this test to be scheduled.
            mayCreate.signal()
        }
        if !returned { mayCreate.signal() }
        try #require(returned, "opening the store waited for the disk")
        let store = try #require(opened.withLock { $0 })
        let identifier = store.deviceIdentifier
        #expect(
            identifier.count == 64 && Hex.decode(identifier)?.count == 32,
            "the identifier is there before anything is written")
        store.flush()
        #expect(scratch.fileNames() == [StorageLayout.identityFile])
        #expect(scratch.open().deviceIdentifier == identifier, "the identity claimed is the one the store handed out")
    }

    @Test(
        "Changes wait for a commit point; a sign-in is one temporary file and one rename, its data sync the storage thread's"
    )
    func aSignInIsOneWrite() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        _ = scratch.open()  // the device's identity exists: what follows is the sign-in alone
        let log = StepLog()
        let store = openBehind(scratch, log.system())
        // What a cold setRequestor with partner single sign-on stores: the client, the token, the profile.
        store.setClientCredentials(StorageSamples.credentials)
        store.setAccessToken(StorageSamples.token)
        store.setProfile(StorageSamples.profile())
        #expect(
            !FileManager.default.fileExists(atPath: scratch.storeFile.path), "nothing is written before a commit point")
        #expect(log.steps.isEmpty)

        store.writeUrgentChanges()
        // In place when the call returns (before the callback that announces it).
        let written = log.steps.filter { !$0.step.hasPrefix("sync") }
        #expect(written.map(\.step) == ["ensureDirectory", "writeTemporary store.json", "replace store.json"])
        #expect(written.allSatisfy { $0.thread != StorageSyncThread.threadName }, "renamed on the caller's thread")
        #expect(scratch.open().profile(requestor: "REF30") == StorageSamples.profile())
        store.flush()
        let syncs = log.steps.filter { $0.step.hasPrefix("sync") }
        #expect(
            syncs.map(\.step) == ["syncFiles store.json", "syncDirectory"],
            "one data sync; the directory once, as the file was created")
        #expect(
            syncs.allSatisfy { $0.thread == StorageSyncThread.threadName }, "synced on the storage thread: \(syncs)")

        // The next sign-in replaces the file: one data sync, no directory sync.
        log.reset()
        store.setProfile(StorageSamples.profile(mvpd: "MVPD2"))
        store.writeUrgentChanges()
        store.flush()
        #expect(log.steps.map(\.step) == ["writeTemporary store.json", "replace store.json", "syncFiles store.json"])
    }

    @Test("A change that is no sign-in or logout is left for the storage thread")
    func otherChangesGoBehind() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        _ = scratch.open()
        let log = StepLog()
        let store = openBehind(scratch, log.system())
        store.setAuthorization(StorageSamples.authorization())
        store.setAccessToken(StorageSamples.token)
        store.writeUrgentChanges()
        #expect(log.steps.isEmpty, "a media token does not hold up a callback")
        #expect(store.hasPendingWrites)
        store.commitPendingWrites()
        store.flush()
        #expect(log.count("replace store.json") == 1)
        #expect(log.steps.allSatisfy { $0.thread == StorageSyncThread.threadName }, "\(log.steps)")
        #expect(scratch.open().authorization(requestor: "REF30", resource: "res1") == StorageSamples.authorization())
        // Setting what is already there is no change, and writes nothing.
        log.reset()
        store.setAccessToken(StorageSamples.token)
        #expect(!store.hasPendingWrites)
    }

    /// `count` stores over scratch directories, each writing behind; the first one's data
    /// sync blocks at `gate` (it signals `entered`, then waits for `mayGoOn`). The log tags
    /// each step with its store's index.
    private func storesBehindABlockedDisk(
        count: Int
    ) -> (
        scratches: [StorageScratch], log: StepLog, gate: (entered: DispatchSemaphore, mayGoOn: DispatchSemaphore),
        stores: [TokenStore]
    ) {
        let scratches = (0..<count).map { _ in StorageScratch() }
        let log = StepLog()
        let gate = (entered: DispatchSemaphore(value: 0), mayGoOn: DispatchSemaphore(value: 0))
        let stores = scratches.enumerated().map { index, scratch in
            _ = scratch.open()
            return openBehind(scratch, log.system(tag: index, blockingSync: index == 0 ? gate : nil))
        }
        return (scratches, log, gate, stores)
    }

    @Test("Syncs of writes made while the storage thread is busy share the next round: every rename, then every sync")
    func syncsShareARound() {
        let (scratches, log, gate, stores) = storesBehindABlockedDisk(count: 4)
        defer { scratches.forEach { $0.remove() } }
        stores[0].setAccessToken(StorageSamples.token)
        stores[0].commitPendingWrites()
        gate.entered.wait()
        // The storage thread waits for the first store's disk; the others' writes gather.
        for store in stores.dropFirst() {
            store.setAccessToken(StorageSamples.token)
            store.commitPendingWrites()
        }
        gate.mayGoOn.signal()
        for store in stores { store.flush() }
        let round = log.steps.filter { $0.tag > 0 }.map(\.step)
        let lastRename = round.lastIndex { $0.hasPrefix("replace") } ?? -1
        let firstSync = round.firstIndex { $0.hasPrefix("syncFiles") } ?? -1
        #expect(round.filter { $0.hasPrefix("replace") }.count == 3)
        #expect(lastRename < firstSync, "one round: every file renamed, then every file synced: \(round)")
        for scratch in scratches { #expect(scratch.open().accessToken == StorageSamples.token) }
    }

    @Test("The process's exit waits for every write handed to the storage thread, and gives up at its timeout")
    func exitWaitsForEveryWrite() {
        let (scratches, _, gate, stores) = storesBehindABlockedDisk(count: 3)
        defer { scratches.forEach { $0.remove() } }
        for (index, store) in stores.enumerated() {
            store.setAccessToken(StorageSamples.token)
            store.commitPendingWrites()
            if index == 0 { gate.entered.wait() }
        }
        // The first write's disk does not answer: the wait ends at its timeout, unfinished.
        #expect(!StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 0.2))
        gate.mayGoOn.signal()
        #expect(StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 60))
        for (index, store) in stores.enumerated() {
            #expect(!store.hasQueuedWrites, "store \(index) has nothing left to write")
        }
        for scratch in scratches { #expect(scratch.open().accessToken == StorageSamples.token) }
    }

    /// A "crash" before the rename, or right after it: every later step does nothing, as if
    /// the process had died there (its temporary file stays behind, unlocked).
    private func crashingSystem(renaming: Bool) -> StorageSystem {
        var system = StorageSystem.posix
        let posix = StorageSystem.posix
        system.replace = { (temporary, url) throws(StorageIOError) in
            if renaming { try posix.replace(temporary, url) }
        }
        system.unlink = { (_) throws(StorageIOError) in }
        system.syncFiles = { (_) throws(StorageIOError) in }
        system.syncDirectory = { (_) throws(StorageIOError) in }
        return system
    }

    @Test(
        "A crash before or after the rename leaves the old store or the new one, whole, and it loads under INTEGRITY_CHECK_ALL",
        arguments: [false, true])
    func crashLeavesNoTornStore(renamed: Bool) throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        StorageSamples.fill(scratch.open())
        let newToken = StoredAccessToken(value: "renewed-access-token", expiresAt: StorageScratch.start + 7200)
        let newCredentials = StoredClientCredentials(
            clientID: StorageSamples.credentials.clientID, clientSecret: "rotated-secret")
        var newProfile = StorageSamples.profile()
        newProfile.notAfter = StorageScratch.start + 9 * 86_400

        let store = openBehind(scratch, crashingSystem(renaming: renamed))
        store.setAccessToken(newToken)
        store.setClientCredentials(newCredentials)
        store.setProfile(newProfile)
        store.writeUrgentChanges()
        store.flush()
        #expect(
            scratch.fileNames().contains { StorageLayout.isTemporaryFile($0) } != renamed,
            "the crash left its temporary file")

        let relaunched = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(relaunched.lastError == nil, "\(relaunched.lastError ?? "")")
        #expect(relaunched.accessToken == (renamed ? newToken : StorageSamples.token))
        #expect(relaunched.clientCredentials == (renamed ? newCredentials : StorageSamples.credentials))
        #expect(relaunched.profile(requestor: "REF30") == (renamed ? newProfile : StorageSamples.profile()))
        #expect(relaunched.authorization(requestor: "REF30", resource: "res1") == StorageSamples.authorization())
        relaunched.setAccessToken(StorageSamples.token)
        #expect(
            scratch.fileNames().allSatisfy { !StorageLayout.isTemporaryFile($0) }, "the next write sweeps the leftover")
    }
}
