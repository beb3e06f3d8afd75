import Foundation
import Testing

@testable import AccessEnabler

@Suite("Storage: TokenStore")
struct StorageTokenStoreTests {
    @Test("Every kind of record reads back in the same store and after a relaunch")
    func roundTripAndRelaunch() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        #expect(StorageSamples.isEmpty(store))
        StorageSamples.fill(store)
        #expect(StorageSamples.isFilled(store))
        #expect(store.selectedMVPD(requestor: "REF30") == "MVPD1")
        #expect(store.lastError == nil)

        let relaunched = scratch.open()
        #expect(StorageSamples.isFilled(relaunched))
        #expect(relaunched.selectedMVPD(requestor: "REF30") == "MVPD1")
        #expect(relaunched.deviceIdentifier == store.deviceIdentifier)
        #expect(relaunched.lastError == nil)
    }

    @Test("Reads are served from memory once the store is open")
    func readsFromMemory() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        StorageSamples.fill(scratch.open())
        let relaunched = scratch.open()
        try FileManager.default.removeItem(at: scratch.root)
        #expect(StorageSamples.isFilled(relaunched))
    }

    @Test("Setting nil removes the client and the access token, also on disk")
    func clearingCredentials() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        StorageSamples.fill(store)
        store.setAccessToken(nil)
        store.setClientCredentials(nil)
        #expect(store.accessToken == nil && store.clientCredentials == nil)
        #expect(try !scratch.text(of: scratch.storeFile).contains("accessToken"))
        let relaunched = scratch.open()
        #expect(relaunched.accessToken == nil && relaunched.clientCredentials == nil)
        #expect(relaunched.profile(requestor: "REF30") == StorageSamples.profile())
    }

    @Test("The device identifier is 64 hex characters, stable across relaunches, distinct per statement")
    func deviceIdentifier() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = scratch.open().deviceIdentifier
        #expect(first.count == 64 && Hex.decode(first)?.count == 32)
        #expect(scratch.open().deviceIdentifier == first)
        #expect(scratch.open(.INTEGRITY_CHECK_ALL).deviceIdentifier == first)
        #expect(scratch.open(.INTEGRITY_CHECK_CLEAR).deviceIdentifier == first)
        #expect(scratch.open().deviceIdentifier == first)

        let other = scratch.open(statement: "another-statement")
        #expect(other.deviceIdentifier != first)
        #expect(other.statementDirectory != scratch.statementDirectory)
        #expect(other.statementDirectory.lastPathComponent == SHA256.hexDigest(Array("another-statement".utf8)))
    }

    @Test("Directories are 0700 and files 0600")
    func permissions() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        StorageSamples.fill(scratch.open())
        #expect(scratch.mode(of: scratch.root) == 0o700)
        #expect(scratch.mode(of: scratch.statementDirectory) == 0o700)
        let names = scratch.fileNames()
        #expect(names == [StorageLayout.identityFile, StorageLayout.storeFile])
        for name in names {
            #expect(scratch.mode(of: scratch.file(name)) == 0o600, "\(name)")
        }
    }

    @Test("Everything but the identity is one versioned envelope, and no temporary file is left behind")
    func envelopeAndNoTemporaryFiles() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        for index in 0..<20 {
            store.setAuthorization(StorageSamples.authorization(resource: "res\(index)"))
        }
        store.setAccessToken(StorageSamples.token)
        #expect(scratch.fileNames() == [StorageLayout.identityFile, StorageLayout.storeFile])
        let text = try scratch.text(of: scratch.storeFile)
        #expect(text.hasPrefix(#"{"formatVersion":2,"kind":"store","integrity":""#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["integrity"] as? String)?.count == 64)
        let payload = try #require(object["payload"] as? [String: Any])
        #expect(Set(payload.keys) == ["accessToken", "requestors"])
        #expect(((payload["requestors"] as? [String: Any])?["REF30"] as? [String: Any])?["authorizations"] != nil)
        let identity = try scratch.text(of: scratch.file(StorageLayout.identityFile))
        #expect(identity.hasPrefix(#"{"formatVersion":1,"kind":"identity","payload":{"#))
    }

    @Test(
        "A temporary file nobody holds is swept by the next write; one its writer holds stays, whatever its name says")
    func leftoverTemporaryFile() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        StorageSamples.fill(scratch.open())
        // A writer that died mid-write: nobody holds its file.
        let orphan = scratch.file(
            StorageLayout.temporaryFileName(for: StorageLayout.storeFile, token: "0123456789abcdef"))
        try scratch.overwrite(orphan, with: "{\"formatVers")
        // An older build's name, with a process id that does not exist: judged by its lock, not its name.
        let older = scratch.file(".access-token.json.\(Int32.max).00112233aabb.tmp")
        try scratch.overwrite(older, with: "{")
        // A write in progress (a writer in another process, or another PID namespace): it holds its file.
        let inProgress = try StorageFileSystem.writeTemporary(Data("{\"formatVers".utf8), beside: scratch.storeFile)
        defer {
            try? FileManager.default.removeItem(at: inProgress.url)
            inProgress.close()
        }

        let relaunched = scratch.open()
        #expect(StorageSamples.isFilled(relaunched))
        #expect(FileManager.default.fileExists(atPath: orphan.path), "opening a store writes nothing, sweeps nothing")
        relaunched.setAccessToken(StoredAccessToken(value: "renewed", expiresAt: StorageScratch.start + 60))
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(!FileManager.default.fileExists(atPath: older.path))
        #expect(FileManager.default.fileExists(atPath: inProgress.url.path), "its writer still holds it")

        // Once its writer lets go, the next store to write sweeps it.
        inProgress.close()
        scratch.open().setAccessToken(StorageSamples.token)
        #expect(!FileManager.default.fileExists(atPath: inProgress.url.path))
    }

    @Test("A temporary file is named after its file, hidden, with no writer in its name")
    func temporaryFileNames() {
        let name = StorageLayout.temporaryFileName(for: "store.json", token: "00ff00ff00ff00ff")
        #expect(name == ".store.json.00ff00ff00ff00ff.tmp")
        #expect(StorageLayout.isTemporaryFile(name))
        #expect(StorageLayout.isTemporaryFile(".requestor-ab.json.4242.00ff00ff00ff.tmp"), "an older build's")
        #expect(!StorageLayout.isTemporaryFile("store.json"))
    }

    @Test("Removing a profile removes the requestor's media tokens and preauthorizations, on disk too")
    func removeProfileCascades() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        StorageSamples.fill(store)
        store.setProfile(StorageSamples.profile("OTHER"))
        store.setAuthorization(StorageSamples.authorization("OTHER"))

        store.removeProfile(requestor: "REF30")
        #expect(store.profile(requestor: "REF30") == nil)
        #expect(store.selectedMVPD(requestor: "REF30") == nil)
        #expect(store.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(store.preauthorizations(requestor: "REF30").isEmpty)
        #expect(try !scratch.text(of: scratch.storeFile).contains(#""REF30""#))
        #expect(store.profile(requestor: "OTHER") != nil)

        let relaunched = scratch.open()
        #expect(relaunched.profile(requestor: "REF30") == nil)
        #expect(relaunched.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(relaunched.profile(requestor: "OTHER") == StorageSamples.profile("OTHER"))
        #expect(relaunched.authorization(requestor: "OTHER", resource: "res1") == StorageSamples.authorization("OTHER"))
        #expect(relaunched.clientCredentials == StorageSamples.credentials)
    }

    @Test("A profile for another MVPD drops what the previous MVPD granted")
    func switchingMVPD() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        StorageSamples.fill(store)
        store.setProfile(StorageSamples.profile(mvpd: "MVPD1"))  // same MVPD: kept
        #expect(store.authorization(requestor: "REF30", resource: "res1") != nil)
        store.setProfile(StorageSamples.profile(mvpd: "MVPD2"))
        #expect(store.selectedMVPD(requestor: "REF30") == "MVPD2")
        #expect(store.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(store.preauthorizations(requestor: "REF30").isEmpty)
    }

    @Test("Replacing and removing media tokens and preauthorizations")
    func authorizationsAndPreauthorizations() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        store.setAuthorization(StorageSamples.authorization(resource: "a"))
        var newer = StorageSamples.authorization(resource: "a")
        newer.serializedToken = "newer"
        store.setAuthorization(newer)
        #expect(store.authorization(requestor: "REF30", resource: "a")?.serializedToken == "newer")
        store.removeAuthorization(requestor: "REF30", resource: "a")
        #expect(store.authorization(requestor: "REF30", resource: "a") == nil)
        #expect(try !scratch.text(of: scratch.storeFile).contains("REF30"), "a record left empty is not kept")

        store.setPreauthorizations(requestor: "REF30", StorageSamples.preauthorizations)
        store.setPreauthorizations(
            requestor: "REF30",
            ["res3": StoredPreauthorization(resource: "res3", authorized: true, expiresAt: StorageScratch.start + 60)])
        #expect(Array(store.preauthorizations(requestor: "REF30").keys) == ["res3"])
    }

    @Test("Expired profiles are kept, expired media tokens and preauthorizations are dropped at launch")
    func expiryAtLaunch() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        StorageSamples.fill(scratch.open())
        let later = scratch.open(at: StorageScratch.start + 30 * 86_400)
        #expect(later.profile(requestor: "REF30") == StorageSamples.profile())
        #expect(later.profile(requestor: "REF30")?.isValid(at: StorageScratch.start + 30 * 86_400) == false)
        #expect(later.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(later.preauthorizations(requestor: "REF30").isEmpty)
    }

    @Test("Profile validity is notBefore - 300 s <= now < notAfter")
    func profileValidity() {
        let profile = StorageSamples.profile()
        #expect(!profile.isValid(at: profile.notBefore - 301))
        #expect(profile.isValid(at: profile.notBefore - 300))
        #expect(profile.isValid(at: profile.notBefore))
        #expect(profile.isValid(at: profile.notAfter - 1))
        #expect(!profile.isValid(at: profile.notAfter))
    }

    @Test("clearAll keeps only the device identifier")
    func clearAll() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        StorageSamples.fill(store)
        store.clearAll()
        #expect(StorageSamples.isEmpty(store))
        #expect(try scratch.text(of: scratch.storeFile).hasSuffix(#""payload":{}}"#))
        let relaunched = scratch.open()
        #expect(StorageSamples.isEmpty(relaunched))
        #expect(relaunched.deviceIdentifier == store.deviceIdentifier)
    }

    @Test("Many tasks reading and writing at once leave a consistent store")
    func concurrentAccess() async {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        let requestors = ["R0", "R1", "R2", "R3"]
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    let requestor = requestors[task % requestors.count]
                    store.setProfile(StorageSamples.profile(requestor))
                    store.setAuthorization(StorageSamples.authorization(requestor, resource: "res\(task)"))
                    store.setAccessToken(
                        StoredAccessToken(value: "token-\(task)", expiresAt: StorageScratch.start + 60))
                    _ = store.profile(requestor: requestor)
                    _ = store.authorization(requestor: requestor, resource: "res\(task)")
                    _ = store.lastError
                }
            }
        }
        #expect(store.lastError == nil)
        let relaunched = scratch.open()
        for task in 0..<64 {
            let requestor = requestors[task % requestors.count]
            #expect(relaunched.authorization(requestor: requestor, resource: "res\(task)") != nil)
        }
        #expect(relaunched.accessToken == store.accessToken)
        #expect(scratch.fileNames().allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test("Secrets do not appear in descriptions")
    func redactedDescriptions() {
        #expect(!"\(StorageSamples.credentials)".contains("s3cret"))
        #expect(!"\(StorageSamples.token)".contains("access-token-value"))
        #expect(!"\(StorageSamples.authorization())".contains("token-res1"))
    }

    @Test("A failed write is reported in lastError, the value stays in memory")
    func failedWrite() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        try FileManager.default.removeItem(at: scratch.statementDirectory)
        store.setAccessToken(StorageSamples.token)
        #expect(store.accessToken == StorageSamples.token)
        #expect(store.lastError?.contains("could not save store.json") == true)
        #expect(store.lastError?.contains("the access token") == true)
    }

    @Test("An unusable directory gives a working in-memory store and a lastError")
    func unusableDirectory() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        try scratch.overwrite(scratch.statementDirectory, with: "a file where the directory should be")
        let store = scratch.open()
        #expect(store.lastError?.contains("storage unavailable") == true)
        StorageSamples.fill(store)
        #expect(StorageSamples.isFilled(store))
        #expect(store.deviceIdentifier.count == 64)
    }

    @Test("The default directory is named accessenabler under the data home")
    func defaultDirectory() {
        let directory = TokenStore.defaultDirectory()
        #expect(directory.lastPathComponent == "accessenabler")
        let environment = ProcessInfo.processInfo.environment
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            #expect(directory.deletingLastPathComponent().path == URL(fileURLWithPath: dataHome).path)
        } else {
            #expect(directory.path.hasSuffix("/.local/share/accessenabler"))
        }
    }
}
