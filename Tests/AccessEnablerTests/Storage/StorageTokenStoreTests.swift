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
    func clearingCredentials() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        StorageSamples.fill(store)
        store.setAccessToken(nil)
        store.setClientCredentials(nil)
        #expect(store.accessToken == nil && store.clientCredentials == nil)
        #expect(!scratch.fileNames().contains(StorageLayout.accessTokenFile))
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
        #expect(names.count == 4)
        for name in names {
            #expect(scratch.mode(of: scratch.file(name)) == 0o600, "\(name)")
        }
    }

    @Test("Files use the versioned envelope and no temporary file is left behind")
    func envelopeAndNoTemporaryFiles() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        for index in 0..<20 {
            store.setAuthorization(StorageSamples.authorization(resource: "res\(index)"))
        }
        store.setAccessToken(StorageSamples.token)
        #expect(scratch.fileNames().allSatisfy { !$0.hasPrefix(".") && !$0.hasSuffix(".tmp") })
        let text = try scratch.text(of: scratch.file(StorageLayout.accessTokenFile))
        #expect(text.hasPrefix(#"{"formatVersion":1,"kind":"accessToken","payload":{"#))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect((object?["integrity"] as? String)?.count == 64)
    }

    @Test("A temporary file whose writer is gone is removed at launch; one whose writer lives stays")
    func leftoverTemporaryFile() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        StorageSamples.fill(scratch.open())
        // No process has this id (above any pid_max): its writer is gone.
        let orphan = scratch.file(StorageLayout.temporaryFileName(for: StorageLayout.accessTokenFile, writer: Int32.max, token: "0123456789ab"))
        try scratch.overwrite(orphan, with: "{\"formatVers")
        // This process is alive: a write it has in progress (another store's) stays.
        let inProgress = scratch.file(StorageLayout.temporaryFileName(for: StorageLayout.clientCredentialsFile, writer: getpid(), token: "ba9876543210"))
        try scratch.overwrite(inProgress, with: "{\"formatVers")
        // An older build's name says no writer: removed only once no write can still be under way.
        let unnamedRecent = scratch.file(".access-token.json.00112233aabb.tmp")
        let unnamedOld = scratch.file(".access-token.json.ffeeddccbbaa.tmp")
        try scratch.overwrite(unnamedRecent, with: "{")
        try scratch.overwrite(unnamedOld, with: "{")
        var old = [timeval(tv_sec: time(nil) - 3600, tv_usec: 0), timeval(tv_sec: time(nil) - 3600, tv_usec: 0)]
        #expect(utimes(unnamedOld.path, &old) == 0)
        let relaunched = scratch.open()
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(FileManager.default.fileExists(atPath: inProgress.path))
        #expect(FileManager.default.fileExists(atPath: unnamedRecent.path))
        #expect(!FileManager.default.fileExists(atPath: unnamedOld.path))
        #expect(StorageSamples.isFilled(relaunched))
    }

    @Test("A temporary file's name carries its writer")
    func temporaryFileNames() {
        let name = StorageLayout.temporaryFileName(for: "requestor-ab.json", writer: 4242, token: "00ff00ff00ff")
        #expect(name == ".requestor-ab.json.4242.00ff00ff00ff.tmp")
        #expect(StorageLayout.isTemporaryFile(name))
        #expect(StorageLayout.temporaryFileWriter(name) == 4242)
        #expect(StorageLayout.temporaryFileWriter(".requestor-ab.json.00ff00ff00ff.tmp") == nil)
        #expect(StorageLayout.temporaryFileWriter("requestor-ab.json") == nil)
    }

    @Test("Removing a profile removes the requestor's media tokens and preauthorizations, on disk too")
    func removeProfileCascades() {
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
        #expect(!FileManager.default.fileExists(atPath: scratch.requestorFile("REF30").path))
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
    func authorizationsAndPreauthorizations() {
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
        #expect(scratch.fileNames() == [StorageLayout.identityFile])

        store.setPreauthorizations(requestor: "REF30", StorageSamples.preauthorizations)
        store.setPreauthorizations(requestor: "REF30", ["res3": StoredPreauthorization(resource: "res3", authorized: true, expiresAt: StorageScratch.start + 60)])
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
    func clearAll() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        StorageSamples.fill(store)
        store.clearAll()
        #expect(StorageSamples.isEmpty(store))
        #expect(scratch.fileNames() == [StorageLayout.identityFile])
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
                    store.setAccessToken(StoredAccessToken(value: "token-\(task)", expiresAt: StorageScratch.start + 60))
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
        #expect(store.lastError?.contains("could not save access-token.json") == true)
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
