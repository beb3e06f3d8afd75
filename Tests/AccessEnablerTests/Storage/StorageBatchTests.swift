import Foundation
import Testing

@testable import AccessEnabler

/// Writing behind: what changes while a hold is on goes to disk as one batch, after the
/// hold, with one round of durability; the directory is made with the first batch; and a
/// crash anywhere in a batch leaves every file whole, old or new.
@Suite("Storage: batches written behind")
struct StorageBatchTests {
    /// Counts the batch steps the real file system performs.
    final class StepCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]

        func count(_ step: String) { lock.withLock { counts[step, default: 0] += 1 } }
        subscript(_ step: String) -> Int { lock.withLock { counts[step, default: 0] } }

        /// The real file system, counting each batch step.
        func system() -> StorageSystem {
            var system = StorageSystem.posix
            let posix = StorageSystem.posix
            system.writeTemporary = { [self] (data, url) throws(StorageIOError) in
                count("writeTemporary")
                return try posix.writeTemporary(data, url)
            }
            system.syncFiles = { [self] (urls) throws(StorageIOError) in
                count("syncFiles")
                try posix.syncFiles(urls)
            }
            system.replace = { [self] (temporary, url) throws(StorageIOError) in
                count("replace")
                try posix.replace(temporary, url)
            }
            system.syncDirectory = { [self] (url) throws(StorageIOError) in
                count("syncDirectory")
                try posix.syncDirectory(url)
            }
            system.ensureDirectory = { [self] (url, restrict) throws(StorageIOError) in
                count("ensureDirectory")
                try posix.ensureDirectory(url, restrict)
            }
            return system
        }
    }

    private func openBehind(_ scratch: StorageScratch, _ system: StorageSystem = .posix) -> TokenStore {
        TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
            writeBehind: true, system: system, now: { StorageScratch.start })
    }

    @Test("Opening creates the directory and the device identity at once; the first batch makes the identity durable with the rest")
    func identityCreatedAtOpenAndMadeDurableWithTheFirstBatch() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = openBehind(scratch)
        // Any store opening the directory from now on (in this process or another) reads this identity.
        #expect(scratch.fileNames() == [StorageLayout.identityFile])
        #expect(scratch.open().deviceIdentifier == store.deviceIdentifier)
        #expect(store.hasQueuedWrites, "the identity's durable write waits for the first batch")
        store.holdWrites()
        StorageSamples.fill(store)
        store.releaseWrites()
        #expect(scratch.fileNames() == [StorageLayout.identityFile], "nothing else is written before the batch is committed")
        store.commitPendingWrites()
        store.flush()
        #expect(!store.hasQueuedWrites)
        #expect(scratch.mode(of: scratch.root) == 0o700)
        #expect(scratch.mode(of: scratch.statementDirectory) == 0o700)
        #expect(
            scratch.fileNames() == [StorageLayout.accessTokenFile, StorageLayout.clientCredentialsFile, StorageLayout.identityFile, StorageLayout.requestorFile("REF30")].sorted())
        for name in scratch.fileNames() { #expect(scratch.mode(of: scratch.file(name)) == 0o600, "\(name)") }
        let relaunched = scratch.open()
        #expect(StorageSamples.isFilled(relaunched))
        #expect(relaunched.deviceIdentifier == store.deviceIdentifier)
    }

    @Test("A hold gathers every change into one batch: each file written once, one directory sync")
    func oneBatchPerHold() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let steps = StepCounter()
        let store = openBehind(scratch, steps.system())
        store.holdWrites()
        store.setClientCredentials(StorageSamples.credentials)
        store.setAccessToken(StoredAccessToken(value: "first", expiresAt: StorageScratch.start + 60))
        store.setAccessToken(StorageSamples.token)
        store.setProfile(StorageSamples.profile())
        store.setAuthorization(StorageSamples.authorization())
        store.releaseWrites()
        store.commitPendingWrites()
        store.flush()
        // At open, the new identity (not yet durable); then the batch: identity, client, access
        // token (its last value), requestor record (profile and media token).
        #expect(steps["writeTemporary"] == 1 + 4)
        #expect(steps["syncFiles"] == 1, "one call makes the batch durable")
        #expect(steps["replace"] == 1 + 4)
        #expect(steps["syncDirectory"] == 1)
        #expect(steps["ensureDirectory"] == 1)
        #expect(scratch.open().accessToken == StorageSamples.token)

        // The next batch finds the directory there.
        store.holdWrites()
        store.setAccessToken(nil)
        store.releaseWrites()
        store.commitPendingWrites()
        store.flush()
        #expect(steps["ensureDirectory"] == 1)
        #expect(steps["syncDirectory"] == 2)
        #expect(!scratch.fileNames().contains(StorageLayout.accessTokenFile))
    }

    @Test("Without a hold, a change goes to disk on its own")
    func changeWithoutAHold() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = openBehind(scratch)
        store.setAccessToken(StorageSamples.token)
        store.flush()
        #expect(scratch.open().accessToken == StorageSamples.token)
    }

    /// `count` stores writing behind, their steps in `log`; the first store's first batch,
    /// once its files are written, says it has begun (`gate.entered`), then waits until
    /// `gate.mayGoOn` before making them durable.
    private func storesWithTheFirstDiskBlocked(
        _ count: Int, log: StepLog
    ) -> (scratches: [StorageScratch], stores: [TokenStore], gate: (entered: DispatchSemaphore, mayGoOn: DispatchSemaphore)) {
        let scratches = (0..<count).map { _ in StorageScratch() }
        let gate = (entered: DispatchSemaphore(value: 0), mayGoOn: DispatchSemaphore(value: 0))
        let stores = scratches.enumerated().map { index, scratch in
            openBehind(scratch, log.system(tag: index, blockingFirstWrite: index == 0 ? gate : nil))
        }
        return (scratches, stores, gate)
    }

    @Test("Batches submitted while a round is on the disk are written together in the next round")
    func groupCommit() {
        let log = StepLog()
        let (scratches, stores, gate) = storesWithTheFirstDiskBlocked(6, log: log)
        defer { scratches.forEach { $0.remove() } }
        // Each opening wrote its new identity (not yet durably): only the batches count here.
        log.reset()
        for (index, store) in stores.enumerated() {
            store.holdWrites()
            store.setAccessToken(StorageSamples.token)
            store.releaseWrites()
            store.commitPendingWrites()
            // The first batch holds its round on the disk; the others gather behind it.
            if index == 0 { gate.entered.wait() }
        }
        gate.mayGoOn.signal()
        for store in stores { store.flush() }
        for scratch in scratches { #expect(scratch.open().accessToken == StorageSamples.token) }
        let steps = log.steps.filter { $0.tag != 0 }
        let lastWrite = steps.lastIndex { $0.step == "writeTemporary" } ?? -1
        let firstSync = steps.firstIndex { $0.step == "syncFiles" } ?? -1
        let firstRename = steps.firstIndex { $0.step == "replace" } ?? -1
        #expect(steps.filter { $0.step == "writeTemporary" }.count == 2 * (stores.count - 1), "identity and access token of each")
        #expect(lastWrite < firstSync && firstSync < firstRename, "one round: every file written, then every file synced, then renamed: \(steps.map(\.step))")
    }

    @Test("The process's exit waits for every batch submitted so far, of every directory, and gives up at its timeout")
    func exitWaitsForEveryBatch() {
        let log = StepLog()
        let (scratches, stores, gate) = storesWithTheFirstDiskBlocked(3, log: log)
        defer { scratches.forEach { $0.remove() } }
        for (index, store) in stores.enumerated() {
            store.setAccessToken(StorageSamples.token)
            store.commitPendingWrites()
            if index == 0 { gate.entered.wait() }
        }
        // The first batch's disk does not answer: the wait ends at its timeout, unfinished.
        #expect(!StorageCommitter.shared.waitUntilEverythingIsWritten(timeout: 0.2))
        gate.mayGoOn.signal()
        #expect(StorageCommitter.shared.waitUntilEverythingIsWritten(timeout: 60))
        for (index, store) in stores.enumerated() {
            #expect(!store.hasQueuedWrites, "store \(index) has nothing left to write")
        }
        for scratch in scratches { #expect(scratch.open().accessToken == StorageSamples.token) }
    }

    /// Records the batch steps of several stores in the order they happen.
    final class StepLog: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(tag: Int, step: String)] = []

        var steps: [(tag: Int, step: String)] { lock.withLock { entries } }

        /// Forgets the steps so far (the stores' openings).
        func reset() { lock.withLock { entries.removeAll() } }

        /// `gate`: the first batch, its files written, says it has begun, then waits until
        /// it may make them durable.
        func system(tag: Int, blockingFirstWrite gate: (entered: DispatchSemaphore, mayGoOn: DispatchSemaphore)?) -> StorageSystem {
            var system = StorageSystem.posix
            let posix = StorageSystem.posix
            let blocked = NSLockedValue(gate.map { [$0.entered, $0.mayGoOn] } ?? [])
            system.writeTemporary = { [self] (data, url) throws(StorageIOError) in
                lock.withLock { entries.append((tag, "writeTemporary")) }
                return try posix.writeTemporary(data, url)
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
                lock.withLock { entries.append((tag, "syncFiles")) }
                try posix.syncFiles(urls)
            }
            system.replace = { [self] (temporary, url) throws(StorageIOError) in
                lock.withLock { entries.append((tag, "replace")) }
                try posix.replace(temporary, url)
            }
            return system
        }
    }

    /// A "crash" after `renames` renames: every later step does nothing, as if the process
    /// had died there (temporary files stay behind, later files keep their old content).
    private func crashingSystem(after renames: Int) -> StorageSystem {
        let done = StepCounter()
        var system = StorageSystem.posix
        let posix = StorageSystem.posix
        system.replace = { (temporary, url) throws(StorageIOError) in
            done.count("replace")
            if done["replace"] <= renames { try posix.replace(temporary, url) }
        }
        system.unlink = { (url) throws(StorageIOError) in
            if done["replace"] < renames { try posix.unlink(url) }
        }
        system.syncDirectory = { (url) throws(StorageIOError) in
            if done["replace"] <= renames { try posix.syncDirectory(url) }
        }
        return system
    }

    @Test(
        "A crash anywhere in a batch leaves each file whole, old or new, and the store loads under INTEGRITY_CHECK_ALL",
        arguments: 0...4)
    func crashLeavesNoTornRecord(renames: Int) throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        // What is on disk before: every record, written one by one.
        StorageSamples.fill(scratch.open())
        let oldToken = StorageSamples.token
        let newToken = StoredAccessToken(value: "renewed-access-token", expiresAt: StorageScratch.start + 7200)
        let newCredentials = StoredClientCredentials(clientID: StorageSamples.credentials.clientID, clientSecret: "rotated-secret")
        var newProfile = StorageSamples.profile()
        newProfile.notAfter = StorageScratch.start + 9 * 86_400

        let store = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
            writeBehind: true, system: crashingSystem(after: renames), now: { StorageScratch.start })
        store.holdWrites()
        store.setAccessToken(newToken)
        store.setClientCredentials(newCredentials)
        store.setProfile(newProfile)
        store.releaseWrites()
        store.commitPendingWrites()
        store.flush()
        // The process that "crashed" is gone: its temporary files now name a writer that no
        // longer exists (this test process, which played it, lives on).
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.statementDirectory.path) where StorageLayout.isTemporaryFile(name) {
            let orphan = name.replacingOccurrences(of: ".\(getpid()).", with: ".\(Int32.max).")
            try FileManager.default.moveItem(at: scratch.file(name), to: scratch.file(orphan))
        }

        let relaunched = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(relaunched.lastError == nil, "\(relaunched.lastError ?? "")")
        // The renames happen in the order of the changes: a prefix of them took effect.
        #expect(relaunched.accessToken == (renames >= 1 ? newToken : oldToken))
        #expect(relaunched.clientCredentials == (renames >= 2 ? newCredentials : StorageSamples.credentials))
        #expect(relaunched.profile(requestor: "REF30") == (renames >= 3 ? newProfile : StorageSamples.profile()))
        #expect(relaunched.authorization(requestor: "REF30", resource: "res1") == StorageSamples.authorization())
        #expect(scratch.fileNames().allSatisfy { !StorageLayout.isTemporaryFile($0) }, "leftovers are removed at launch")
    }
}
