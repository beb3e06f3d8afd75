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

    /// The requestor file with the MVPD changed, its integrity code left as it was.
    private func tamperProfile(_ scratch: StorageScratch) throws {
        let url = scratch.requestorFile("REF30")
        let text = try scratch.text(of: url)
        #expect(text.contains(#""mvpd":"MVPD1""#))
        try scratch.overwrite(url, with: text.replacingOccurrences(of: #""mvpd":"MVPD1""#, with: #""mvpd":"EVIL""#))
    }

    @Test("CLEAR starts empty every launch and deletes the files, keeping the device identifier")
    func clearStartsEmpty() {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let cleared = scratch.open(.INTEGRITY_CHECK_CLEAR)
        #expect(StorageSamples.isEmpty(cleared))
        #expect(cleared.lastError == nil)
        #expect(cleared.deviceIdentifier == deviceIdentifier)
        #expect(scratch.fileNames() == [StorageLayout.identityFile])

        StorageSamples.fill(cleared)
        #expect(StorageSamples.isFilled(cleared))
        #expect(StorageSamples.isEmpty(scratch.open(.INTEGRITY_CHECK_CLEAR)))
    }

    @Test("ALL accepts an intact store")
    func allAcceptsIntactStore() {
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isFilled(checked))
        #expect(checked.lastError == nil)
        #expect(checked.deviceIdentifier == deviceIdentifier)
        #expect(!scratch.fileNames().contains(StorageLayout.probeFile(writer: getpid())))
    }

    @Test("ALL accepts a file whose values are intact but whose whitespace changed")
    func allAcceptsReformattedFile() throws {
        let (scratch, _) = filledScratch()
        defer { scratch.remove() }
        let url = scratch.file(StorageLayout.accessTokenFile)
        let text = try scratch.text(of: url)
        try scratch.overwrite(url, with: text.replacingOccurrences(of: ",", with: ",\n  ") + "\n")
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isFilled(checked))
        #expect(checked.lastError == nil)
    }

    /// Each way of damaging the requestor file, with the words lastError must contain.
    static let damages: [(name: String, expected: String, damage: @Sendable (String) -> String)] = [
        ("corrupt JSON", "not a JSON object", { _ in "{ this is not json ]" }),
        ("truncated", "not a JSON object", { String($0.prefix($0.count / 2)) }),
        ("empty", "not a JSON object", { _ in "" }),
        (
            "wrong format version", "unsupported format version 2",
            { $0.replacingOccurrences(of: #""formatVersion":1"#, with: #""formatVersion":2"#) }
        ),
        (
            "wrong kind", "holds accessToken instead of requestor",
            { $0.replacingOccurrences(of: #""kind":"requestor""#, with: #""kind":"accessToken""#) }
        ),
        (
            "payload of the wrong shape", "payload is not a valid record",
            { $0.replacingOccurrences(of: #""requestor":"REF30""#, with: #""requestor":42"#) }
        ),
    ]

    @Test(
        "ALL clears everything but the device identifier when a file is damaged",
        arguments: damages.indices)
    func allClearsOnDamage(index: Int) throws {
        let damage = Self.damages[index]
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let url = scratch.requestorFile("REF30")
        try scratch.overwrite(url, with: damage.damage(try scratch.text(of: url)))

        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(checked), "\(damage.name)")
        #expect(checked.deviceIdentifier == deviceIdentifier)
        let error = checked.lastError ?? ""
        #expect(error.contains("storage integrity check failed"), "\(damage.name): \(error)")
        #expect(error.contains(url.lastPathComponent), "\(damage.name): \(error)")
        #expect(error.contains(damage.expected), "\(damage.name): \(error)")
        #expect(scratch.fileNames() == [StorageLayout.identityFile])
        #expect(StorageSamples.isEmpty(scratch.open(.INTEGRITY_CHECK_NONE)))
    }

    @Test("NONE discards only the damaged file and keeps the rest", arguments: damages.indices)
    func noneDiscardsDamagedFile(index: Int) throws {
        let damage = Self.damages[index]
        let (scratch, deviceIdentifier) = filledScratch()
        defer { scratch.remove() }
        let url = scratch.requestorFile("REF30")
        try scratch.overwrite(url, with: damage.damage(try scratch.text(of: url)))

        let store = scratch.open(.INTEGRITY_CHECK_NONE)
        #expect(store.profile(requestor: "REF30") == nil, "\(damage.name)")
        #expect(store.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(store.clientCredentials == StorageSamples.credentials)
        #expect(store.accessToken == StorageSamples.token)
        #expect(store.deviceIdentifier == deviceIdentifier)
        let error = store.lastError ?? ""
        #expect(error.contains("discarded corrupt storage file \(url.lastPathComponent)"), "\(damage.name): \(error)")
        #expect(error.contains(damage.expected), "\(damage.name): \(error)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
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

    @Test("ALL rejects a requestor file moved over another requestor's name")
    func allRejectsSwappedRequestorFile() throws {
        let (scratch, _) = filledScratch()
        defer { scratch.remove() }
        try FileManager.default.moveItem(at: scratch.requestorFile("REF30"), to: scratch.requestorFile("OTHER"))
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(checked.profile(requestor: "REF30") == nil)
        #expect(checked.lastError?.contains("record of another requestor") == true)
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
        try scratch.overwrite(scratch.requestorFile("REF30"), with: "garbage")
        _ = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(scratch.open(.INTEGRITY_CHECK_ALL, statement: "other-statement").accessToken == StorageSamples.token)
    }
}
