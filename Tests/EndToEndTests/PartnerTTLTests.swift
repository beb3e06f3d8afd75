import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// The Apple SSO overview's TTL table: the Adobe Pass profile TTL (the integration's
/// `authenticationTTL`) against Apple's device token TTL (the system-level sign-in's expiry).
@Suite struct PartnerTTLTests {
    static let adobeShort: TimeInterval = 3_600
    static let adobeLong: TimeInterval = 7_200

    /// Signs in silently at setRequestor with the given TTLs; returns the rig and the
    /// profile's expiry as getMetadata reports it.
    private func signedIn(_ wire: ScenarioRunner.Wire, adobeTTL: TimeInterval, appleTTL: TimeInterval) async throws -> (
        Rig, Date
    ) {
        let rig = try Partner.rig(wire, expiresIn: appleTTL) { $0.device.picker = [.cancel] }
        try await rig.run(.world(mvpd: "AppleBoarded", set: ["authenticationTTL": .number(adobeTTL)]))
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == Partner.launchCalls + Partner.exchangeCalls)
        let expiry = try #require(try await Partner.profileExpiry(rig))
        #expect(
            abs(expiry.timeIntervalSince(rig.sandbox.clock.now) - adobeTTL) < 2, "the profile lasts the dashboard's TTL"
        )
        return (rig, expiry)
    }

    @Test(arguments: bothWires)
    func bothValidTheUserIsAuthenticatedForTheRestOfTheAdobeTTL(wire: ScenarioRunner.Wire) async throws {
        let (rig, expiry) = try await signedIn(wire, adobeTTL: Self.adobeShort, appleTTL: Self.adobeLong)
        try await rig.run(.advanceClock(1_800))
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        #expect(rig.restCalls.isEmpty)
        #expect(try await Partner.profileExpiry(rig) == expiry, "the remaining time of the same profile")
    }

    @Test(arguments: bothWires)
    func appleExpiredAdobeValidTheUserIsAuthenticatedForTheRestOfTheAdobeTTL(wire: ScenarioRunner.Wire) async throws {
        let (rig, expiry) = try await signedIn(wire, adobeTTL: Self.adobeLong, appleTTL: Self.adobeShort)
        try await rig.run(.advanceClock(5_400))
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        #expect(rig.restCalls.isEmpty)
        // A relaunch keeps the profile: nothing is exchanged with an expired device token.
        try await rig.run(.restart)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(rig.restCalls == ["GET /api/v2/REF30/profiles"], "an appleSSO profile in force: no configuration")
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        #expect(try await Partner.profileExpiry(rig) == expiry)
    }

    @Test(arguments: bothWires)
    func appleValidAdobeExpiredTheUserIsSilentlyAuthenticatedAgain(wire: ScenarioRunner.Wire) async throws {
        let (rig, expiry) = try await signedIn(wire, adobeTTL: Self.adobeShort, appleTTL: Self.adobeLong)
        try await rig.run(.advanceClock(5_400))
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty, "checkAuthentication never calls the network")
        try await rig.run(.restart)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"], "silently")
        #expect(
            rig.restCalls == ["GET /api/v2/REF30/profiles", "GET /api/v2/REF30/configuration"] + Partner.exchangeCalls)
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        let renewed = try #require(try await Partner.profileExpiry(rig))
        #expect(renewed > expiry)
        #expect(
            abs(renewed.timeIntervalSince(rig.sandbox.clock.now) - Self.adobeShort) < 2,
            "another profile with the dashboard's TTL")
    }

    @Test(arguments: bothWires)
    func appleValidAdobeExpiredGetAuthenticationExchangesWithoutThePicker(wire: ScenarioRunner.Wire) async throws {
        let (rig, _) = try await signedIn(wire, adobeTTL: Self.adobeShort, appleTTL: Self.adobeLong)
        try await rig.run(.advanceClock(5_400))
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                "sendTrackingData(0,true,AppleBoarded)", Partner.authenticated,
            ])
        // No profile in force, the configuration asked over an hour ago: the partner framework needs it again.
        #expect(rig.restCalls == ["GET /api/v2/REF30/configuration"] + Partner.exchangeCalls)
    }

    @Test(arguments: bothWires)
    func anotherApplicationGetsTheTTLOfItsOwnIntegration(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire) { $0.softwareStatement = "STATEMENT2" }
        rig.sandbox.updateMVPD("AppleBoarded", requestor: "REF31") { $0.authenticationTTL = 1_800 }
        #expect(try await rig.run(.setRequestor("REF31", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            rig.restCalls == [
                "POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF31/profiles",
                "GET /api/v2/REF31/configuration",
                "POST /api/v2/REF31/sessions/sso/Apple", "POST /api/v2/REF31/profiles/sso/Apple",
            ])
        let expiry = try #require(try await Partner.profileExpiry(rig))
        #expect(
            abs(expiry.timeIntervalSince(rig.sandbox.clock.now) - 1_800) < 2,
            "REF31's TTL, not the device token's nor REF30's")
    }

    @Test(arguments: bothWires)
    func bothExpiredTheUserIsNotAuthenticatedAndThePickerAppears(wire: ScenarioRunner.Wire) async throws {
        let (rig, _) = try await signedIn(wire, adobeTTL: Self.adobeShort, appleTTL: Self.adobeLong)
        try await rig.run(.advanceClock(Self.adobeLong + 60))
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", Partner.notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
        try await rig.run(.restart)
        #expect(try await rig.run(Partner.setRequestor) == ["setRequestorComplete(1)"])
        #expect(
            rig.restCalls == ["GET /api/v2/REF30/profiles", "GET /api/v2/REF30/configuration"],
            "no exchange with an expired device token")
        let picker = "\(Partner.pickerIDs)|featured:"
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                "presentTVProviderDialog(\(picker))", "dismissTVProviderDialog(\(picker))", "status(N005,info)",
                Partner.allMVPDs,
            ])
    }
}

/// Decisions after Apple's device token expired while the Adobe profile is still valid: the
/// overview keeps the user authenticated, but REST API V2 wants an unexpired partner status
/// on an appleSSO profile's decisions. The SDK never encodes an expired status, so Adobe
/// Pass refuses the decision, and the call still ends in exactly one failure callback.
@Suite struct PartnerExpiredDeviceTokenDecisionTests {
    @Test(arguments: bothWires)
    func decisionsCarryNoExpiredStatusAndEndInOneFailure(wire: ScenarioRunner.Wire) async throws {
        let rig = try PartnerHeaderRig(wire, signedIn: "AppleBoarded", expiresIn: 3_600)
        await rig.call { $0.setRequestor("REF30") }
        rig.sandbox.clock.advance(by: 5_400)
        #expect(await rig.call { $0.checkAuthentication() }.last == Partner.authenticated)
        #expect(
            await rig.call { $0.checkAuthorization("news") } == [
                "status(Z500,error)", "sendTrackingData(1,false,AppleBoarded)",
                "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
            ])
        #expect(
            rig.probe.requests == [
                ProbedRequest(
                    method: "POST", path: "/api/v2/REF30/decisions/authorize/AppleBoarded", partnerStatusHeader: nil)
            ])
        #expect(rig.sandbox.requestLog.last?.status == 400, "refused for the missing partner status")
    }
}
