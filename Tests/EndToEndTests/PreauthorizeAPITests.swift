import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The legacy Preauthorize API (v3.6) end to end: the three result shapes of its page
/// (decisions with per-resource reasons, an Adobe Pass error as a response, an SDK
/// failure), the SDK cache and its bypass, and agreement with checkPreauthorizedResources.
@Suite struct PreauthorizeAPITests {
    static func preauthorizeLine(_ rig: Rig) -> TranscriptLine? { rig.lines("preauthorize").last }

    @Test(arguments: bothWires)
    func decisionsCarryEachDenialsReason(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(
            try await rig.run(.preauthorize(resources: ["news", "premium", "sports"], disable: [])) == ["preauthorize"])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/preauthorize/NotBoarded"])
        let line = try #require(Self.preauthorizeLine(rig))
        #expect(line["result"] == .string("response"))
        #expect(line["status"] == nil)
        guard case .array(let resources)? = line["resources"] else { Issue.record("no resources"); return }
        try #require(resources.count == 3)
        #expect(resources[0] == .object(["id": .string("news"), "authorized": .bool(true)]))
        #expect(resources[1]["id"] == .string("premium"))
        #expect(resources[1]["authorized"] == .bool(false))
        #expect(resources[1]["error"]?["code"] == .string("preauthorization_denied_by_mvpd"))

        // Repeated: the SDK's cache answers; with LOCAL_CACHE disabled Adobe Pass is asked again.
        #expect(try await rig.run(.preauthorize(resources: ["news", "sports"], disable: [])) == ["preauthorize"])
        #expect(rig.restCalls.isEmpty)
        #expect(
            try await rig.run(.preauthorize(resources: ["news", "sports"], disable: ["LOCAL_CACHE"])) == [
                "preauthorize"
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/preauthorize/NotBoarded"])
        // The legacy call projects the same answers.
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "premium", "sports"], cache: true)) == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func anAdobePassErrorIsAResponseWithItsStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        rig.sandbox.inject(SandboxFault(status: 500), into: .preauthorize)
        #expect(try await rig.run(.preauthorize(resources: ["a", "b"], disable: [])) == ["preauthorize"])
        let line = try #require(Self.preauthorizeLine(rig))
        #expect(line["result"] == .string("response"))
        #expect(line["resources"] == .array([]))
        #expect(line["status"]?["code"] == .string("internal_server_error"))
        #expect(line["status"]?["status"] == .number(500))
    }

    @Test(arguments: bothWires)
    func whatTheSDKCannotAskIsAFailure(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire) { $0.platform = .tvOS }
        #expect(try await rig.run(.preauthorize(resources: ["news"], disable: [])) == ["preauthorize"])
        #expect(Self.preauthorizeLine(rig)?["result"] == .string("failure"))
        #expect(Self.preauthorizeLine(rig)?["status"]?["code"] == .string("requestor_not_configured"))
        #expect(Self.preauthorizeLine(rig)?["status"]?["status"] == .number(0))

        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.preauthorize(resources: ["news"], disable: [])) == ["preauthorize"])
        #expect(Self.preauthorizeLine(rig)?["status"]?["code"] == .string("authentication_session_missing"))
        #expect(rig.restCalls.isEmpty)

        try await rig.logIn()
        rig.sandbox.inject(SandboxFault(dropConnection: true, remaining: 1), into: .preauthorize)
        #expect(try await rig.run(.preauthorize(resources: ["news"], disable: ["LOCAL_CACHE"])) == ["preauthorize"])
        #expect(Self.preauthorizeLine(rig)?["status"]?["code"] == .string("network_error"))
        rig.sandbox.inject(SandboxFault(malformedBody: true, remaining: 1), into: .preauthorize)
        #expect(try await rig.run(.preauthorize(resources: ["news"], disable: ["LOCAL_CACHE"])) == ["preauthorize"])
        #expect(Self.preauthorizeLine(rig)?["status"]?["code"] == .string("server_response_format_unknown"))

        #expect(try await rig.run(.advanceClock(86_401)) == [])
        #expect(try await rig.run(.preauthorize(resources: ["news"], disable: [])) == ["preauthorize"])
        #expect(Self.preauthorizeLine(rig)?["status"]?["code"] == .string("authentication_session_expired"))
    }

    @Test(arguments: bothWires)
    func theAsyncFormReturnsTheResponseOrThrowsTheFailure(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let request = PreauthorizeRequest.Builder().setResources(resources: ["news", "premium"]).build()
        let response = try await rig.accessEnabler.preauthorize(request)
        #expect(response.decisions.map(\.id) == ["news", "premium"])
        #expect(response.decisions.map(\.authorized) == [true, false])
        _ = try await rig.run(.logout)
        do {
            _ = try await rig.accessEnabler.preauthorize(request)
            Issue.record("a signed-out user cannot be preauthorized")
        } catch let error as AccessEnablerError {
            #expect(error.errorCode == "authentication_session_missing")
        }
    }

    @Test(arguments: bothWires)
    func aBatchSizeSplitsLongListsInsteadOfP100(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(
            wire, configuration: { $0.preauthorizationBatchSize = 5 }, scenario: { $0.loginScreen = .thisDevice })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news", "sports", "a", "b", "c", "d", "e"], cache: true))
                == ["preauthorizedResources(news,sports)"])
        #expect(
            rig.restCalls == [
                "POST /api/v2/REF30/decisions/preauthorize/NotBoarded",
                "POST /api/v2/REF30/decisions/preauthorize/NotBoarded",
            ])
    }
}
