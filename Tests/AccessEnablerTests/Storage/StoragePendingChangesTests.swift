import Foundation
import Testing

@testable import AccessEnabler

/// The commit policy's bookkeeping (``PendingChanges``) and the merge of another writer's
/// version (``StoreFileMerge``), as pure values: which version of a record wins, what stays
/// urgent, and what a failed write is said to have been about.
@Suite("Storage: pending changes and other writers' versions")
struct StoragePendingChangesTests {
    private static let identity = StoredIdentity(
        deviceIdentifier: String(repeating: "a", count: 64), integrityKey: String(repeating: "0", count: 64))

    @Test("Memory's version of a record wins until the write that took its change")
    func memoryWinsUntilWritten() {
        var changes = PendingChanges()
        #expect(!changes.hasUnattempted)
        let first = changes.next()
        changes.changed(.accessToken, by: first)
        let writtenUpTo = changes.latest
        let second = changes.next()
        changes.changed(.clientCredentials, by: second)
        #expect(changes.hasUnattempted)
        #expect(!changes.takesDiskVersion(of: .accessToken))
        #expect(!changes.takesDiskVersion(of: .clientCredentials))
        #expect(changes.takesDiskVersion(of: .requestor("REF30")))

        changes.written(upTo: writtenUpTo)
        #expect(changes.takesDiskVersion(of: .accessToken))
        #expect(!changes.takesDiskVersion(of: .clientCredentials))
        #expect(changes.hasUnattempted)
        changes.written(upTo: changes.latest)
        #expect(changes.takesDiskVersion(of: .clientCredentials))
        #expect(!changes.hasUnattempted)
    }

    @Test("A sign-in stays urgent until a write takes it, and a failed write keeps it in memory")
    func urgency() {
        var changes = PendingChanges()
        let signIn = changes.next()
        changes.changed(.requestor("REF30"), by: signIn)
        changes.markUrgent()
        let later = changes.next()
        changes.changed(.accessToken, by: later)
        changes.failed(upTo: signIn)
        #expect(changes.isUrgent)
        #expect(!changes.takesDiskVersion(of: .requestor("REF30")))
        changes.failed(upTo: later)
        #expect(!changes.isUrgent)
        #expect(!changes.hasUnattempted)
        #expect(!changes.takesDiskVersion(of: .requestor("REF30")))

        changes.markUrgent()
        _ = changes.next()
        changes.abandonedAll()
        #expect(!changes.isUrgent)
        #expect(!changes.hasUnattempted)
    }

    @Test("A clear keeps every record of the disk out, a new client its requestor records, until written")
    func clearAndNewClient() {
        var changes = PendingChanges()
        let client = changes.next()
        changes.changed(.clientCredentials, by: client)
        changes.droppedRequestors(by: client)
        #expect(!changes.takesDiskVersion(of: .requestor("REF30")))
        #expect(changes.takesDiskVersion(of: .accessToken))
        changes.written(upTo: client)
        #expect(changes.takesDiskVersion(of: .requestor("REF30")))
        let clear = changes.next()
        changes.wiped(by: clear)
        #expect(!changes.takesDiskVersion(of: .accessToken))
        #expect(!changes.takesDiskVersion(of: .requestor("REF30")))
        changes.written(upTo: clear)
        #expect(changes.takesDiskVersion(of: .accessToken))
    }

    @Test("What a write was about, in words: a clear, removals, or saves")
    func subjects() {
        var changes = PendingChanges()
        func said(_ held: Set<StoredRecordKey>) -> String {
            let (subject, operation) = changes.subjects(held: held)
            return "\(operation): \(subject)"
        }
        #expect(said([]) == "save: the stored values")
        let removal = changes.next()
        changes.changed(.accessToken, by: removal)
        #expect(said([]) == "delete: the access token")
        #expect(said([.accessToken]) == "save: the access token")
        changes.failed(upTo: removal)
        #expect(said([]) == "save: the stored values")
        let clear = changes.next()
        changes.wiped(by: clear)
        #expect(said([.accessToken]) == "delete: the stored sign-ins, client and token")
    }

    @Test("A store opens with its launch's rewrite as change 1, or with nothing to write")
    func launch() {
        #expect(PendingChanges(launchWipe: false, rewrite: []) == PendingChanges())
        let rewrite = PendingChanges(launchWipe: false, rewrite: [.accessToken])
        #expect(rewrite.latest == 1 && rewrite.hasUnattempted)
        #expect(!rewrite.takesDiskVersion(of: .accessToken))
        #expect(rewrite.takesDiskVersion(of: .clientCredentials))
        let wipe = PendingChanges(launchWipe: true, rewrite: [])
        #expect(wipe.hasUnattempted && !wipe.takesDiskVersion(of: .clientCredentials))
    }

    @Test("Another writer's version replaces and removes records, except those changed here and not written")
    func mergeKeepsUnwrittenChanges() {
        var changes = PendingChanges()
        let change = changes.next()
        changes.changed(.accessToken, by: change)
        var memory = StorageSnapshot(identity: Self.identity)
        memory.accessToken = StoredAccessToken(value: "mine", expiresAt: StorageScratch.start + 60)
        memory.clientCredentials = StorageSamples.credentials
        memory.requestors["REF30"] = RequestorRecord(requestor: "REF30", configuration: StorageSamples.configuration)
        var disk = StorageStoreFile.Contents()
        disk.accessToken = StoredAccessToken(value: "theirs", expiresAt: StorageScratch.start + 60)
        disk.clientCredentials = StoredClientCredentials(clientID: "client-2", clientSecret: "other")

        let discards = StoreFileMerge.merge(
            (.success(disk), nil), into: &memory, keeping: changes, path: "/store.json", at: StorageScratch.start)
        #expect(discards.isEmpty)
        #expect(memory.accessToken?.value == "mine")
        #expect(memory.clientCredentials?.clientID == "client-2")
        #expect(memory.requestors.isEmpty)
        #expect(memory.identity == Self.identity)
    }

    @Test("A version that cannot be used here is discarded whole, keeping only the unwritten changes")
    func mergeOfAnUnusableVersion() {
        var changes = PendingChanges()
        let change = changes.next()
        changes.changed(.accessToken, by: change)
        var memory = StorageSnapshot(identity: Self.identity)
        memory.accessToken = StorageSamples.token
        memory.clientCredentials = StorageSamples.credentials

        let discards = StoreFileMerge.merge(
            (.failure(.integrityMismatch), nil), into: &memory, keeping: changes, path: "/store.json",
            at: StorageScratch.start)
        #expect(discards.map(\.subject) == ["the stored sign-ins, client and token"])
        #expect(discards.map(\.path) == ["/store.json"])
        #expect(memory.accessToken == StorageSamples.token)
        #expect(memory.clientCredentials == nil)

        let none = StoreFileMerge.merge(nil, into: &memory, keeping: PendingChanges(), path: "/store.json", at: .now)
        #expect(none.isEmpty)
        #expect(memory.accessToken == nil)
    }
}
