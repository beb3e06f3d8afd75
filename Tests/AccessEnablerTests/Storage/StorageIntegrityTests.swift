import Foundation
import Testing

@testable import AccessEnabler

@Suite("Storage: integrity checks and damaged files")
struct StorageIntegrityTests {
    /// A store filled with every kind of record, plus the scratch directory it lives in.
    private func filledScratch() -> (StorageScratch, deviceIdentifier: String) {
        let scratch = StorageScratch()
        let store = scratch.open()
        StorageSamples.fill(store)
        return (scratch, store.deviceIdentifier)
    }

    /// The profile's MVPD changed in store.json, its integrity code left as it was.
    private func tamperProfile(_ scratch: StorageScratch) throws {
        try scratch.editStore(replacing: #""mvpd":"MVPD1""#, with: #""mvpd":"EVIL""#)
    }

    /// Writes `snapshot` as store.json, signed with the store's own key: a file the SDK
    /// could have written, whatever it holds.
    private func writeSigned(_ scratch: StorageScratch, _ change: (inout StorageSnapshot) -> Void) throws {
        guard case .found(let identity) = StorageLoader.readIdentity(in: scratch.statementDirectory) else {
            Issue.record("no identity")
            return
        }
        let store = scratch.open()
        var snapshot = StorageSnapshot(
            identity: identity, clientCredentials: store.clientCredentials, accessToken: store.accessToken,
            requestors: ["REF30": RequestorRecord(requestor: "REF30", profile: store.profile(requestor: "REF30"))])
        change(&snapshot)
        try StorageStoreFile.encode(snapshot, key: identity.integrityKeyBytes).write(to: scratch.storeFile)
    }

    @Test("CLEAR starts empty every launch and empties the store, keeping the device identifier")
    func clearStartsEmpty() throws {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let cleared = scratch.open(.INTEGRITY_CHECK_CLEAR)
        #expect(StorageSamples.isEmpty(cleared))
        #expect(cleared.lastError == nil)
        #expect(cleared.deviceIdentifier == deviceIdentifier)
        #expect(try scratch.text(of: scratch.storeFile).hasSuffix(#""payload":{}}"#))
        #expect(StorageSamples.isEmpty(scratch.open()))

        StorageSamples.fill(cleared)
        #expect(StorageSamples.isFilled(cleared))
        #expect(StorageSamples.isEmpty(scratch.open(.INTEGRITY_CHECK_CLEAR)))
    }

    @Test("ALL accepts an intact store, and its operability check leaves nothing behind")
    func allAcceptsIntactStore() {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isFilled(checked))
        #expect(checked.lastError == nil)
        #expect(checked.deviceIdentifier == deviceIdentifier)
        #expect(scratch.fileNames() == [StorageLayout.identityFile, StorageLayout.storeFile])
    }

    @Test("ALL accepts a file whose values are intact but whose whitespace changed")
    func allAcceptsReformattedFile() throws {
        let (scratch, _) = filledScratch()
        defer { scratch.remove() }
        let text = try scratch.text(of: scratch.storeFile)
        try scratch.overwrite(scratch.storeFile, with: text.replacingOccurrences(of: ",", with: ",\n  ") + "\n")
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isFilled(checked))
        #expect(checked.lastError == nil)
    }

    /// Each way of damaging store.json as a whole, with the words lastError must contain.
    static let damages: [(name: String, expected: String, damage: @Sendable (String) -> String)] = [
        ("corrupt JSON", "not a JSON object", { _ in "{ this is not json ]" }),
        ("truncated", "not a JSON object", { String($0.prefix($0.count / 2)) }),
        ("empty", "not a JSON object", { _ in "" }),
        (
            "unknown format version", "unsupported format version 3",
            { $0.replacingOccurrences(of: #""formatVersion":2"#, with: #""formatVersion":3"#) }
        ),
        (
            "wrong kind", "holds accessToken instead of store",
            { $0.replacingOccurrences(of: #""kind":"store""#, with: #""kind":"accessToken""#) }
        ),
    ]

    @Test("ALL clears everything but the device identifier when the store is damaged", arguments: damages.indices)
    func allClearsOnDamage(index: Int) throws {
        let damage = Self.damages[index]
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        try scratch.overwrite(scratch.storeFile, with: damage.damage(try scratch.text(of: scratch.storeFile)))

        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(checked), "\(damage.name)")
        #expect(checked.deviceIdentifier == deviceIdentifier)
        let error = checked.lastError ?? ""
        #expect(error.contains("storage integrity check failed"), "\(damage.name): \(error)")
        #expect(error.contains(StorageLayout.storeFile), "\(damage.name): \(error)")
        #expect(error.contains(damage.expected), "\(damage.name): \(error)")
        #expect(StorageSamples.isEmpty(scratch.open(.INTEGRITY_CHECK_NONE)), "the store on disk was emptied")
    }

    @Test("NONE discards a store it cannot read and keeps the device identifier", arguments: damages.indices)
    func noneDiscardsDamagedStore(index: Int) throws {
        let damage = Self.damages[index]
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        try scratch.overwrite(scratch.storeFile, with: damage.damage(try scratch.text(of: scratch.storeFile)))

        let store = scratch.open(.INTEGRITY_CHECK_NONE)
        #expect(StorageSamples.isEmpty(store), "\(damage.name)")
        #expect(store.deviceIdentifier == deviceIdentifier)
        let error = store.lastError ?? ""
        #expect(error.contains("discarded corrupt storage file store.json"), "\(damage.name): \(error)")
        #expect(error.contains(damage.expected), "\(damage.name): \(error)")
        StorageSamples.fill(store)
        #expect(
            StorageSamples.isFilled(scratch.open(.INTEGRITY_CHECK_ALL)), "the next write replaces it with a sound one")
    }

    @Test("NONE discards only a record it cannot read and keeps the rest; ALL clears everything for it")
    func aDamagedRecord() throws {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        try scratch.editStore(replacing: #""requestor":"REF30""#, with: #""requestor":42"#)

        let store = scratch.open(.INTEGRITY_CHECK_NONE)
        #expect(store.profile(requestor: "REF30") == nil)
        #expect(store.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(store.clientCredentials == StorageSamples.credentials)
        #expect(store.accessToken == StorageSamples.token)
        #expect(store.deviceIdentifier == deviceIdentifier)
        #expect(
            store.lastError?.contains("discarded the sign-in of REF30 in store.json: payload is not a valid record")
                == true)
        #expect(
            try !scratch.text(of: scratch.storeFile).contains(#""requestor":42"#),
            "the record is removed from the file at once")

        try scratch.editStore(replacing: #""clientID":"client-1""#, with: #""clientID":1"#)
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(checked))
        #expect(checked.lastError?.contains("storage integrity check failed") == true)
    }

    @Test("ALL clears everything when a value was changed outside the SDK")
    func allDetectsTampering() throws {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        try tamperProfile(scratch)
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(checked))
        #expect(checked.deviceIdentifier == deviceIdentifier)
        #expect(checked.lastError?.contains("integrity check failed (changed outside the SDK)") == true)
    }

    @Test("NONE trusts a value changed outside the SDK")
    func noneTrustsTampering() throws {
        let (scratch, _) = filledScratch()
        defer { scratch.remove() }
        try tamperProfile(scratch)
        let store = scratch.open(.INTEGRITY_CHECK_NONE)
        #expect(store.selectedMVPD(requestor: "REF30") == "EVIL")
        #expect(store.lastError == nil)
    }

    @Test("ALL rejects a requestor's record filed under another requestor's name")
    func allRejectsSwappedRequestorRecord() throws {
        let (scratch, _) = filledScratch()
        defer { scratch.remove() }
        try writeSigned(scratch) { snapshot in
            snapshot.requestors = ["OTHER": snapshot.requestors["REF30"]!]
        }
        #expect(scratch.open(.INTEGRITY_CHECK_NONE).profile(requestor: "REF30") == nil)
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(checked.profile(requestor: "REF30") == nil)
        #expect(checked.lastError?.contains("filed under another name") == true)
    }

    @Test("ALL rejects a well-signed but ill-formed value")
    func allRejectsInvalidValue() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        var profile = StorageSamples.profile()
        profile.notAfter = profile.notBefore - 1
        store.setProfile(profile)
        #expect(scratch.open(.INTEGRITY_CHECK_NONE).profile(requestor: "REF30") == profile)
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(checked.profile(requestor: "REF30") == nil)
        #expect(checked.lastError?.contains("profile ends before it starts") == true)
    }

    @Test("A damaged identity file gives a new device identifier; under ALL nothing signed with the old key survives")
    func damagedIdentity() throws {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        try scratch.overwrite(scratch.file(StorageLayout.identityFile), with: "{\"formatVersion\":1,")
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(checked.deviceIdentifier != deviceIdentifier)
        #expect(checked.deviceIdentifier.count == 64)
        #expect(StorageSamples.isEmpty(checked))
        #expect(checked.lastError?.contains("discarded corrupt storage file identity.json") == true)
        #expect(scratch.open().deviceIdentifier == checked.deviceIdentifier)
    }

    @Test("An identity changed outside the SDK keeps its device identifier; ALL clears the rest")
    func tamperedIdentity() throws {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let url = scratch.file(StorageLayout.identityFile)
        let text = try scratch.text(of: url)
        let newKey = String(repeating: "ab", count: 32)
        let tampered = try #require(text.range(of: #""integrityKey":"[0-9a-f]{64}""#, options: .regularExpression))
        try scratch.overwrite(url, with: text.replacingCharacters(in: tampered, with: #""integrityKey":"\#(newKey)""#))

        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(checked.deviceIdentifier == deviceIdentifier)
        #expect(StorageSamples.isEmpty(checked))
        #expect(checked.lastError?.contains("identity.json: integrity check failed") == true)

        // The identity was re-sealed: the next checked launch is clean and can store again.
        StorageSamples.fill(checked)
        let next = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(next.lastError == nil)
        #expect(StorageSamples.isFilled(next))
        #expect(next.deviceIdentifier == deviceIdentifier)
    }

    @Test("Damage in one software statement's store does not touch another's")
    func statementsAreIsolated() throws {
        let (scratch, _) = filledScratch()
        defer { scratch.remove() }
        let other = scratch.open(statement: "other-statement")
        other.setAccessToken(StorageSamples.token)
        try scratch.overwrite(scratch.storeFile, with: "garbage")
        _ = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(scratch.open(.INTEGRITY_CHECK_ALL, statement: "other-statement").accessToken == StorageSamples.token)
    }

    @Test(
        "A store that cannot be written is not a damaged one: under ALL a full disk or a read-only directory keeps the session and says so",
        arguments: [ENOSPC, EROFS])
    func unwritableIsNotTampered(code: Int32) throws {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let problems = NSLockedValue<[StorageProblem]>([])
        var system = StorageSystem.posix
        system.writeTemporary = { (_, url) throws(StorageIOError) in
            throw StorageIOError(operation: "write", path: url.path, code: code)
        }
        let checked = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_ALL,
            system: system,
            onProblem: { problem in problems.withLock { $0.append(problem) } }, now: { StorageScratch.start })
        #expect(StorageSamples.isFilled(checked), "the session is there")
        #expect(checked.deviceIdentifier == deviceIdentifier)
        let problem = try #require(problems.withLock { $0 }.first)
        #expect(problem.cause == StorageProblem.Cause(errno: code), "the operability check's failure is reported")
        #expect(StorageSamples.isFilled(scratch.open(.INTEGRITY_CHECK_ALL)), "and nothing on disk was deleted")
    }
}
