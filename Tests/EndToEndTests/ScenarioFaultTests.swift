import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// A scenario file's `fault` step carries the sandbox's fault whole: a member for every
/// effect of `SandboxFault`, each documented, and what the file says is what the sandbox does.
@Suite struct ScenarioFaultTests {
    /// The fault of a file's only step.
    private func fault(_ json: String) throws(ScenarioError) -> (SandboxEndpoint, SandboxFault) {
        let scenario = try ScenarioParser.parse(Data((#"{"steps": [{"fault": "# + json + "}]}").utf8))
        guard case .fault(let endpoint, let fault)? = scenario.steps.first else {
            throw ScenarioError(path: "$", reason: "no fault step")
        }
        return (endpoint, fault)
    }

    @Test func everyEffectOfTheSandboxFaultHasAMember() {
        #expect(ScenarioParser.faultMembers.compactMap(\.effect) == SandboxFault.Effect.Name.allCases)
        #expect(Set(ScenarioParser.faultMembers.map(\.key)).count == ScenarioParser.faultMembers.count)
    }

    /// A value of the member of `effect` and the effect it sets: no `default`, so a new effect
    /// is a compiler error here until the test reads it from a file.
    static func sample(_ effect: SandboxFault.Effect.Name) -> (json: String, effect: SandboxFault.Effect) {
        switch effect {
        case .latency: ("1.5", .latency(1.5))
        case .dropConnection: ("true", .dropConnection)
        case .status: ("503", .status(503))
        case .malformedBody: ("true", .malformedBody)
        case .oversizedBody: ("1000", .oversizedBody(bytes: 1_000))
        case .retryableDecisionErrors: (#"["news"]"#, .retryableDecisionErrors(resources: ["news"]))
        }
    }

    /// Each member read alone from a file sets its effect, and only it.
    @Test(arguments: SandboxFault.Effect.Name.allCases)
    func eachMemberAloneSetsItsEffect(effect: SandboxFault.Effect.Name) throws {
        let member = try #require(ScenarioParser.faultMembers.first { $0.effect == effect })
        let sample = Self.sample(effect)
        let (_, fault) = try fault(#"{"endpoint": "authorize", ""# + member.key + #"": "# + sample.json + "}")
        #expect(fault == SandboxFault([sample.effect]))
    }

    @Test func everyMemberIsDocumented() throws {
        let page = try String(
            contentsOf: DocReferenceTests.root.appendingPathComponent("Docs/scenarios/README.md"), encoding: .utf8)
        for member in ScenarioParser.faultMembers {
            #expect(
                page.contains("`\(member.key)`"),
                "Docs/scenarios/README.md does not name the fault member \(member.key)")
        }
    }

    @Test func eachMemberSetsItsEffect() throws {
        let (endpoint, fault) = try fault(
            #"{"endpoint": "authorize", "latency": 1.5, "status": 503, "malformedBody": true, "dropConnection": true, "oversizedBody": 1000, "count": 2, "retryableDecisionErrors": ["news"]}"#
        )
        #expect(endpoint == .authorize)
        #expect(
            fault
                == SandboxFault(
                    latency: 1.5, status: 503, malformedBody: true, dropConnection: true, oversizedBody: 1000,
                    remaining: 2, retryableDecisionErrors: ["news"]))
    }

    @Test func theFirstScenariosFaultsMeanWhatTheyMeant() throws {
        #expect(
            try fault(#"{"endpoint": "configuration", "status": 503}"#) == (.configuration, SandboxFault(status: 503)))
        #expect(
            try fault(#"{"endpoint": "profiles", "latency": 30, "count": 1}"#) == (
                .profiles, SandboxFault(latency: 30, remaining: 1)
            ))
        #expect(
            try fault(#"{"endpoint": "createSession", "dropConnection": true, "status": null}"#) == (
                .createSession, SandboxFault(dropConnection: true)
            ))
        #expect(
            try fault(#"{"endpoint": "authorize", "retryableDecisionErrors": []}"#) == (
                .authorize, SandboxFault(retryableDecisionErrors: [])
            ))
    }

    @Test func aValueOutOfRangeIsRefusedWithItsPath() {
        #expect(throws: ScenarioError.self) { try fault(#"{"endpoint": "configuration", "oversizedBody": -1}"#) }
        do {
            _ = try fault(#"{"endpoint": "configuration", "oversizedBody": 1e12}"#)
            Issue.record("an oversized body of 1e12 bytes was accepted")
        } catch {
            #expect(error.path == "$.steps[0].fault.oversizedBody")
        }
    }

    /// The sandbox applies an `oversizedBody` a scenario file asks for: the configuration's
    /// 6 MiB answer is over the SDK's default limit of 4 MiB, so the sign-in that needed it
    /// ends with CFG500, and the next (the fault used up) works.
    @Test(arguments: bothWires)
    func anOversizedBodyFromAFileIsApplied(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        let (endpoint, fault) = try fault(#"{"endpoint": "configuration", "oversizedBody": 6291456, "count": 1}"#)
        #expect(try await rig.run(.fault(endpoint: endpoint, fault)) == [])
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [
                "status(CFG500,error)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("larger than 4 MiB") == true)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
    }
}
