import Foundation
import Testing

@testable import AccessEnabler

/// A store written by builds before format 2 — one file per record, `store.lock` holding an
/// eight-byte change counter — loads as it is, under every integrity check, and its first
/// write moves it into `store.json`, removing the old files once the new one is durable.
@Suite("Storage: a store of format 1 loads and moves into format 2")
struct StorageFormatMigrationTests {
    static let serviceProvider = StoredServiceProviderClient(
        baseURL: "https://sp.auth-staging.adobe.com",
        credentials: StoredClientCredentials(clientID: "sp-client", clientSecret: "sp-secret"),
        accessToken: StoredAccessToken(value: "sp-token", expiresAt: StorageScratch.start + 3600))

    /// Writes, as format 1 builds did, every record of ``StorageSamples/fill(_:)`` and an
    /// extra service provider's client; returns the identity.
    @discardableResult
    static func writeFormat1Store(_ scratch: StorageScratch) throws -> StoredIdentity {
        try FileManager.default.createDirectory(at: scratch.statementDirectory, withIntermediateDirectories: true)
        let identity = StoredIdentity.generate()
        let key = StorageEnvelope.Protection.keyed(identity.integrityKeyBytes)
        func write(_ data: Data, _ name: String) throws { try data.write(to: scratch.file(name)) }
        try write(StorageEnvelope.encode(identity, kind: "identity", protection: .digest), "identity.json")
        try write(
            StorageEnvelope.encode(StorageSamples.credentials, kind: "clientCredentials", protection: key),
            "client-credentials.json")
        try write(
            StorageEnvelope.encode(StorageSamples.token, kind: "accessToken", protection: key), "access-token.json")
        var record = RequestorRecord(
            requestor: "REF30", profile: StorageSamples.profile(), rememberedProvider: StorageSamples.provider(),
            configuration: StorageSamples.configuration)
        record.authorizations = ["res1": StorageSamples.authorization()]
        record.preauthorizations = StorageSamples.preauthorizations
        try write(
            StorageEnvelope.encode(record, kind: "requestor", protection: key),
            "requestor-\(SHA256.hexDigest(Array("REF30".utf8))).json")
        try write(
            StorageEnvelope.encode(serviceProvider, kind: "serviceProviderClient", protection: key),
            "service-provider-\(SHA256.hexDigest(Array(serviceProvider.baseURL.utf8))).json")
        // Format 1's lock file: an eight-byte change counter.
        try write(Data([7, 0, 0, 0, 0, 0, 0, 0]), "store.lock")
        return identity
    }

    static let format1Names = [
        "access-token.json", "client-credentials.json", "identity.json",
        "requestor-\(SHA256.hexDigest(Array("REF30".utf8))).json",
        "service-provider-\(SHA256.hexDigest(Array("https://sp.auth-staging.adobe.com".utf8))).json",
    ].sorted()

    @Test("A format 1 file is what format 1 builds wrote, byte for byte")
    func theFormat1Envelope() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        try Self.writeFormat1Store(scratch)
        let text = try scratch.text(of: scratch.file("access-token.json"))
        #expect(text.hasPrefix(#"{"formatVersion":1,"kind":"accessToken","payload":{"expiresAt":"#))
        #expect(text.range(of: #","integrity":"[0-9a-f]{64}"\}$"#, options: .regularExpression) != nil)
    }

    @Test(
        "It loads as it is under every check, and opening it changes nothing on disk",
        arguments: [IntegrityCheckType.INTEGRITY_CHECK_NONE, .INTEGRITY_CHECK_ALL])
    func itLoads(check: IntegrityCheckType) throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let identity = try Self.writeFormat1Store(scratch)
        let store = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: check, writeBehind: true,
            now: { StorageScratch.start })
        #expect(StorageSamples.isFilled(store))
        #expect(store.profiles(requestor: "REF30").remembered == StorageSamples.provider())
        #expect(store.configuration(requestor: "REF30") == StorageSamples.configuration)
        #expect(store.serviceProviderClient(baseURL: Self.serviceProvider.baseURL) == Self.serviceProvider)
        #expect(store.deviceIdentifier == identity.deviceIdentifier)
        #expect(store.lastError == nil, "\(store.lastError ?? "")")
        store.flush()
        #expect(scratch.fileNames() == Self.format1Names, "nothing moved before the first write")
    }

    @Test("Its first write moves everything into store.json and removes the old files; the identity stays")
    func itMoves() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let identity = try Self.writeFormat1Store(scratch)
        let store = TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_ALL,
            writeBehind: true,
            now: { StorageScratch.start })
        let renewed = StoredAccessToken(value: "renewed", expiresAt: StorageScratch.start + 7200)
        store.setAccessToken(renewed)
        store.flush()
        #expect(scratch.fileNames() == [StorageLayout.identityFile, StorageLayout.storeFile])

        let relaunched = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(relaunched.lastError == nil, "\(relaunched.lastError ?? "")")
        #expect(relaunched.deviceIdentifier == identity.deviceIdentifier)
        #expect(relaunched.accessToken == renewed)
        #expect(relaunched.clientCredentials == StorageSamples.credentials)
        #expect(relaunched.profile(requestor: "REF30") == StorageSamples.profile())
        #expect(
            relaunched.profile(requestor: "REF30")?.provider == StorageSamples.provider(),
            "the provider stored with the profile moves too")
        #expect(
            relaunched.profiles(requestor: "REF30").remembered == StorageSamples.provider(),
            "and the provider of the last sign-in")
        #expect(
            relaunched.configuration(requestor: "REF30") == StorageSamples.configuration,
            "and the configuration kept for its minutes")
        #expect(relaunched.authorization(requestor: "REF30", resource: "res1") == StorageSamples.authorization())
        #expect(relaunched.preauthorizations(requestor: "REF30") == StorageSamples.preauthorizations)
        #expect(relaunched.serviceProviderClient(baseURL: Self.serviceProvider.baseURL) == Self.serviceProvider)
    }

    @Test(
        "A format 1 file changed outside the SDK clears the store under ALL, and the old files go with the next write")
    func aTamperedFormat1File() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let identity = try Self.writeFormat1Store(scratch)
        let url = scratch.file("access-token.json")
        try scratch.overwrite(
            url,
            with: try scratch.text(of: url).replacingOccurrences(of: "access-token-value", with: "forged-token-value"))
        let checked = scratch.open(.INTEGRITY_CHECK_ALL)
        #expect(StorageSamples.isEmpty(checked))
        #expect(checked.deviceIdentifier == identity.deviceIdentifier)
        #expect(checked.lastError?.contains("access-token.json: integrity check failed") == true)
        #expect(scratch.fileNames() == [StorageLayout.identityFile, StorageLayout.storeFile])
        #expect(StorageSamples.isEmpty(scratch.open(.INTEGRITY_CHECK_NONE)))
    }
}
