import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// A scratch storage directory for one test, removed by ``remove()``.
struct StorageScratch {
    let root: URL
    let statement = "eyJhbGciOiJSUzI1NiJ9.software-statement-for-tests.sig"
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    init() {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("storage-tests-\(UUID().uuidString)", isDirectory: true)
    }

    func open(_ check: IntegrityCheckType = .INTEGRITY_CHECK_NONE, statement: String? = nil, at date: Date = start)
        -> TokenStore
    {
        TokenStore(
            directory: root, softwareStatement: statement ?? self.statement, integrityCheck: check, now: { date })
    }

    var statementDirectory: URL {
        StorageLayout.statementDirectory(in: root, softwareStatement: statement)
    }

    func file(_ name: String) -> URL { statementDirectory.appendingPathComponent(name) }

    /// `store.json`: every stored value but the identity.
    var storeFile: URL { file(StorageLayout.storeFile) }

    /// `store.json`'s text with `old` replaced by `new` (which must be there), written back.
    func editStore(replacing old: String, with new: String) throws {
        let text = try self.text(of: storeFile)
        #expect(text.contains(old), "store.json holds \(old)")
        try overwrite(storeFile, with: text.replacingOccurrences(of: old, with: new))
    }

    /// The store's files, without its lock file (``StorageDirectoryLock/fileName``, present
    /// in every store directory).
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: statementDirectory.path)) ?? [])
            .filter { $0 != StorageDirectoryLock.fileName }.sorted()
    }

    func text(of url: URL) throws -> String { try String(decoding: Data(contentsOf: url), as: UTF8.self) }

    func overwrite(_ url: URL, with text: String) throws { try Data(text.utf8).write(to: url) }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// Permission bits of `url` (e.g. 0o600).
    func mode(of url: URL) -> mode_t {
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        return info.st_mode & 0o777
    }
}

/// Sample records.
enum StorageSamples {
    static let credentials = StoredClientCredentials(clientID: "client-1", clientSecret: "s3cret")
    static let token = StoredAccessToken(value: "access-token-value", expiresAt: StorageScratch.start + 86_400)

    static func profile(_ requestor: String = "REF30", mvpd: String = "MVPD1") -> StoredProfile {
        StoredProfile(
            requestor: requestor, mvpd: mvpd, type: .appleSSO,
            notBefore: StorageScratch.start - 60, notAfter: StorageScratch.start + 7 * 86_400,
            attributes: [
                "zip": StoredAttribute(value: .array([.string("10001")]), encrypted: false),
                "householdID": StoredAttribute(value: .string("base64=="), encrypted: true),
                "maxRating": StoredAttribute(
                    value: .object(["MPAA": .string("PG-13"), "VCHIP": .number(4)]), encrypted: false),
            ],
            tokenSource: "Apple", partnerProviderID: "mapping-1", serviceProviderURL: "https://sp.auth.adobe.com",
            provider: provider(mvpd))
    }

    /// A configuration fetched a minute before ``StorageScratch/start``, with two providers.
    static let configuration = StoredConfiguration(
        serviceProviders: ["https://sp.auth.adobe.com"], fetchedAt: StorageScratch.start - 60,
        providers: [provider("MVPD1"), provider("MVPD2")])

    /// What the SDK keeps of the provider `mvpd` (stored with its profiles, and remembered
    /// of the last sign-in).
    static func provider(_ mvpd: String = "MVPD1") -> StoredProvider {
        StoredProvider(
            id: mvpd, displayName: "Provider \(mvpd)", logoURL: "https://logos.example/\(mvpd).png",
            serviceProviderURL: "https://sp.auth.adobe.com",
            enablePlatformServices: true, boardingStatus: "SUPPORTED", displayInPlatformPicker: true,
            platformMappingId: "mapping-1",
            isTempPass: false, isProxy: false, requiresSVC: true)
    }

    static func authorization(_ requestor: String = "REF30", mvpd: String = "MVPD1", resource: String = "res1")
        -> StoredAuthorization
    {
        StoredAuthorization(
            requestor: requestor, mvpd: mvpd, resource: resource, serializedToken: "PHNhbWw+token-\(resource)",
            notBefore: StorageScratch.start, notAfter: StorageScratch.start + 420)
    }

    static let preauthorizations: [String: StoredPreauthorization] = [
        "res1": StoredPreauthorization(resource: "res1", authorized: true, expiresAt: StorageScratch.start + 3600),
        "res2": StoredPreauthorization(resource: "res2", authorized: false, expiresAt: StorageScratch.start + 3600),
    ]

    /// Fills `store` with one value of every kind.
    static func fill(_ store: TokenStore) {
        store.setClientCredentials(credentials)
        store.setAccessToken(token)
        store.setProfile(profile())
        store.setAuthorization(authorization())
        store.setPreauthorizations(requestor: "REF30", preauthorizations)
    }

    /// Whether `store` holds exactly what ``fill(_:)`` wrote.
    static func isFilled(_ store: TokenStore) -> Bool {
        store.clientCredentials == credentials && store.accessToken == token
            && store.profile(requestor: "REF30") == profile()
            && store.authorization(requestor: "REF30", resource: "res1") == authorization()
            && store.preauthorizations(requestor: "REF30") == preauthorizations
    }

    /// Whether `store` holds nothing but its device identifier.
    static func isEmpty(_ store: TokenStore) -> Bool {
        store.clientCredentials == nil && store.accessToken == nil && store.profile(requestor: "REF30") == nil
            && store.authorization(requestor: "REF30", resource: "res1") == nil
            && store.preauthorizations(requestor: "REF30").isEmpty
    }
}
