import Foundation
import Testing

@testable import AccessEnabler

/// The request policies of ``RESTExchange`` with a scripted transport: token renewal after a
/// `401` (which starts the retries afresh), the enhanced-error `retry` action retried once
/// (not twice) after the throttle wait, the operation name on every request.
@Suite("REST middleware chain", .timeLimit(.minutes(20)))
struct RESTMiddlewareChainTests {
    private let path = MiddlewareFixtures.profilesPath
    private static let retryBody =
        #"{"status":403,"code":"network_connection_timeout","message":"Try again.","action":"retry"}"#

    @Test func aRenewedTokenStartsTheRequestsRetriesAfresh() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        let retry = HTTPResponseMessage.json(403, Self.retryBody)
        let refused = HTTPResponseMessage.json(
            401, #"{"status":401,"code":"invalid_access_token_client_application","action":"retry"}"#)
        transport.script(path, retry, refused, retry)
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let start = clock.now
        let call = Task { try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == start.addingTimeInterval(1))
        clock.advance(by: 1)
        // The 401 of the retry renews the token; the next retry waits 1 s again, not 2 s.
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == start.addingTimeInterval(2))
        clock.advance(by: 1)
        #expect(try await call.value.isEmpty)
        #expect(
            transport.api.map { $0.request.header("Authorization") }
                == ["Bearer token-1", "Bearer token-1", "Bearer token-2", "Bearer token-2"])
    }

    @Test func unauthorizedRenewsTheTokenAndRetriesOnce() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(
            path, .json(401, #"{"status":401,"code":"invalid_access_token_client_application","action":"retry"}"#))
        let client = MiddlewareFixtures.client(transport, clock: clock)
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(transport.api.map { $0.request.header("Authorization") } == ["Bearer token-1", "Bearer token-2"])
        #expect(transport.arrivals(at: "/o/client/register").count == 1)
        #expect(transport.api.allSatisfy { $0.request.headers.first?.name == "Authorization" })
        #expect(transport.api.allSatisfy { $0.request.headers.filter { $0.name == "Authorization" }.count == 1 })
        #expect(clock.pendingWaitCount == 0, "a 401 is renewed at once, not backed off")
    }

    @Test func applicationRegistrationOnA401RenewsTheTokenButKeepsTheClient() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(
            path,
            .json(
                401,
                #"{"status":401,"code":"invalid_access_token_client_application","action":"application-registration"}"#)
        )
        let client = MiddlewareFixtures.client(transport, clock: clock)
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(transport.arrivals(at: "/o/client/register").count == 1)
        #expect(
            transport.all.map(\.request.url.path) == [
                "/o/client/register", "/o/client/token", path, "/o/client/token", path,
            ])
    }

    @Test func retryActionIsRetriedAfterOneThenTwoSecondsNotThreeTimes() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        let refusal = HTTPResponseMessage.json(403, Self.retryBody)
        transport.script(path, refusal, refusal, refusal, refusal)
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let start = clock.now
        let call = failingTask { () async throws(RESTClientError) in
            _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == start.addingTimeInterval(1))
        #expect(transport.api.count == 1)
        clock.advance(by: 1)
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == start.addingTimeInterval(3), "then 2 s")
        #expect(transport.api.count == 2)
        clock.advance(by: 2)
        let error = await call.value
        guard case .server(.profiles, 403, let enhanced?)? = error else {
            Issue.record("expected the 403 after two retries, got \(String(describing: error))")
            return
        }
        #expect(enhanced.code == "network_connection_timeout")
        #expect(transport.api.count == 3, "two retries, not three")
        #expect(transport.api.last?.at == start.addingTimeInterval(3))
        #expect(clock.pendingWaitCount == 0)
    }

    @Test func retryActionThatSucceedsTheSecondTimeIsASuccess() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(
            path,
            HTTPResponseMessage(
                status: 403, headers: [("Retry-After", "4")], body: Data(Self.retryBody.utf8)))
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let start = clock.now
        let call = Task { try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == start.addingTimeInterval(4), "Retry-After lengthens the wait")
        clock.advance(by: 4)
        #expect(try await call.value.isEmpty)
        #expect(transport.api.count == 2)
    }

    @Test func aCancelledBackOffEndsAsCancelled() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(path, .json(403, Self.retryBody))
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let call = failingTask { () async throws(RESTClientError) in
            _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        await eventually { clock.earliestWaitDeadline != nil }
        call.cancel()
        #expect(await call.value == .transport(operation: .profiles, .cancelled))
        #expect(transport.api.count == 1)
    }

    @Test func everyRequestCarriesItsOperationName() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script("/api/v2/SPX/configuration", .json(200, #"{"mvpds":[]}"#))
        let client = MiddlewareFixtures.client(transport, clock: clock)
        _ = try? await client.configuration(serviceProvider: "SPX", context: RESTFixtures.context())
        _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        _ = try? await client.authorize(
            serviceProvider: "SPX", mvpd: "CableCo", resources: ["r"], context: RESTFixtures.context())
        #expect(
            transport.all.map(\.request.operationName) == [
                "dcrRegister", "dcrToken", "configuration", "profiles", "authorize",
            ])
        // A label, not wire content.
        var relabelled = transport.all[2].request
        relabelled.operationName = "other"
        #expect(relabelled == transport.all[2].request)
    }

    @Test func headersAreValidatedBeforeAnyTraffic() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        let client = MiddlewareFixtures.client(transport, clock: clock)
        var context = RESTFixtures.context()
        context.deviceInfo.osName = "Plan 9"
        let error = await restFailure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: context)
        }
        guard case .invalidDeviceInfo? = error else {
            Issue.record("expected invalidDeviceInfo, got \(String(describing: error))")
            return
        }
        #expect(transport.all.isEmpty)
    }
}
