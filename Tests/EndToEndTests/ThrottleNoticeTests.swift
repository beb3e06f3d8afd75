import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// A throttled call tells itself: the legacy id stays what Adobe's throttling page prescribes
/// (Z100, P100, CFG429), the advanced status's `details` says `throttled` with the seconds to
/// wait (and `retryAfter` holds them), and the async API throws a distinct
/// ``AccessEnablerThrottledError`` carrying the seconds.
@Suite struct ThrottleNoticeTests {
    /// Adobe's throttling for this device from now on: every request answered 429 with
    /// `Retry-After: 7`.
    static let throttle = SandboxThrottle(requestsPerSecond: 0.001, burst: 0, retryAfter: 7)
    static let noticed = "throttled; retry after 7 s"

    /// Turns the throttle on and spends the one request its bucket admits (an authorization).
    private func throttle(_ rig: Rig) async throws {
        rig.sandbox.setThrottle(Self.throttle)
        #expect(try await rig.run(.checkAuthorization("sports")).last == "setToken(sports)")
    }

    @Test(arguments: bothWires)
    func aThrottledAuthorizationIsZ100ThatSaysItWasThrottled(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        try await throttle(rig)
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(Z100,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        #expect(rig.lines("status").first?["details"]?.stringValue == Self.noticed)
        // A denial is a Z100 too, and says nothing of throttling.
        rig.sandbox.setThrottle(nil)
        try await rig.run(.advanceClock(8))
        #expect(try await rig.run(.checkAuthorization("premium")).first == "status(Z100,error)")
        #expect(rig.lines("status").first?["details"]?.stringValue?.hasPrefix("throttled") != true)
    }

    @Test(arguments: bothWires)
    func aThrottledPreauthorizationAndSetRequestorSayItToo(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        try await throttle(rig)
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: false)) == [
                "status(P100,error)", "preauthorizedResources()",
            ])
        #expect(rig.lines("status").first?["details"]?.stringValue == Self.noticed)
        #expect(
            try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                "status(CFG429,error)", "setRequestorComplete(0)",
            ])
        #expect(rig.lines("status").first?["details"]?.stringValue == Self.noticed)
    }

    @Test(arguments: bothWires)
    func theStatusValueCarriesTheSecondsForTheCallbackAPI(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        try await throttle(rig)
        let statuses = StatusCapture()
        rig.accessEnabler.statusDelegate = statuses
        try await rig.run(.checkAuthorization("news"))
        let status = try #require(statuses.all.first)
        #expect(status.errorId == .z100)
        #expect(status.retryAfter == 7)
        #expect(status.details == Self.noticed)
        #expect(status.dictionary["retryAfter"] as? Int == 7)
    }

    @Test(arguments: bothWires)
    func theAsyncAPIThrowsADistinctThrottledErrorWithTheSeconds(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let ae = rig.accessEnabler
        try await throttle(rig)
        do {
            _ = try await ae.mediaToken(for: "news")
            Issue.record("a throttled authorization must throw")
        } catch let throttled as AccessEnablerThrottledError {
            #expect(throttled.retryAfter == 7)
            #expect(throttled.status.errorId == .z100)
            #expect(throttled.errorCode == USER_NOT_AUTHORIZED_ERROR)
        }
        // The next call waits the 7 s out (on the clock the rig moves), and is throttled again.
        try await rig.run(.advanceClock(7))
        await #expect(throws: AccessEnablerThrottledError.self) {
            try await ae.preauthorizedResources(["news"], cache: false)
        }
        try await rig.run(.advanceClock(7))
        await #expect(throws: AccessEnablerThrottledError.self) {
            try await ae.preauthorize(PreauthorizeRequest.Builder().setResources(resources: ["news"]).build())
        }
        // A denial is still an AccessEnablerError.
        rig.sandbox.setThrottle(nil)
        try await rig.run(.advanceClock(7))
        await #expect(throws: AccessEnablerError.self) { try await ae.mediaToken(for: "premium") }
    }
}

/// Keeps every advanced status whole.
final class StatusCapture: EntitlementStatus, @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [AdvancedStatus] = []
    var all: [AdvancedStatus] { lock.withLock { statuses } }
    func status(_ status: AdvancedStatus) { lock.withLock { statuses.append(status) } }
}
