import Foundation
import Testing

@testable import AccessEnabler

/// The throttle gate on an injected clock: after a `429` every later request to that host
/// waits at least a second (longer with `Retry-After`), waiters wake together, a new `429`
/// moves the deadline, DCR calls are held too, and a cancelled waiter ends at once.
@Suite("REST throttle gate", .timeLimit(.minutes(20)))
struct RESTThrottleGateTests {
    private let path = MiddlewareFixtures.profilesPath

    @Test func aRequestAfterAnHTMLThrottlingWaitsOneSecondOnTheClock() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(path, .throttled())
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let throttledAt = clock.now

        let error = await restFailure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(error == .throttled(operation: .profiles, retryAfter: nil))
        #expect(transport.api.count == 1, "a 429 is not retried")

        let next = Task { try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == throttledAt.addingTimeInterval(1))
        clock.advance(by: 0.5)
        await settle()
        #expect(transport.api.count == 1, "nothing is sent before the second has passed")
        clock.advance(by: 0.5)
        _ = try await next.value
        let sent = try #require(transport.api.last)
        #expect(transport.api.count == 2)
        #expect(sent.at >= throttledAt.addingTimeInterval(1))
    }

    @Test func retryAfterSecondsLengthenTheWait() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(path, .throttled([("Retry-After", "3")]))
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let throttledAt = clock.now
        let error = await restFailure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(error == .throttled(operation: .profiles, retryAfter: 3))
        #expect(error?.message.contains("in 3 s") == true)

        let next = Task { try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == throttledAt.addingTimeInterval(3))
        clock.advance(by: 2)
        await settle()
        #expect(transport.api.count == 1)
        clock.advance(by: 1)
        _ = try await next.value
        #expect(try #require(transport.api.last).at >= throttledAt.addingTimeInterval(3))
    }

    @Test func aJSONThrottlingWithAnHTTPDateIsHonouredToo() async throws {
        let clock = ManualTimeSource()  // 2026-01-01T00:00:00Z
        let transport = ScriptedTransport(clock: clock)
        transport.script(
            path,
            HTTPResponseMessage(
                status: 429,
                headers: [("Content-Type", "application/json"), ("Retry-After", "Thu, 01 Jan 2026 00:00:02 GMT")],
                body: Data(#"{"status":429,"code":"too_many_requests"}"#.utf8)))
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let error = await restFailure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(error == .throttled(operation: .profiles, retryAfter: 2))
        #expect(client.throttleGate.deadline(forHost: "pass.example.test") == clock.now.addingTimeInterval(2))
    }

    @Test func concurrentWaitersWakeTogetherAtTheDeadline() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(path, .throttled())
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let throttledAt = clock.now
        _ = await restFailure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }

        let first = Task { try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
        let second = Task {
            try await client.profile(serviceProvider: "SPX", mvpd: "CableCo", context: RESTFixtures.context())
        }
        let alarms = ClockAlarmsProbe(clock: clock)
        await eventually { alarms.count == 2 }
        #expect(alarms.count == 2, "both wait on the clock, neither polls")
        clock.advance(by: 1)
        _ = try await first.value
        _ = try await second.value
        let after = transport.api.dropFirst()
        #expect(after.count == 2)
        #expect(after.allSatisfy { $0.at == throttledAt.addingTimeInterval(1) })
    }

    @Test func aNewThrottlingMovesTheDeadlineForThoseWaiting() async throws {
        let clock = ManualTimeSource()
        let gate = ThrottleGate(clock: clock)
        let start = clock.now
        gate.recordThrottling(host: "h", retryAfter: nil, arrival: start)
        let passed = Flag()
        let waiter = Task {
            try await gate.waitForTurn(host: "h")
            passed.set()
        }
        await eventually { clock.earliestWaitDeadline != nil }
        clock.advance(by: 0.5)
        // A second 429 at +0.5 s asking for 2 s more.
        #expect(gate.recordThrottling(host: "h", retryAfter: 2, arrival: clock.now) == start.addingTimeInterval(2.5))
        // An older 429 noted late never shortens a later deadline.
        #expect(gate.recordThrottling(host: "h", retryAfter: nil, arrival: start) == start.addingTimeInterval(2.5))
        clock.advance(by: 0.5)
        await eventually { clock.earliestWaitDeadline == start.addingTimeInterval(2.5) }
        #expect(!passed.isSet, "woken at the old deadline, the waiter sleeps on")
        #expect(clock.earliestWaitDeadline == start.addingTimeInterval(2.5))
        clock.advance(by: 1.5)
        try await waiter.value
        #expect(passed.isSet)
    }

    @Test func throttlingIsKeptPerHost() async throws {
        let clock = ManualTimeSource()
        let gate = ThrottleGate(clock: clock)
        let throttled = ScriptedTransport(clock: clock)
        throttled.script(path, .throttled())
        let first = MiddlewareFixtures.client(throttled, clock: clock, gate: gate)
        _ = await restFailure { () async throws(RESTClientError) in
            try await first.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        let other = ScriptedTransport(clock: clock)
        let elsewhere = MiddlewareFixtures.client(
            other, clock: clock, gate: gate, baseURL: URL(string: "https://sp.example.test")!)
        _ = try await elsewhere.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        #expect(other.api.count == 1, "another host is not held back")
        #expect(ThrottleGate.key(for: URL(string: "http://127.0.0.1:8080/x")!) == "127.0.0.1:8080")
        #expect(ThrottleGate.key(for: URL(string: "https://API.auth.adobe.com/api/v2")!) == "api.auth.adobe.com")
    }

    @Test func clientsSharingAGateWaitForEachOther() async throws {
        let clock = ManualTimeSource()
        let gate = ThrottleGate(clock: clock)
        let transport = ScriptedTransport(clock: clock)
        transport.script(path, .throttled())
        let primary = MiddlewareFixtures.client(transport, clock: clock, gate: gate)
        let secondary = MiddlewareFixtures.client(transport, clock: clock, gate: gate)
        #expect(primary.throttleGate === secondary.throttleGate)
        _ = await restFailure { () async throws(RESTClientError) in
            try await primary.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        let registrations = transport.arrivals(at: "/o/client/register").count
        let next = Task { try await secondary.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
        await eventually { clock.earliestWaitDeadline != nil }
        await settle()
        // The other client's own DCR registration waits too: it goes to the same host.
        #expect(transport.arrivals(at: "/o/client/register").count == registrations)
        clock.advance(by: 1)
        _ = try await next.value
        #expect(transport.arrivals(at: "/o/client/register").count == registrations + 1)
    }

    @Test func dcrCallsAreThrottledToo() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script("/o/client/register", .throttled([("Retry-After", "2")]))
        let client = MiddlewareFixtures.client(transport, clock: clock)
        let throttledAt = clock.now
        let error = await restFailure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(error == .throttled(operation: .dcrRegister, retryAfter: 2))
        #expect(transport.all.count == 1)

        let next = Task { try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context()) }
        await eventually { clock.earliestWaitDeadline != nil }
        #expect(clock.earliestWaitDeadline == throttledAt.addingTimeInterval(2))
        clock.advance(by: 2)
        _ = try await next.value
        let register = try #require(transport.arrivals(at: "/o/client/register").last)
        #expect(register.at >= throttledAt.addingTimeInterval(2))
        #expect(transport.arrivals(at: "/o/client/token").count == 1)

        // The token endpoint: a 429 there is reported as the token request's.
        transport.script("/o/client/token", .throttled())
        await client.tokenProvider.invalidate()
        let tokenError = await restFailure { () async throws(RESTClientError) in
            try await client.tokenProvider.token()
        }
        #expect(tokenError == .throttled(operation: .dcrToken, retryAfter: nil))
    }

    @Test func aCancelledWaiterEndsAtOnceAsCancelled() async throws {
        let clock = ManualTimeSource()
        let transport = ScriptedTransport(clock: clock)
        transport.script(path, .throttled())
        let client = MiddlewareFixtures.client(transport, clock: clock)
        _ = await restFailure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        let waiter = failingTask { () async throws(RESTClientError) in
            _ = try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        await eventually { clock.earliestWaitDeadline != nil }
        waiter.cancel()
        #expect(await waiter.value == .transport(operation: .profiles, .cancelled))
        #expect(clock.earliestWaitDeadline == nil, "the cancelled wait left the clock")
        #expect(transport.api.count == 1)
    }

    @Test func aClockTheSleeperDoesNotMoveDoesNotHoldRequestsForever() async throws {
        // A manual clock read through a plain TimeSource: the gate waits in real time
        // (SystemSleeper) and then lets the request go even though the clock stood still.
        let manual = ManualTimeSource()
        let readOnly = ReadOnlyClock(manual)
        var policy = BackOffPolicy()
        policy.minimumWait = 0.05
        let gate = ThrottleGate(clock: readOnly, policy: policy)
        gate.recordThrottling(host: "h", retryAfter: nil, arrival: manual.now)
        try await gate.waitForTurn(host: "h")
        #expect(gate.deadline(forHost: "h") != nil, "the clock did not move past it")
    }
}

/// Counts the waits pending on a manual clock (through its earliest deadline and alarms).
private struct ClockAlarmsProbe: Sendable {
    let clock: ManualTimeSource
    var count: Int { clock.pendingWaitCount }
}

/// A clock that reads another one but is not a ``Sleeper`` itself.
private struct ReadOnlyClock: TimeSource {
    let base: ManualTimeSource
    init(_ base: ManualTimeSource) { self.base = base }
    var now: Date { base.now }
}

/// A thread-safe one-way flag.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
