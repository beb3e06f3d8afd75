import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

/// A storage file holding a date no answer can carry (written by an earlier build that
/// stored what Adobe Pass sent as it came, or edited by hand) is found unusable when the
/// app launches — reported as SEC412 and discarded — never read into a call that traps,
/// at this launch or any later one.
@Suite struct StoredNumbersTests {
    /// Seconds since 1970 no stored expiry can hold: 1e19 and 1e300 milliseconds, and -1e19.
    @Test(arguments: bothWires, [1e16, 1e297, -1e16])
    func aStoredExpiryBeyondEveryDateIsDiscardedAtLaunch(wire: ScenarioRunner.Wire, seconds: Double) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        // Another writer (an earlier build) leaves a sign-in and a media token ending at `seconds`.
        await rig.accessEnabler.waitUntilIdle()
        let store = TokenStore(
            directory: rig.storageDirectory, softwareStatement: Scenario().softwareStatement,
            integrityCheck: .INTEGRITY_CHECK_NONE,
            now: { [clock = rig.sandbox.clock] in clock.now })
        var profiles = store.profiles(requestor: "REF30")
        let current = try #require(profiles.chosen)
        profiles.chosen?.notAfter = Date(timeIntervalSince1970: seconds)
        store.apply(
            ProfileChange(profiles: profiles, keepingMediaTokensOf: nil, droppingPreauthorizations: false),
            requestor: "REF30")
        var token = try #require(store.authorization(requestor: "REF30", resource: "news"))
        token.notAfter = Date(timeIntervalSince1970: seconds)
        store.setAuthorization(token)
        store.flush()
        #expect(current.mvpd == "NotBoarded")

        // Offline at the next launch: the profiles request fails, so only storage speaks.
        rig.sandbox.inject(SandboxFault(status: 503), into: .profiles)
        for _ in 0..<2 {
            #expect(try await rig.run(.restart) == [])
            let launched = try await rig.run(.setRequestor("REF30", serviceProviders: nil))
            #expect(launched.last == "setRequestorComplete(1)")
            #expect(
                try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                    "setMetadataStatus(0,false,null)"
                ])
            #expect(
                try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "news")) == [
                    "setMetadataStatus(1,false,null)"
                ])
            #expect(
                try await rig.run(.checkAuthentication) == [
                    "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                ])
        }
    }
}
