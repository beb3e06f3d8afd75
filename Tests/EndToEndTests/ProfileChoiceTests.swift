import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// The profiles an app can see and choose (Adobe's checklist, "Multiple Profiles"; FAQ
/// authentication 11): `profiles` lists them synchronously with no request, and
/// `selectProfile(mvpd:)` makes one the profile in force; when the app does not choose, the
/// rule of the profiles reconciliation picks.
@Suite struct ProfileChoiceTests {
    /// Signed in to NotBoarded (alice: news, sports), then — a forced sign-in — to
    /// SVCProvider (bob: news only), which is then in force.
    private func twoProfiles(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        try await rig.run(.setSelectedProvider("SVCProvider"))
        #expect(try await rig.run(.login(username: "bob", password: "bob123")).last == authenticated)
        return rig
    }

    @Test(arguments: bothWires)
    func theProfilesAreListedWithoutARequestTheOneInForceFirst(wire: ScenarioRunner.Wire) async throws {
        let rig = try await twoProfiles(wire)
        let before = rig.sandbox.requestLog.count
        let profiles = rig.accessEnabler.profiles
        #expect(rig.sandbox.requestLog.count == before, "no request")
        #expect(profiles.map(\.mvpd) == ["SVCProvider", "NotBoarded"])
        #expect(profiles.map(\.isInForce) == [true, false])
        #expect(profiles.map(\.type) == [.regular, .regular])
        #expect(profiles.first?.displayName == "Secure Browser Cable")
        #expect(profiles.allSatisfy { $0.expiry > rig.sandbox.clock.now })
    }

    @Test(arguments: bothWires)
    func selectingAProfileMakesItTheOneInForceForTheCallsAfterIt(wire: ScenarioRunner.Wire) async throws {
        let rig = try await twoProfiles(wire)
        #expect(
            try await rig.run(.checkAuthorization("sports")).last
                == "tokenRequestFailed(sports,\(USER_NOT_AUTHORIZED_ERROR))")
        let chosen = LockedFlag()
        #expect(await rig.call { if $0.selectProfile(mvpd: "NotBoarded") { chosen.set() } } == [])
        #expect(chosen.isSet)
        #expect(rig.restCalls.isEmpty)
        #expect(rig.accessEnabler.profiles.map(\.mvpd) == ["NotBoarded", "SVCProvider"])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
        #expect(try await rig.run(.checkAuthorization("sports")).last == "setToken(sports)")
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/authorize/NotBoarded"])
        // The choice is stored: a relaunch keeps it (Adobe Pass still lists both).
        try await rig.run(.restart)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(rig.accessEnabler.profiles.first?.mvpd == "NotBoarded")
    }

    @Test(arguments: bothWires)
    func aProfileTheDeviceDoesNotHoldIsRefusedAndNothingChanges(wire: ScenarioRunner.Wire) async throws {
        let rig = try await twoProfiles(wire)
        #expect(rig.accessEnabler.selectProfile(mvpd: "TempPass") == false)
        #expect(rig.accessEnabler.selectProfile(mvpd: "") == false)
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(SVCProvider)"])
        // Expired profiles are not offered.
        try await rig.run(.advanceClock(86_400 + 60))
        #expect(rig.accessEnabler.profiles.isEmpty)
        #expect(rig.accessEnabler.selectProfile(mvpd: "NotBoarded") == false)
    }

    @Test(arguments: bothWires)
    func nothingIsListedBeforeSetRequestor(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        #expect(rig.accessEnabler.profiles.isEmpty)
        #expect(rig.accessEnabler.selectProfile(mvpd: "NotBoarded") == false)
    }

    @Test(arguments: bothWires)
    func aTempPassChosenOverARegularProfileSetsItAside(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("TempPass")).last == authenticated)
        #expect(rig.accessEnabler.profiles.map(\.type) == [.temporary, .regular])
        #expect(rig.accessEnabler.selectProfile(mvpd: "NotBoarded"))
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
        #expect(rig.accessEnabler.selectProfile(mvpd: "TempPass"))
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(TempPass)"])
        #expect(rig.accessEnabler.profiles.map(\.mvpd) == ["TempPass", "NotBoarded"])
    }
}
