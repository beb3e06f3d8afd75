import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// What Adobe Pass says about a session wins over what the device stored: an invalidated
/// profile signs the user out at once, a used-up TempPass is N111, a denial carries the
/// MVPD's own words.
@Suite struct ServerAdviceTests {
    @Test(arguments: bothWires)
    func anInvalidatedProfileSignsTheUserOutAtTheNextAuthorization(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(try await rig.run(.invalidateProfiles(mvpd: nil)) == [])
        // The device still believes the profile until Adobe Pass says otherwise…
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(N130,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        let status = try #require(rig.lines("status").first)
        #expect(status["message"]?.stringValue?.contains("authenticated_profile_invalidated") == true)
        #expect(status["message"]?.stringValue?.contains("sign in again") == true)
        // …and from then on the user is not authenticated, with no network call.
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aPreauthorizationTheServerRefusesForTheSessionSignsTheUserOutToo(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        _ = try await rig.run(.invalidateProfiles(mvpd: "NotBoarded"))
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: false)) == [
                "status(N130,error)", "preauthorizedResources()",
            ])
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
        // Signing in again works.
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }

    @Test(arguments: bothWires)
    func aUsedUpTempPassChosenAgainIsN111(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("TempPass")).last == authenticated)
        #expect(try await rig.run(.advanceClock(1_801)) == [])
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("TempPass")) == [
                "sendTrackingData(2,TempPass)", "status(N111,warning)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("used up") == true)
        // A reset (Adobe's TempPass reset) gives the device a new window.
        _ = try await rig.run(.resetTempPass(mvpd: "TempPass"))
        #expect(try await rig.run(.setSelectedProvider("TempPass")).last == authenticated)
    }

    @Test(arguments: bothWires)
    func aDenialCarriesTheMVPDsOwnWords(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(
            try await rig.run(.checkAuthorization("premium")).last
                == "tokenRequestFailed(premium,\(USER_NOT_AUTHORIZED_ERROR))")
        let failure = try #require(rig.lines("tokenRequestFailed").first)
        let status = try #require(rig.lines("status").first)
        let details = try #require(status["details"]?.stringValue)
        #expect(!details.isEmpty)
        #expect(failure["errorDescription"]?.stringValue == details)
    }
}
