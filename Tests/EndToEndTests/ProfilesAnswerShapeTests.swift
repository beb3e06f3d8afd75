import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A `200` answer to `GET profiles` without its required `profiles` member (`{}`, or
/// `profiles` null) says nothing about the device's sign-ins: it is malformed, and the
/// stored sign-in stays. An empty `profiles` map is an answer: no sign-in is left.
@Suite struct ProfilesAnswerShapeTests {
    @Test(arguments: bothWires, ["{}", #"{"profiles": null}"#, #"{"other": {}}"#])
    func aProfilesAnswerWithoutProfilesKeepsTheStoredSignIn(wire: ScenarioRunner.Wire, body: String) async throws {
        let rewriter = AnswerRewriter()
        let rig = try await NumbersFromOutsideTests.rig(wire, rewriter)
        try await rig.logIn()
        rewriter.rewrite("/api/v2/REF30/profiles", method: "GET") { $0.withBody(body) }
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                NumbersFromOutsideTests.signInEnds
            ])
    }

    @Test(arguments: bothWires)
    func anEmptyProfilesMapEndsTheStoredSignIn(wire: ScenarioRunner.Wire) async throws {
        let rewriter = AnswerRewriter()
        let rig = try await NumbersFromOutsideTests.rig(wire, rewriter)
        try await rig.logIn()
        rewriter.rewrite("/api/v2/REF30/profiles", method: "GET") { $0.withBody(#"{"profiles": {}}"#) }
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }
}
