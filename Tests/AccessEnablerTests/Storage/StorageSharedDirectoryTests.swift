import Foundation
import Testing

@testable import AccessEnabler

/// Several stores over one directory in one process (each opening its own lock file, as two
/// processes would): one device identity however many open it first at once, no write lost
/// however many write at once, each sees what the others wrote at its next refresh, and a
/// change of its own still on its way is never overwritten by a reload.
@Suite("Storage: one directory, several stores")
struct StorageSharedDirectoryTests {
    /// Collects what stores report.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var discards: [StorageDiscard] = []
        private var problems: [StorageProblem] = []

        var allDiscards: [StorageDiscard] { lock.withLock { discards } }
        var allProblems: [StorageProblem] { lock.withLock { problems } }
        var onDiscard: @Sendable (StorageDiscard) -> Void {
            { [self] discard in lock.withLock { discards.append(discard) } }
        }
        var onProblem: @Sendable (StorageProblem) -> Void {
            { [self] problem in lock.withLock { problems.append(problem) } }
        }
    }

    /// Runs `work` on a thread of its own and waits for it without holding one of Swift's
    /// few cooperative threads: these tests block on disk writes and locks, and other tests
    /// running meanwhile need those threads.
    private func offThePool(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                work()
                continuation.resume()
            }
        }
    }

    private func open(
        _ scratch: StorageScratch, _ check: IntegrityCheckType = .INTEGRITY_CHECK_NONE, writeBehind: Bool = true,
        reports: Reports = Reports()
    ) -> TokenStore {
        TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: check,
            writeBehind: writeBehind,
            onProblem: reports.onProblem, onDiscard: reports.onDiscard, now: { StorageScratch.start })
    }

    @Test(
        "A lock a stuck holder never lets go delays a write by its patience at most; the change stays, is said, and lands once the lock is free"
    )
    func aStuckHolderOfTheLockDelaysAWriteByItsPatienceAtMost() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = open(scratch)
        first.setAccessToken(StorageSamples.token)
        first.flush()
        // A stuck process: it holds the directory's lock and never lets go.
        let lockPath = scratch.file(StorageDirectoryLock.fileName).path
        let stuck = Foundation.open(lockPath, O_RDWR | O_CLOEXEC)
        try #require(stuck >= 0)
        var released = false
        defer { if !released { close(stuck) } }
        try #require(flock(stuck, LOCK_EX | LOCK_NB) == 0)

        let notices = NSLockedValue<[String]>([])
        let second = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
            writeBehind: true,
            onNotice: { notice in notices.withLock { $0.append(notice) } }, now: { StorageScratch.start })
        #expect(second.accessToken == StorageSamples.token, "reading takes no lock")
        second.setProfile(StorageSamples.profile())
        let waited = NSLockedValue<TimeInterval>(0)
        let returned = await offThePoolWait(seconds: StorageDirectoryLock.patience + 30) {
            let start = Date()
            second.writeUrgentChanges()
            waited.withLock { $0 = Date().timeIntervalSince(start) }
        }
        #expect(returned, "the write gave up waiting")
        #expect(waited.withLock { $0 } >= StorageDirectoryLock.patience * 0.9, "it waited for the lock first")
        // The storage thread takes the write over; the caller has already waited its
        // patience, so nobody (a flush, a store opening the directory) waits for it again.
        let key = TokenStore.key(for: second.statementDirectory)
        #expect(
            await offThePoolWait(seconds: 60) {
                while !StorageSyncThread.shared.hasWriteSetAside(key) { usleep(1_000) }
            })
        #expect(!StorageSyncThread.shared.hasUnwritten(key), "a flush does not wait for the write a second time")
        #expect(second.profile(requestor: "REF30") == StorageSamples.profile(), "the change is kept in memory")
        #expect(scratch.open().profile(requestor: "REF30") == nil, "and not written behind the holder's back")
        let notice = try #require(notices.withLock { $0 }.first)
        #expect(notices.withLock { $0 }.count == 1)
        #expect(notice.contains(lockPath) && notice.contains("more than 1 s"), "\(notice)")

        // The holder lets go: the change lands without anyone asking again.
        close(stuck)
        released = true
        let landed = await offThePoolWait(seconds: 60) {
            while scratch.open().profile(requestor: "REF30") == nil { usleep(20_000) }
        }
        #expect(landed)
        #expect(scratch.open().accessToken == StorageSamples.token, "nothing the first store wrote was lost")
    }

    @Test(
        "A flush waits for a write another holder of the lock holds up for less than its patience: the change is on disk when it returns"
    )
    func aFlushWaitsForAWriteABriefHoldHoldsUp() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        // A patience longer than any machine's pause: the hold below is brief against it.
        let store = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
            writeBehind: true,
            lockPatience: 600, now: { StorageScratch.start })
        store.setAccessToken(StorageSamples.token)
        store.flush()
        // Another writer holds the directory's lock for a moment.
        let holder = Foundation.open(scratch.file(StorageDirectoryLock.fileName).path, O_RDWR | O_CLOEXEC)
        try #require(holder >= 0)
        var released = false
        defer { if !released { close(holder) } }
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)

        store.setProfile(StorageSamples.profile())
        store.commitPendingWrites()
        let key = TokenStore.key(for: store.statementDirectory)
        #expect(
            await offThePoolWait(seconds: 60) {
                while !StorageSyncThread.shared.hasWriteSetAside(key) { usleep(1_000) }
            })
        // Whether the profile was on disk when the flush returned (nil: not returned yet).
        let onDiskWhenFlushed = NSLockedValue<Bool?>(nil)
        let flushed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            store.flush()
            let onDisk = scratch.open().profile(requestor: "REF30") != nil
            onDiskWhenFlushed.withLock { $0 = onDisk }
            flushed.signal()
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(onDiskWhenFlushed.withLock { $0 } == nil, "the flush waits while the lock is held")
        close(holder)
        released = true
        let returned = NSLockedValue(false)
        await offThePool { returned.withLock { $0 = flushed.wait(timeout: .now() + 60) == .success } }
        #expect(returned.withLock { $0 })
        #expect(onDiskWhenFlushed.withLock { $0 } == true, "and returns once the change is on disk")
    }

    @Test("A truncated, deleted or replaced lock file changes nothing: every store goes on and sees the others")
    func aDamagedLockFileChangesNothing() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = open(scratch)
        let second = open(scratch)
        first.setProfile(StorageSamples.profile())
        first.flush()
        let lockFile = scratch.file(StorageDirectoryLock.fileName)
        let damages: [(String, () throws -> Void)] = [
            ("truncated", { #expect(truncate(lockFile.path, 0) == 0) }),
            ("deleted", { try FileManager.default.removeItem(at: lockFile) }),
            (
                "replaced",
                {
                    try scratch.overwrite(scratch.file("replacement"), with: "not a lock")
                    #expect(rename(scratch.file("replacement").path, lockFile.path) == 0)
                }
            ),
        ]
        for (round, (name, damage)) in damages.enumerated() {
            try damage()
            let token = StoredAccessToken(value: "token-\(round)", expiresAt: StorageScratch.start + 60)
            second.setAccessToken(token)
            second.flush()
            first.refreshIfChanged()
            #expect(first.accessToken == token, "\(name): the other store's write is seen")
            first.setProfile(StorageSamples.profile(mvpd: "MVPD-\(round)"))
            first.flush()
            second.refreshIfChanged()
            #expect(second.profile(requestor: "REF30")?.mvpd == "MVPD-\(round)", "\(name): and the other way round")
        }
    }

    @Test("A lock held for long piles up no writes: one set-aside write per store, waited for by nobody past a second")
    func aLongHoldPilesUpNoWrites() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
            writeBehind: true, now: { StorageScratch.start })
        store.setAccessToken(StorageSamples.token)
        store.flush()
        // Another opening of the lock file, as another process's: its lock excludes this store's.
        let holder = Foundation.open(scratch.file(StorageDirectoryLock.fileName).path, O_RDWR | O_CLOEXEC)
        try #require(holder >= 0)
        var released = false
        defer { if !released { close(holder) } }
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        let key = TokenStore.key(for: store.statementDirectory)
        let most = NSLockedValue(0)
        let writes = 12
        #expect(
            await offThePoolWait(seconds: 120) {
                for round in 0..<writes {
                    let renewed = StoredAccessToken(value: "renewed-\(round)", expiresAt: StorageScratch.start + 60)
                    store.setAccessToken(renewed)
                    store.flush()
                    let parked = StorageSyncThread.shared.writesSetAside(key)
                    most.withLock { $0 = max($0, parked) }
                    // Let the storage thread try the set-aside write again in between.
                    usleep(60_000)
                }
            })
        #expect(most.withLock { $0 } == 1, "one set-aside write for the store, never a pile of them")
        #expect(!StorageSyncThread.shared.hasUnwritten(key), "nobody waits for it past the first second")
        close(holder)
        released = true
        let landed = await offThePoolWait(seconds: 60) {
            while scratch.open().accessToken?.value != "renewed-\(writes - 1)" { usleep(20_000) }
        }
        #expect(landed, "the last change lands once the lock is free")
    }

    /// Runs `work` on a thread of its own and waits up to `seconds` for it, without holding
    /// one of Swift's cooperative threads.
    private func offThePoolWait(seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) async -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            work()
            done.signal()
        }
        let result = NSLockedValue(false)
        await offThePool { result.withLock { $0 = done.wait(timeout: .now() + seconds) == .success } }
        return result.withLock { $0 }
    }

    @Test("Stores opening a new directory at the same moment share one device identity")
    func racingFirstOpensShareOneIdentity() async throws {
        for _ in 0..<3 {
            let scratch = StorageScratch()
            defer { scratch.remove() }
            let identifiers = NSLockedValue<[String]>([])
            let reports = Reports()
            await offThePool {
                DispatchQueue.concurrentPerform(iterations: 6) { _ in
                    let store = open(scratch, .INTEGRITY_CHECK_ALL, reports: reports)
                    store.setAccessToken(StorageSamples.token)
                    store.flush()
                    identifiers.withLock { $0.append(store.deviceIdentifier) }
                }
            }
            #expect(Set(identifiers.withLock { $0 }).count == 1)
            // What each wrote is signed with the one integrity key: nothing is discarded.
            let checked = open(scratch, .INTEGRITY_CHECK_ALL, reports: reports)
            #expect(checked.accessToken == StorageSamples.token)
            #expect(reports.allDiscards.isEmpty, "\(reports.allDiscards)")
            #expect(reports.allProblems.isEmpty, "\(reports.allProblems)")
        }
    }

    @Test("A first launch overtaken between its reads by another first launch keeps what that one wrote")
    func aFirstLaunchOvertakenBetweenItsReadsClearsNothing() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let reports = Reports()
        let overtaken = NSLockedValue(false)
        var loader = StorageLoader(
            directory: scratch.statementDirectory, integrityCheck: .INTEGRITY_CHECK_ALL, now: StorageScratch.start)
        // It finds no identity; before it reads store.json, another first launch creates the
        // identity and signs store.json with its key.
        loader.afterReadingIdentity = {
            let first = overtaken.withLock { (done: inout Bool) in
                defer { done = true }
                return !done
            }
            guard first else { return }
            let other = open(scratch, .INTEGRITY_CHECK_ALL, reports: reports)
            other.setAccessToken(StorageSamples.token)
            other.flush()
        }
        let result = loader.load()
        guard case .found(let created) = StorageLoader.readIdentity(in: scratch.statementDirectory) else {
            Issue.record("the other launch created no identity")
            return
        }
        #expect(result.snapshot.identity == created, "the identity the other launch created")
        #expect(result.identityWrite == nil, "nothing to claim")
        #expect(result.snapshot.accessToken == StorageSamples.token, "what it wrote is read, not cleared")
        #expect(!result.wipe)
        #expect(result.discards.isEmpty, "\(result.discards)")
        #expect(reports.allDiscards.isEmpty && reports.allProblems.isEmpty)
    }

    @Test("Stores writing and reopening at once lose no write and pass the integrity check")
    func concurrentWritersLoseNothing() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let reports = Reports()
        await offThePool {
            DispatchQueue.concurrentPerform(iterations: 4) { writer in
                for round in 0..<6 {
                    // A new store each round: an app relaunching while the others write.
                    let store = open(scratch, .INTEGRITY_CHECK_ALL, reports: reports)
                    // As in the SDK, a profile comes after the device identifier is settled: one
                    // set before, on a first launch that loses the race for the identity, was
                    // obtained with another identifier and is dropped when the claim finds it.
                    _ = store.deviceIdentifier
                    store.setProfile(StorageSamples.profile("REF-\(writer)-\(round)"))
                    store.flush()
                }
            }
        }
        let checked = open(scratch, .INTEGRITY_CHECK_ALL, reports: reports)
        for writer in 0..<4 {
            for round in 0..<6 {
                #expect(
                    checked.profile(requestor: "REF-\(writer)-\(round)") != nil,
                    "the sign-in of writer \(writer), round \(round)")
            }
        }
        #expect(reports.allDiscards.isEmpty, "\(reports.allDiscards)")
        #expect(reports.allProblems.isEmpty, "\(reports.allProblems)")
        // The checking store's own launch writes too (the integrity check's probe, off the
        // caller's path): a temporary file is left over only if it is there once that is done.
        checked.flush()
        #expect(scratch.fileNames().allSatisfy { !StorageLayout.isTemporaryFile($0) }, "\(scratch.fileNames())")
    }

    @Test("A sign-in and a sign-out by one store are what the other reads at its next refresh")
    func eachStoreSeesTheOthersChanges() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = open(scratch)
        let second = open(scratch)
        first.setProfile(StorageSamples.profile())
        first.setAccessToken(StorageSamples.token)
        first.flush()
        #expect(second.profile(requestor: "REF30") == nil, "nothing is read before the refresh")
        second.refreshIfChanged()
        #expect(second.profile(requestor: "REF30") == StorageSamples.profile())
        #expect(second.accessToken == StorageSamples.token)

        first.removeProfile(requestor: "REF30")
        first.flush()
        second.refreshIfChanged()
        #expect(second.profile(requestor: "REF30") == nil)
        #expect(second.accessToken == StorageSamples.token)

        // And the other way round; the writer itself has nothing to reload.
        second.setProfile(StorageSamples.profile(mvpd: "MVPD2"))
        second.flush()
        first.refreshIfChanged()
        #expect(first.profile(requestor: "REF30")?.mvpd == "MVPD2")
        second.refreshIfChanged()
        #expect(second.profile(requestor: "REF30")?.mvpd == "MVPD2")
    }

    @Test("A change still on its way to disk is not overwritten by a reload, and lands over the other's")
    func aPendingChangeWins() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = open(scratch)
        let second = open(scratch)
        let mine = StoredAccessToken(value: "second-store-token", expiresAt: StorageScratch.start + 60)
        second.setAccessToken(mine)
        first.setAccessToken(StorageSamples.token)
        first.flush()
        second.refreshIfChanged()
        #expect(second.accessToken == mine, "its own newer change is kept")
        second.flush()
        first.refreshIfChanged()
        #expect(first.accessToken == mine, "the last write wins on disk too")
    }

    @Test("A file another store left unusable is reported, not applied, and not deleted")
    func anUnusableFileFromAnotherStoreIsReported() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = open(scratch)
        let reports = Reports()
        let second = open(scratch, reports: reports)
        first.setProfile(StorageSamples.profile())
        first.flush()
        second.refreshIfChanged()
        #expect(second.profile(requestor: "REF30") != nil)
        // Another writer (not the SDK) leaves the file damaged.
        try scratch.overwrite(scratch.storeFile, with: "{\"formatVersion\": 2, \"kind\"")
        second.refreshIfChanged()
        #expect(second.profile(requestor: "REF30") == nil)
        second.refreshIfChanged()
        let discard = try #require(reports.allDiscards.first)
        #expect(reports.allDiscards.count == 1, "reported once")
        #expect(discard.scope == .file)
        #expect(discard.path == scratch.storeFile.path)
        #expect(discard.reason == StorageFileProblem.notJSON.description)
        #expect(FileManager.default.fileExists(atPath: scratch.storeFile.path))
    }

    @Test("The lock file is private and holds nothing")
    func theLockFileIsPrivate() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = open(scratch, writeBehind: false)
        store.setAccessToken(StorageSamples.token)
        let lockFile = scratch.file(StorageDirectoryLock.fileName)
        #expect(scratch.mode(of: lockFile) == 0o600)
        #expect(try Data(contentsOf: lockFile).isEmpty)
    }
}

/// A discarded file or a cleared store is told to whoever opened the store, naming the file
/// (or the directory) and the reason, under each integrity check.
@Suite("Storage: discarded values are reported")
struct StorageDiscardReportTests {
    private func filled(_ scratch: StorageScratch) {
        StorageSamples.fill(scratch.open())
    }

    private func reopen(_ scratch: StorageScratch, _ check: IntegrityCheckType) -> (TokenStore, [StorageDiscard]) {
        let reports = StorageSharedDirectoryTests.Reports()
        let store = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: check,
            onDiscard: reports.onDiscard, now: { StorageScratch.start })
        return (store, reports.allDiscards)
    }

    /// The profile's MVPD changed in store.json, its integrity code left as it was.
    private func tamper(_ scratch: StorageScratch) throws {
        try scratch.editStore(replacing: #""mvpd":"MVPD1""#, with: #""mvpd":"EVIL""#)
    }

    @Test func aCorruptRecordUnderNONEIsReportedWithItsPathAndReason() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        try scratch.editStore(replacing: #""requestor":"REF30""#, with: #""requestor":42"#)
        let (store, discards) = reopen(scratch, .INTEGRITY_CHECK_NONE)
        #expect(store.profile(requestor: "REF30") == nil)
        #expect(store.accessToken == StorageSamples.token, "the other records stay")
        #expect(
            discards == [
                StorageDiscard(
                    scope: .file, path: scratch.storeFile.path, subject: "the sign-in of REF30",
                    reason: StorageFileProblem.malformedPayload.description)
            ])
        #expect(
            discards.first?.message.hasPrefix(
                "Discarded the sign-in of REF30 (\(scratch.storeFile.path)): payload is not a valid record") == true)
    }

    @Test func aCorruptFileUnderNONEIsReportedWithItsPathAndReason() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        try scratch.overwrite(scratch.storeFile, with: "not json")
        let (store, discards) = reopen(scratch, .INTEGRITY_CHECK_NONE)
        #expect(StorageSamples.isEmpty(store))
        #expect(
            discards == [
                StorageDiscard(
                    scope: .file, path: scratch.storeFile.path, subject: "the stored sign-ins, client and token",
                    reason: StorageFileProblem.notJSON.description)
            ])
    }

    @Test func aCorruptFileUnderALLClearsTheStoreAndSaysWhy() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        try scratch.overwrite(scratch.storeFile, with: "")
        let (store, discards) = reopen(scratch, .INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(store))
        let discard = try #require(discards.first)
        #expect(discards.count == 1)
        #expect(discard.scope == .everything)
        #expect(discard.path == scratch.statementDirectory.path)
        #expect(discard.reason.contains(StorageLayout.storeFile))
        #expect(discard.message.contains("every stored value except the device identifier was cleared"))
    }

    @Test func aTamperedFileUnderALLClearsTheStoreAndSaysWhy() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        try tamper(scratch)
        let (store, discards) = reopen(scratch, .INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(store))
        let discard = try #require(discards.first)
        #expect(discards.count == 1)
        #expect(discard.scope == .everything)
        #expect(discard.reason == "\(StorageLayout.storeFile): \(StorageFileProblem.integrityMismatch)")
    }

    @Test func aTamperedFileUnderNONEIsTrustedAndNotReported() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        try tamper(scratch)
        let (store, discards) = reopen(scratch, .INTEGRITY_CHECK_NONE)
        #expect(store.profile(requestor: "REF30")?.mvpd == "EVIL")
        #expect(discards.isEmpty)
    }

    @Test func anIntactStoreReportsNothing() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        for check in [IntegrityCheckType.INTEGRITY_CHECK_NONE, .INTEGRITY_CHECK_ALL] {
            #expect(reopen(scratch, check).1.isEmpty)
        }
    }
}
