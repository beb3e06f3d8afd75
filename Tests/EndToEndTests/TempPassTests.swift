import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// TempPass as REST API V2 has it: it sits beside a regular sign-in instead of replacing it,
/// its grants say so (Z011), and its end gives the regular sign-in back.
@Suite struct TempPassTests {
    @Test(arguments: bothWires)
    func aTempPassDoesNotReplaceARegularSignInOfAnotherMVPD(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        // The user tries TempPass while signed in with their MVPD.
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("TempPass")) == [
                "sendTrackingData(2,TempPass)", "status(N011,info)", "sendTrackingData(0,true,TempPass)", authenticated,
            ])
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(Z011,info)", "sendTrackingData(1,true,TempPass)", "setToken(news)",
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/authorize/TempPass"])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(TempPass)"])
        // TempPass's 30 minutes end; the regular sign-in (24 hours) counts again.
        #expect(try await rig.run(.advanceClock(1_801)) == [])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
        #expect(
            try await rig.run(.checkAuthorization("news")) == ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"])
        #expect(rig.restCalls == ["POST /api/v2/REF30/decisions/authorize/NotBoarded"])
        // …also after a relaunch.
        _ = try await rig.run(.restart)
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
    }

    @Test(arguments: bothWires)
    func choosingAnotherRegularMVPDReplacesTheOldSignIn(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("TempPass")).last == authenticated)
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("Degraded")).last == authenticated)
        #expect(try await rig.run(.advanceClock(1_801)) == [])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(Degraded)"])
    }
}

/// Promotional TempPass: the identity the app gives with getAuthentication/getAuthorization
/// data is sent as `AP-TempPass-Identity` (Adobe Pass refuses the decisions without it), and
/// the resource budget is counted.
@Suite struct PromotionalTempPassTests {
    static var world: SandboxWorld {
        var world = SandboxWorld.default
        world.serviceProviders[0].mvpds.append(
            SandboxMVPDConfig(
                id: "Promo", displayName: "Promotional TempPass", tempPass: true, tempPassResourceLimit: 2,
                authenticationTTL: 86_400, authorizationTTL: 300))
        return world
    }

    static let dialog = regularDialog.replacingOccurrences(of: ")", with: ",Promo)")

    @Test(arguments: bothWires)
    func theIdentityIsSentAndItsBudgetIsCounted(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire, world: Self.world)
        let alice = ["email": "alice@example.com"]
        #expect(await rig.call { $0.getAuthentication(false, withData: alice) } == [Self.dialog])
        #expect(
            try await rig.run(.setSelectedProvider("Promo")).suffix(2) == [
                "sendTrackingData(0,true,Promo)", authenticated,
            ])
        #expect(
            await rig.call { $0.getAuthorization("news", withData: alice) } == [
                "status(Z011,info)", "sendTrackingData(1,true,Promo)", "setToken(news)",
            ])
        #expect(await rig.call { $0.getAuthorization("sports", withData: alice) }.last == "setToken(sports)")
        // The budget of two resources is spent: the MVPD's reason reaches the app.
        #expect(
            await rig.call { $0.getAuthorization("movies", withData: alice) } == [
                "status(Z100,error)", "sendTrackingData(1,false,Promo)",
                "tokenRequestFailed(movies,\(USER_NOT_AUTHORIZED_ERROR))",
            ])
        let denial = try #require(rig.lines("status").first)
        #expect(
            denial["details"]?.stringValue == rig.lines("tokenRequestFailed").first?["errorDescription"]?.stringValue)
        #expect(denial["details"]?.stringValue?.isEmpty == false)
        // Adobe Pass advises authentication: the spent TempPass no longer counts on this device.
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
        // Choosing it again on this device is a used-up TempPass (N111).
        #expect(await rig.call { $0.getAuthentication(false, withData: alice) } == [Self.dialog])
        #expect(
            try await rig.run(.setSelectedProvider("Promo")) == [
                "sendTrackingData(2,Promo)", "status(N111,warning)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
    }
}
