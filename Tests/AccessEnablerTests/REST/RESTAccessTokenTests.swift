import Foundation
import Testing

@testable import AccessEnabler

/// DCR registration and access token life cycle: one registration for good, token reuse
/// until expiry, one shared renewal under concurrency, renewal and retry after a 401.
@Suite("REST V2 access token")
struct RESTAccessTokenTests {
    private let emptyProfiles = #"{"profiles":{}}"#

    @Test func registersOnceAcrossCallsAndClientsOverTheSameCache() async throws {
        let server = FakeAdobePass()
        server.answer(json: emptyProfiles)
        let cache = InMemoryClientCredentialsCache()
        let clock = ManualTimeSource()
        let first = RESTFixtures.client(server, cache: cache, clock: clock)
        for _ in 0..<5 {
            _ = try await first.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(server.registrationCount == 1)
        #expect(server.tokenCount == 1)
        #expect(cache.loadClientCredentials()?.clientID == "client-1")
        #expect(cache.loadClientCredentials()?.clientSecret == "secret-1")
        #expect(cache.loadClientCredentials()?.clientIDIssuedAt == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(cache.loadAccessToken()?.value == "token-1")

        // A relaunch: a new client over the same cache reuses credentials and the token.
        let second = RESTFixtures.client(server, cache: cache, clock: clock)
        _ = try await second.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.registrationCount == 1)
        #expect(server.tokenCount == 1)

        // After the token expires, the new client renews it with the stored credentials.
        clock.advance(by: 3600)
        _ = try await second.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.registrationCount == 1)
        #expect(server.tokenCount == 2)
        let lastTokenRequest = try #require(server.requests.last { $0.url.path == "/o/client/token" })
        #expect(lastTokenRequest.formFields["client_id"] == "client-1")
    }

    @Test func tokenIsReusedUntilExpiryThenRenewedOnce() async throws {
        let server = FakeAdobePass(tokenLifetime: 3600)
        server.answer(json: emptyProfiles)
        let clock = ManualTimeSource()
        let cache = InMemoryClientCredentialsCache()
        let client = RESTFixtures.client(server, cache: cache, clock: clock)

        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(cache.loadAccessToken()?.expiresAt == clock.now.addingTimeInterval(3600))
        clock.advance(by: 3000)
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.tokenCount == 1)
        #expect(server.apiRequests.last?.header("Authorization") == "Bearer token-1")

        // Within the expiry skew the token counts as stale.
        clock.advance(by: 600 - AccessTokenProvider.expirySkew + 1)
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.tokenCount == 2)
        #expect(server.apiRequests.last?.header("Authorization") == "Bearer token-2")
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.tokenCount == 2)
        #expect(server.registrationCount == 1)
    }

    @Test func twentyConcurrentCallersShareOneRenewal() async throws {
        let server = FakeAdobePass(tokenLifetime: 3600, tokenDelay: .milliseconds(50))
        server.answer(json: emptyProfiles)
        let clock = ManualTimeSource()
        let client = RESTFixtures.client(server, clock: clock)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
            }
            try await group.waitForAll()
        }
        #expect(server.registrationCount == 1)
        #expect(server.tokenCount == 1)

        clock.advance(by: 7200)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await client.tokenProvider.token() }
            }
            var collected: Set<String> = []
            for try await token in group { collected.insert(token) }
            return collected
        }
        #expect(tokens == ["token-2"])
        #expect(server.tokenCount == 2)
        #expect(server.registrationCount == 1)
    }

    /// The renewal runs in the first caller's task. When that caller is cancelled, a caller
    /// that was waiting for the same renewal, and is not cancelled itself, renews in turn:
    /// it gets a token, not a cancellation that was not its own.
    @Test func aWaitingCallerRenewsWhenTheRenewingCallerIsCancelled() async throws {
        // The first token request is held until it is cancelled; the next one answers at once.
        let server = FakeAdobePass(tokenLifetime: 3600, tokenDelay: .seconds(3600), delayedTokenRequests: 1)
        let client = RESTFixtures.client(server)
        let renewing = Task { try await client.tokenProvider.token() }
        // The first caller's token request is at the server, and the second caller waits
        // for that renewal: each step is awaited, however slow the machine.
        let bound = ContinuousClock.now + .seconds(60)
        while !server.requests.contains(where: { $0.url.path == "/o/client/token" }), ContinuousClock.now < bound {
            try await Task.sleep(for: .milliseconds(5))
        }
        let waiting = Task { try await client.tokenProvider.token() }
        while await client.tokenProvider.waitingCallers == 0, ContinuousClock.now < bound {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(await client.tokenProvider.waitingCallers == 1, "the second caller waits for the renewal")
        renewing.cancel()

        await #expect(throws: RESTClientError.self) { _ = try await renewing.value }
        let token = try await waiting.value
        // The cancelled caller's request ended without a token; the waiting one asked again.
        #expect(token == "token-1")
        #expect(server.requests.filter { $0.url.path == "/o/client/token" }.count == 2)
        #expect(server.registrationCount == 1)
    }

    @Test func unauthorizedRenewsOnceAndRetriesOnce() async throws {
        let server = FakeAdobePass()
        server.answer(json: emptyProfiles)
        let client = RESTFixtures.client(server)
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())

        // The server forgets the token before it expires locally.
        server.revokeTokens()
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())

        let authorizations = server.apiRequests.map { $0.header("Authorization") }
        #expect(authorizations == ["Bearer token-1", "Bearer token-1", "Bearer token-2"])
        #expect(server.tokenCount == 2)
        #expect(server.registrationCount == 1)
    }

    @Test func concurrentUnauthorizedCallersShareOneRenewal() async throws {
        let server = FakeAdobePass(tokenDelay: .milliseconds(20))
        server.answer(json: emptyProfiles)
        let client = RESTFixtures.client(server)
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        server.revokeTokens()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask { _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
            }
            try await group.waitForAll()
        }
        #expect(server.tokenCount == 2)
        #expect(server.registrationCount == 1)
        #expect(server.apiRequests.filter { $0.header("Authorization") == "Bearer token-2" }.count == 10)
    }

    @Test func secondUnauthorizedIsReturnedWithoutLooping() async throws {
        let server = FakeAdobePass()
        server.answer(
            status: 401,
            json: #"{"status":401,"code":"invalid_access_token_service_provider","action":"configuration"}"#)
        let client = RESTFixtures.client(server)
        do {
            _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
            Issue.record("expected a failure")
        } catch {
            #expect(error.httpStatus == 401)
            #expect(error.operation == .profiles)
            #expect(error.enhancedError?.code == "invalid_access_token_service_provider")
        }
        #expect(server.apiRequests.count == 2)
        #expect(server.tokenCount == 2)
    }

    /// One `401` never registers the application again, whatever its action says: the token
    /// is renewed once (the token endpoint knows the client), and the client stays.
    @Test func aSingleUnauthorizedWithApplicationRegistrationOnlyRenewsTheToken() async throws {
        let server = FakeAdobePass()
        let answered = Counter()
        server.answer { _ in
            answered.increment() == 1
                ? .json(
                    401,
                    #"{"status":401,"code":"invalid_access_token_client_application","action":"application-registration"}"#
                )
                : .json(200, #"{"profiles":{}}"#)
        }
        let client = RESTFixtures.client(server)
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.registrationCount == 1)
        #expect(server.tokenCount == 2)
        #expect(server.apiRequests.last?.header("Authorization") == "Bearer token-2")
    }

    @Test func invalidClientAtTokenEndpointRegistersAgainOnce() async throws {
        let registrations = Counter()
        let transport = InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            switch request.url.path {
            case "/o/client/register":
                let number = registrations.increment()
                return .json(201, #"{"client_id":"fresh-\#(number)","client_secret":"s"}"#)
            case "/o/client/token":
                if request.formFields["client_id"] == "stale" {
                    return .json(400, #"{"error":"invalid_client"}"#)
                }
                return .json(201, #"{"access_token":"good","expires_in":60}"#)
            default:
                return .json(200, #"{"profiles":{}}"#)
            }
        }
        let cache = InMemoryClientCredentialsCache(
            credentials: DCRClientCredentials(clientID: "stale", clientSecret: "old"))
        let client = RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "s", transport: transport, timeout: 30,
            credentials: cache, timeSource: ManualTimeSource(), userAgent: "UA")
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(registrations.value == 1)
        #expect(cache.loadClientCredentials()?.clientID == "fresh-1")
    }

    @Test func failedRenewalIsReportedAndTheNextCallTriesAgain() async throws {
        let failNext = Counter()
        let server = FakeAdobePass()
        server.answer(json: emptyProfiles)
        let transport = InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            if request.url.path == "/o/client/token", failNext.increment() == 1 {
                throw .connectionLost("reset by peer")
            }
            return try await server.transport.send(request, timeout: 60)
        }
        let client = RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "s", transport: transport, timeout: 30,
            credentials: InMemoryClientCredentialsCache(), timeSource: ManualTimeSource(), userAgent: "UA")
        do {
            _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
            Issue.record("expected a failure")
        } catch {
            #expect(error == .transport(operation: .dcrToken, .connectionLost("reset by peer")))
        }
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(server.registrationCount == 1)
    }
}

/// A thread-safe counter for test servers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}
