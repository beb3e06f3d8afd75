import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Authorization calls waiting at the same moment go out in as few decisions requests as
/// the resource limit allows, and each call still ends in its own callbacks, in call order.
@Suite struct CoalescedAuthorizationTests {
    static let limit = 5
    static let authorize = "POST /api/v2/REF30/decisions/authorize/NotBoarded"
    /// alice's subscription has news and sports; the others are denied by the MVPD.
    static let resources = ["news", "sports"] + (3...20).map { "channel\($0)" }

    /// A rig where alice is signed in to NotBoarded, with the resource limit set.
    static func signedIn(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try Rig(
            wire, configuration: { $0.preauthorizationBatchSize = limit },
            scenario: {
                $0.platform = .tvOS; $0.loginScreen = .thisDevice
            })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        return rig
    }

    /// One call's callbacks when the MVPD answers for its resource.
    static func answer(_ resource: String) -> [String] {
        ["news", "sports"].contains(resource)
            ? ["sendTrackingData(1,true,NotBoarded)", "setToken(\(resource))"]
            : [
                "status(Z100,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(\(resource),\(USER_NOT_AUTHORIZED_ERROR))",
            ]
    }

    @Test(arguments: bothWires)
    func twentyCallsIssuedTogetherAreAskedInAsFewRequestsAsTheLimitAllows(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.signedIn(wire)
        let signatures = await rig.callInOneBurst { ae in Self.resources.forEach(ae.checkAuthorization) }
        #expect(
            rig.restCalls.filter { $0 == Self.authorize }.count == (Self.resources.count + Self.limit - 1) / Self.limit,
            "⌈20 / 5⌉ requests")
        // Each call in call order, a denial reaching only its own call, its status just before its terminal.
        #expect(signatures == Self.resources.flatMap(Self.answer))
    }

    @Test(arguments: bothWires)
    func getAuthorizationOfASignedInUserJoinsTheBurstAndARepeatedResourceIsAskedOnce(wire: ScenarioRunner.Wire)
        async throws
    {
        let rig = try await Self.signedIn(wire)
        let calls = ["news", "channel3", "news", "sports"]
        let signatures = await rig.callInOneBurst { ae in
            ae.checkAuthorization("news")
            ae.getAuthorization("channel3")
            ae.checkAuthorization("news")
            ae.getAuthorization("sports")
        }
        #expect(rig.restCalls.filter { $0 == Self.authorize }.count == 1)
        #expect(signatures == calls.flatMap(Self.answer))
    }

    @Test(arguments: bothWires)
    func aFailureOfTheWholeRequestReachesEachCallWithItsOwnStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.signedIn(wire)
        rig.sandbox.inject(SandboxFault(status: 500), into: .authorize)
        let calls = Array(Self.resources.prefix(7))
        let events = rig.accessEnabler.events
        let signatures = await rig.callInOneBurst { ae in calls.forEach(ae.checkAuthorization) }
        #expect(rig.restCalls.filter { $0 == Self.authorize }.count == 2, "5 + 2 resources")
        #expect(
            signatures
                == calls.flatMap { resource in
                    [
                        "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
                        "tokenRequestFailed(\(resource),\(GENERIC_AUTHORIZATION_ERROR))",
                    ]
                })
        var statusResources: [String] = []
        var ended = 0
        for await event in events {
            if let resource = event.status?.resource { statusResources.append(resource) }
            if event.kind == .tokenRequestFailed { ended += 1 }
            if ended == calls.count { break }
        }
        #expect(statusResources == calls, "each status names its own call's resource")
    }

    @Test(arguments: bothWires)
    func aCallThatCannotJoinEndsTheBurstAndKeepsItsPlace(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.signedIn(wire)
        let signatures = await rig.callInOneBurst { ae in
            ae.checkAuthorization("news")
            ae.checkAuthorization("sports")
            ae.checkAuthentication()
            ae.checkAuthorization("channel3")
        }
        #expect(
            rig.restCalls.filter { $0 == Self.authorize }.count == 2,
            "the authorizations before and after the other call go apart")
        #expect(
            signatures == Self.answer("news") + Self.answer("sports")
                + ["sendTrackingData(0,true,NotBoarded)", authenticated] + Self.answer("channel3"))
    }
}
