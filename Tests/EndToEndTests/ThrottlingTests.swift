import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Adobe Pass's throttling (1 request per second per device after a burst of 10; 429 with
/// an HTML body): each call reports it as Adobe's throttling page says, the next request
/// waits at least a second on the configuration's clock, and the SDK's own flows stay
/// inside the limit.
@Suite struct ThrottlingTests {
    /// Records the configuration clock's time at which each request leaves.
    final class SendTimes: HTTPTransport, @unchecked Sendable {
        let inner: any HTTPTransport
        let clock: any TimeSource
        private let lock = NSLock()
        private var stamps: [(path: String, at: Date)] = []

        init(_ inner: any HTTPTransport, clock: any TimeSource) {
            self.inner = inner
            self.clock = clock
        }

        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            lock.withLock { stamps.append((request.url.path, clock.now)) }
            return try await inner.send(request, timeout: timeout)
        }

        func times(of path: String) -> [Date] { lock.withLock { stamps.filter { $0.path == path }.map(\.at) } }
        var count: Int { lock.withLock { stamps.count } }
    }

    static func rig(
        _ wire: ScenarioRunner.Wire, world: SandboxWorld = .default,
        screen: AccessEnablerConfiguration.LoginScreen = .thisDevice
    ) throws -> (Rig, SendTimes) {
        let box = NSLockedBox<SendTimes>()
        let rig = try Rig(
            wire,
            configuration: { configuration in
                let stamped = SendTimes(configuration.transport, clock: configuration.clock)
                box.value = stamped
                configuration.transport = stamped
            },
            scenario: { scenario in
                scenario.platform = .tvOS
                scenario.loginScreen = screen
                scenario.world = world
            })
        return (rig, try #require(box.value))
    }

    static let throttled = SandboxFault(status: 429, remaining: 1)
    static let profiles = "/api/v2/REF30/profiles"
    static let authorize = "/api/v2/REF30/decisions/authorize/NotBoarded"

    @Test(arguments: bothWires)
    func aThrottledSetRequestorIsCFG429AndTheNextRequestWaitsASecond(wire: ScenarioRunner.Wire) async throws {
        let (rig, times) = try Self.rig(wire)
        // setRequestor's one request (after registration) is GET profiles.
        rig.sandbox.inject(Self.throttled, into: .profiles)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(CFG429,error)", "setRequestorComplete(0)",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("429") == true)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        let sent = times.times(of: Self.profiles)
        try #require(sent.count == 2)
        #expect(sent[1].timeIntervalSince(sent[0]) >= 1, "the request after a 429 waits at least 1 s on the clock")
    }

    @Test(arguments: bothWires)
    func aThrottledAuthorizationIsZ100AndAPreauthorizationP100(wire: ScenarioRunner.Wire) async throws {
        let (rig, times) = try Self.rig(wire)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        rig.sandbox.inject(Self.throttled, into: .authorize)
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                // Z100 pairs with USER_NOT_AUTHORIZED_ERROR, throttling included.
                "status(Z100,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        let sent = times.times(of: Self.authorize)
        try #require(sent.count == 2)
        #expect(sent[1].timeIntervalSince(sent[0]) >= 1)

        rig.sandbox.inject(Self.throttled, into: .preauthorize)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: false)) == [
                "status(P100,error)", "preauthorizedResources()",
            ])
        // Metadata never needs the network: it is answered from what the SDK stored.
        rig.sandbox.setThrottle(SandboxThrottle(requestsPerSecond: 0.001, burst: 0))
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "zip", resource: nil)).first?.hasPrefix(
                "setMetadataStatus(3,true,") == true)
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func retryAfterIsHonoured(wire: ScenarioRunner.Wire) async throws {
        var world = SandboxWorld.default
        world.throttle = SandboxThrottle(requestsPerSecond: 1, burst: 2, retryAfter: 3)
        let (rig, times) = try Self.rig(wire, world: world)
        // A cold setRequestor's three requests come from three buckets (registration,
        // client, device). The sign-in's requests (configuration, session, profile) are paced
        // a few seconds apart; the device's burst of 2 then runs out within a few authorizations.
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        try await rig.run(.advanceClock(3))
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        try await rig.run(.advanceClock(3))
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        try await rig.run(.advanceClock(3))
        var answers: [String] = []
        for _ in 0..<5 { answers.append(try await rig.run(.checkAuthorization("news")).last ?? "") }
        #expect(answers.contains("tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))"))
        let sent = times.times(of: Self.authorize)
        let refusedAt = try #require(answers.firstIndex { $0.hasPrefix("tokenRequestFailed") })
        try #require(sent.count > refusedAt + 1, "\(answers)")
        #expect(
            sent[refusedAt + 1].timeIntervalSince(sent[refusedAt]) >= 3,
            "Retry-After: 3 makes the next request wait 3 s")
        #expect(rig.sandbox.throttledResponseCount == 1, "no retry storm: one 429, then the SDK waited")
    }

    @Test(arguments: bothWires)
    func aThrottledPollBacksOffAndTheSignInStillCompletes(wire: ScenarioRunner.Wire) async throws {
        let (rig, times) = try Self.rig(wire, screen: .secondScreen)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "status(REGCODE,info)")
        let code = try #require(rig.lines("status").last?["details"]?.stringValue)
        rig.sandbox.inject(Self.throttled, into: .profileForCode)
        for _ in 0..<4 { #expect(try await rig.run(.advanceClock(3)) == []) }
        let polls = times.times(of: "/api/v2/REF30/profiles/code/\(code)")
        try #require(polls.count == 2)
        #expect(
            polls[1].timeIntervalSince(polls[0]) >= 6,
            "after a 429 the next poll waits one interval and at least 1 s more")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    @Test(arguments: bothWires)
    func theSDKsOwnFlowsStayInsideAdobesLimit(wire: ScenarioRunner.Wire) async throws {
        var world = SandboxWorld.default
        world.throttle = SandboxThrottle(requestsPerSecond: 1, burst: 10)
        // A cold sign-in on the page and an authorization.
        let (rig, _) = try Self.rig(wire, world: world)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports"], cache: true)).last
                == "preauthorizedResources(news,sports)")
        #expect(rig.sandbox.throttledResponseCount == 0)

        // A second screen polled for ten minutes before the person signs in.
        let (tv, _) = try Self.rig(wire, world: world, screen: .secondScreen)
        #expect(try await tv.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await tv.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await tv.run(.setSelectedProvider("NotBoarded")).last == "status(REGCODE,info)")
        for _ in 0..<120 { _ = try await tv.run(.advanceClock(5)) }
        #expect(try await tv.run(.login(username: "alice", password: "alice123")).last == authenticated)
        #expect(try await tv.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(tv.sandbox.throttledResponseCount == 0)
    }
}

/// A value set once from a closure and read afterwards.
final class NSLockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    /// Changes the value in one locked step.
    func update(_ body: (inout Value?) -> Void) {
        lock.withLock { body(&stored) }
    }
}
