import Foundation
import Testing

@testable import AccessEnabler

/// Profiles hold only for the device identifier and the DCR client they were obtained with
/// (REST API V2 FAQ, authentication 13): a new client id or a new device identifier removes
/// every stored profile, media token and preauthorization.
@Suite("Storage: a new client or device identifier drops the profiles")
struct StorageReRegistrationTests {
    private let emptyProfiles = #"{"profiles":{}}"#

    private func client(_ store: TokenStore, transport: any HTTPTransport) -> RESTClient {
        RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "statement", transport: transport, timeout: 30,
            credentials: StoredCredentialsCache(store: store),
            timeSource: ManualTimeSource(start: StorageScratch.start), userAgent: "UA")
    }

    @Test("A single 401 with application-registration renews the token and keeps the client and the sign-in")
    func applicationRegistrationAloneKeepsTheSignIn() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        let server = FakeAdobePass()
        server.answer(json: emptyProfiles)
        let rest = client(store, transport: server.transport)
        _ = try await rest.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        store.setProfile(StorageSamples.profile())
        store.setAuthorization(StorageSamples.authorization())
        #expect(store.clientCredentials?.clientID == "client-1")

        let answered = Counter()
        server.answer { _ in
            answered.increment() == 1
                ? .json(
                    401,
                    #"{"status":401,"code":"invalid_access_token_client_application","action":"application-registration"}"#
                )
                : .json(200, #"{"profiles":{}}"#)
        }
        _ = try await rest.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(store.clientCredentials?.clientID == "client-1")
        #expect(server.registrationCount == 1)
        #expect(store.profile(requestor: "REF30") != nil)
        #expect(store.authorization(requestor: "REF30", resource: "res1") != nil)
    }

    @Test("A new client drops every stored profile, on disk too, and says whose")
    func aNewClientDropsTheProfiles() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        store.setClientCredentials(StoredClientCredentials(clientID: "client-1", clientSecret: "s"))
        store.setProfile(StorageSamples.profile())
        store.setAuthorization(StorageSamples.authorization())
        store.setPreauthorizations(requestor: "REF30", StorageSamples.preauthorizations)
        store.setProfile(StorageSamples.profile("OTHER"))
        #expect(
            store.setClientCredentials(StoredClientCredentials(clientID: "client-2", clientSecret: "s")) == [
                "OTHER", "REF30",
            ])
        #expect(store.profile(requestor: "REF30") == nil && store.profile(requestor: "OTHER") == nil)
        #expect(store.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(store.preauthorizations(requestor: "REF30").isEmpty)
        #expect(try !scratch.text(of: scratch.storeFile).contains("REF30"))
        let relaunched = scratch.open()
        #expect(relaunched.profile(requestor: "REF30") == nil)
        #expect(relaunched.clientCredentials?.clientID == "client-2")
        // The same client again drops nothing.
        #expect(
            relaunched.setClientCredentials(StoredClientCredentials(clientID: "client-2", clientSecret: "t")).isEmpty)
    }

    @Test("invalid_client at the token endpoint: the new registration drops the stored profiles")
    func invalidClient() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        store.setClientCredentials(StoredClientCredentials(clientID: "stale", clientSecret: "old"))
        store.setProfile(StorageSamples.profile())
        let transport = InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            switch request.url.path {
            case "/o/client/register": return .json(201, #"{"client_id":"fresh","client_secret":"s"}"#)
            case "/o/client/token":
                return request.formFields["client_id"] == "stale"
                    ? .json(400, #"{"error":"invalid_client"}"#)
                    : .json(201, #"{"access_token":"good","expires_in":60}"#)
            default: return .json(200, #"{"profiles":{}}"#)
            }
        }
        _ = try await client(store, transport: transport).profiles(
            serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(store.clientCredentials?.clientID == "fresh")
        #expect(store.profile(requestor: "REF30") == nil)
    }

    @Test("A lost client: registering again drops the profiles the old client obtained")
    func lostCredentialsFile() async throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = scratch.open()
        StorageSamples.fill(first)
        first.setClientCredentials(nil)
        let store = scratch.open()
        #expect(store.clientCredentials == nil)
        #expect(store.profile(requestor: "REF30") != nil, "still there until a new client is registered")
        let server = FakeAdobePass()
        server.answer(json: emptyProfiles)
        _ = try await client(store, transport: server.transport).profiles(
            serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.registrationCount == 1)
        #expect(store.profile(requestor: "REF30") == nil)
    }

    @Test("The same client saved again keeps the profiles")
    func sameClientKeepsProfiles() {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let store = scratch.open()
        StorageSamples.fill(store)
        store.setClientCredentials(StorageSamples.credentials)
        store.setClientCredentials(
            StoredClientCredentials(clientID: StorageSamples.credentials.clientID, clientSecret: "rotated"))
        #expect(store.profile(requestor: "REF30") == StorageSamples.profile())
        store.setClientCredentials(nil)
        #expect(
            store.profile(requestor: "REF30") == StorageSamples.profile(),
            "removing the client alone is not a new registration")
    }

    @Test("A lost identity file under INTEGRITY_CHECK_NONE: a new device identifier, no profiles, the client kept")
    func lostIdentityFile() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let first = scratch.open()
        StorageSamples.fill(first)
        try FileManager.default.removeItem(at: scratch.file(StorageLayout.identityFile))
        let store = scratch.open()
        #expect(store.deviceIdentifier != first.deviceIdentifier)
        #expect(store.profile(requestor: "REF30") == nil)
        #expect(store.authorization(requestor: "REF30", resource: "res1") == nil)
        #expect(store.clientCredentials == StorageSamples.credentials)
        #expect(store.lastError?.contains("device identifier changed") == true)
        #expect(try !scratch.text(of: scratch.storeFile).contains("REF30"))
        // The new identifier is kept from now on, with what is stored under it.
        store.setProfile(StorageSamples.profile())
        let relaunched = scratch.open()
        #expect(relaunched.deviceIdentifier == store.deviceIdentifier)
        #expect(relaunched.profile(requestor: "REF30") == StorageSamples.profile())
    }

    @Test("A configured device identifier is stored hashed and wins; changing it drops the profiles")
    func configuredDeviceIdentifier() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        func open(_ configured: String?) -> TokenStore {
            TokenStore(
                directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
                configuredDeviceIdentifier: configured, now: { StorageScratch.start })
        }
        let drawn = open(nil)
        StorageSamples.fill(drawn)

        let configured = open("ba23d141-d715-561c-94f4-e9e4c966b1eb")
        #expect(configured.deviceIdentifier == DeviceIdentifier.hashed("ba23d141-d715-561c-94f4-e9e4c966b1eb"))
        #expect(configured.profile(requestor: "REF30") == nil, "profiles of the previous identifier are gone")
        #expect(configured.clientCredentials == StorageSamples.credentials)
        configured.setProfile(StorageSamples.profile())

        let again = open("ba23d141-d715-561c-94f4-e9e4c966b1eb")
        #expect(again.deviceIdentifier == configured.deviceIdentifier)
        #expect(again.profile(requestor: "REF30") == StorageSamples.profile(), "the same identifier keeps them")
        let unconfigured = open(nil)
        #expect(unconfigured.deviceIdentifier == configured.deviceIdentifier, "the stored (hashed) identifier stays")
        #expect(unconfigured.profile(requestor: "REF30") == StorageSamples.profile())
        #expect(open("  ").deviceIdentifier == configured.deviceIdentifier, "a blank identifier is not one")

        let context = RequestContext(deviceIdentifier: again.deviceIdentifier, deviceInfo: RESTFixtures.deviceInfo)
        #expect(
            context.deviceIdentifierHeaderValue == "fingerprint "
                + Data(DeviceIdentifier.hashed("ba23d141-d715-561c-94f4-e9e4c966b1eb").utf8).base64EncodedString())
    }
}
