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
        var onDiscard: @Sendable (StorageDiscard) -> Void { { [self] discard in lock.withLock { discards.append(discard) } } }
        var onProblem: @Sendable (StorageProblem) -> Void { { [self] problem in lock.withLock { problems.append(problem) } } }
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
        _ scratch: StorageScratch, _ check: IntegrityCheckType = .INTEGRITY_CHECK_NONE, writeBehind: Bool = true, reports: Reports = Reports()
    ) -> TokenStore {
        TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: check, writeBehind: writeBehind,
            onProblem: reports.onProblem, onDiscard: reports.onDiscard, now: { StorageScratch.start })
    }

    @Test("A lock another holder never lets go delays a store by its patience, never hangs it")
    func aStuckHolderOfTheLockDoesNotHangAStore() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = open(scratch)
        first.setAccessToken(StorageSamples.token)
        first.flush()
        // A stuck process: it holds the directory's lock and never lets go.
        let lockPath = scratch.statementDirectory.appendingPathComponent(StorageDirectoryLock.fileName).path
        let stuck = Foundation.open(lockPath, O_RDWR | O_CLOEXEC)
        try #require(stuck >= 0)
        defer { close(stuck) }
        try #require(flock(stuck, LOCK_EX | LOCK_NB) == 0)
        let opened = DispatchSemaphore(value: 0)
        let token = NSLockedValue<StoredAccessToken?>(nil)
        Thread.detachNewThread {
            let second = open(scratch)
            token.withLock { $0 = second.accessToken }
            opened.signal()
        }
        let bound = StorageDirectoryLock.patience + 30
        let waited = await offThePoolWait(opened, seconds: bound)
        #expect(waited, "a store opening behind a stuck lock holder returned within \(bound) s")
        #expect(token.withLock { $0 } == StorageSamples.token, "it read the directory without the lock")
    }

    /// Waits up to `seconds` for `semaphore` on a thread of its own.
    private func offThePoolWait(_ semaphore: DispatchSemaphore, seconds: TimeInterval) async -> Bool {
        let result = NSLockedValue(false)
        await offThePool { result.withLock { $0 = semaphore.wait(timeout: .now() + seconds) == .success } }
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
                    store.setProfile(StorageSamples.profile("REF-\(writer)-\(round)"))
                    store.flush()
                }
            }
        }
        let checked = open(scratch, .INTEGRITY_CHECK_ALL, reports: reports)
        for writer in 0..<4 {
            for round in 0..<6 {
                #expect(checked.profile(requestor: "REF-\(writer)-\(round)") != nil, "the sign-in of writer \(writer), round \(round)")
            }
        }
        #expect(reports.allDiscards.isEmpty, "\(reports.allDiscards)")
        #expect(reports.allProblems.isEmpty, "\(reports.allProblems)")
        #expect(scratch.fileNames().allSatisfy { !StorageLayout.isTemporaryFile($0) })
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
        second.holdWrites()
        second.setAccessToken(mine)
        first.setAccessToken(StorageSamples.token)
        first.flush()
        second.refreshIfChanged()
        #expect(second.accessToken == mine, "its own newer change is kept")
        second.releaseWrites()
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
        // Another writer (not the SDK) leaves the file damaged and says so through the counter.
        try scratch.overwrite(scratch.requestorFile("REF30"), with: "{\"formatVersion\": 1, \"kind\"")
        try #require(StorageDirectoryLock(directory: scratch.statementDirectory)).advance()
        second.refreshIfChanged()
        #expect(second.profile(requestor: "REF30") == nil)
        let discard = try #require(reports.allDiscards.first)
        #expect(reports.allDiscards.count == 1)
        #expect(discard.scope == .file)
        #expect(discard.path == scratch.requestorFile("REF30").path)
        #expect(discard.reason == StorageFileProblem.notJSON.description)
        #expect(FileManager.default.fileExists(atPath: scratch.requestorFile("REF30").path))
    }

    @Test("The lock file is private and holds only the change counter")
    func theLockFileIsPrivate() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = open(scratch, writeBehind: false)
        store.setAccessToken(StorageSamples.token)
        let lockFile = scratch.file(StorageDirectoryLock.fileName)
        #expect(scratch.mode(of: lockFile) == 0o600)
        #expect(try Data(contentsOf: lockFile).count == 8)
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

    /// The requestor file with the MVPD changed, its integrity code left as it was.
    private func tamper(_ scratch: StorageScratch) throws {
        let url = scratch.requestorFile("REF30")
        let text = try scratch.text(of: url)
        try scratch.overwrite(url, with: text.replacingOccurrences(of: #""mvpd":"MVPD1""#, with: #""mvpd":"EVIL""#))
    }

    @Test func aCorruptFileUnderNONEIsReportedWithItsPathAndReason() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        try scratch.overwrite(scratch.requestorFile("REF30"), with: "not json")
        let (store, discards) = reopen(scratch, .INTEGRITY_CHECK_NONE)
        #expect(store.profile(requestor: "REF30") == nil)
        #expect(
            discards == [
                StorageDiscard(
                    scope: .file, path: scratch.requestorFile("REF30").path, subject: "a requestor's sign-in, media tokens and preauthorizations",
                    reason: StorageFileProblem.notJSON.description)
            ])
        #expect(
            discards.first?.message.hasPrefix("Discarded a requestor's sign-in, media tokens and preauthorizations (\(scratch.requestorFile("REF30").path)): not a JSON object")
                == true)
    }

    @Test func aCorruptFileUnderALLClearsTheStoreAndSaysWhy() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        filled(scratch)
        try scratch.overwrite(scratch.file(StorageLayout.accessTokenFile), with: "")
        let (store, discards) = reopen(scratch, .INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(store))
        let discard = try #require(discards.first)
        #expect(discards.count == 1)
        #expect(discard.scope == .everything)
        #expect(discard.path == scratch.statementDirectory.path)
        #expect(discard.reason.contains(StorageLayout.accessTokenFile))
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
        #expect(discard.reason == "\(StorageLayout.requestorFile("REF30")): \(StorageFileProblem.integrityMismatch)")
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
