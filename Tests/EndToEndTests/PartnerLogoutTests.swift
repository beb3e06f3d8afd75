import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// The cookbook's logout section: the SDK cannot sign the user out at system level, so an
/// `appleSSO` logout ends with VSA203, and the next launch signs the user in again until
/// they sign out in the system's TV Provider settings.
@Suite struct PartnerLogoutTests {
    static let platforms: [AccessEnablerConfiguration.Platform] = [.tvOS, .iOS]

    private func signedInRig(_ wire: ScenarioRunner.Wire, platform: AccessEnablerConfiguration.Platform) async throws
        -> Rig
    {
        let rig = try Partner.rig(wire, platform: platform)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls + Partner.exchangeCalls)
        return rig
    }

    @Test(arguments: bothWires)
    func logoutOfAnAppleSSOProfileEndsWithVSA203(wire: ScenarioRunner.Wire) async throws {
        for platform in Self.platforms {
            let rig = try await signedInRig(wire, platform: platform)
            #expect(
                try await rig.run(.logout) == ["status(VSA203,info)", Partner.notAuthenticated],
                "\(platform): partner_logout has no page to open, on iOS too")
            #expect(rig.restCalls == ["GET /api/v2/REF30/logout/AppleBoarded"])
            let message = rig.lastLines.first { $0.callback == "status" }?["message"]?.stringValue ?? ""
            #expect(
                message.contains(platform == .tvOS ? "Settings -> Accounts -> TV Provider" : "Settings -> TV Provider"))
            #expect(
                try await rig.run(.checkAuthentication) == [
                    "status(N000,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
                ])
            #expect(rig.restCalls.isEmpty, "the profile is gone locally")
            #expect(try await rig.run(Partner.tokenSource) == ["setMetadataStatus(3,false,null)"])
        }
    }

    @Test(arguments: bothWires)
    func theNextLaunchSignsInAgainWhileTheSystemSignInRemains(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire, platform: .tvOS)
        try await rig.run(.logout)
        try await rig.run(.restart)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        // The configuration the partner framework needs is the one the first launch fetched,
        // kept in storage for its 3 minutes.
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"] + Partner.exchangeCalls)
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
    }

    @Test(arguments: bothWires)
    func signingOutAtSystemLevelKeepsTheUserSignedOut(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire, platform: .tvOS)
        try await rig.run(.logout)
        try await rig.run(Partner.signIn(nil))
        try await rig.run(.restart)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"], "the stored configuration is reused")
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func withdrawingThePermissionKeepsTheUserSignedOut(wire: ScenarioRunner.Wire) async throws {
        let rig = try await signedInRig(wire, platform: .tvOS)
        try await rig.run(.logout)
        try await rig.run(Partner.access("denied"))
        try await rig.run(.restart)
        #expect(try await rig.run(Partner.setRequestor) == ["status(VSA403,info)", "setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"], "the stored configuration is reused")
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(VSA403,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
            ])
    }

    @Test(arguments: bothWires)
    func aRegularProfileOnIOSStillOpensTheLogoutPage(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil, platform: .iOS) { $0.device.picker = [.other] }
        try await rig.run(Partner.setRequestor)
        try await rig.run(Partner.getAuthentication)
        try await rig.run(.setSelectedProvider("NotBoarded"))
        try await rig.run(.login(username: "alice", password: "alice123"))
        #expect(
            try await rig.run(.logout) == ["navigateToUrl(logout)", Partner.notAuthenticated],
            "no VSA203 for a regular profile")
    }
}
