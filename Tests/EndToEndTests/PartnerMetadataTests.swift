import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// The cookbook's metadata section and the overview's FAQ: `tokenSource` is "Apple" only
/// for a profile obtained through partner single sign-on.
@Suite struct PartnerMetadataTests {
    static let apple = #"setMetadataStatus(3,false,"Apple")"#
    static let none = "setMetadataStatus(3,false,null)"

    @Test(arguments: bothWires)
    func aSilentPartnerSignInIsFromApple(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(Partner.setRequestor)
        #expect(try await rig.run(Partner.tokenSource) == [Self.apple])
        #expect(rig.restCalls.isEmpty)
        let arguments = rig.lastLines.first?["arguments"]
        #expect(arguments?.compactJSON.contains("tokenSource") == true, "the caller's dictionary is echoed")
    }

    @Test(arguments: bothWires)
    func aPickerSignInIsFromApple(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil) {
            $0.device.picker = [.select(provider: "AppleBoarded", user: "bob")]
        }
        try await rig.run(Partner.setRequestor)
        #expect(try await rig.run(Partner.getAuthentication).last == Partner.authenticated)
        #expect(try await rig.run(Partner.tokenSource) == [Self.apple])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "userID", resource: nil)) == [
                #"setMetadataStatus(3,false,"u-bob")"#
            ],
            "the profile is the picker user's")
    }

    @Test(arguments: bothWires)
    func aRegularLoginIsNotFromApple(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil) { $0.device.picker = [.other] }
        try await rig.run(Partner.setRequestor)
        try await rig.run(Partner.getAuthentication)
        try await rig.run(.setSelectedProvider("AppleBoarded"))
        #expect(try await rig.run(.login(username: "alice", password: "alice123")).last == Partner.authenticated)
        #expect(try await rig.run(Partner.tokenSource) == [Self.none])
    }

    @Test(arguments: bothWires)
    func theUserIDIsTheSameThroughAppleSSOAndTheRegularLogin(wire: ScenarioRunner.Wire) async throws {
        let userID = Scenario.Step.getMetadata(opCode: "userMeta", key: "userID", resource: nil)
        let rig = try Partner.rig(wire) { $0.device.picker = [.other] }
        try await rig.run(Partner.setRequestor)
        #expect(try await rig.run(userID) == [#"setMetadataStatus(3,false,"u-alice")"#])
        try await rig.run(.logout)
        try await rig.run(Partner.signIn(nil))
        try await rig.run(Partner.getAuthentication)
        try await rig.run(.setSelectedProvider("AppleBoarded"))
        #expect(try await rig.run(.login(username: "alice", password: "alice123")).last == Partner.authenticated)
        #expect(try await rig.run(userID) == [#"setMetadataStatus(3,false,"u-alice")"#])
        #expect(try await rig.run(Partner.tokenSource) == [Self.none])
    }

    @Test(arguments: bothWires)
    func aDegradedSignInIsNotFromApple(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: "Degraded")
        try await rig.run(Partner.setRequestor)
        #expect(try await rig.run(Partner.getAuthentication).last == Partner.authenticated)
        #expect(
            try await rig.run(Partner.tokenSource) == [Self.none],
            "authenticated by the degradation mechanism, not Apple SSO")
    }

    @Test(arguments: bothWires)
    func notAuthenticatedHasNoTokenSource(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil)
        try await rig.run(Partner.setRequestor)
        #expect(try await rig.run(Partner.tokenSource) == [Self.none])
    }
}
