import AccessEnabler
import AccessEnablerScenarios
import Testing

/// Authentication tracking carries the MD5 of the profile's `userID` as 32 lower-case hex digits.
@Suite struct TrackingUserHashTests {
    @Test func checkAuthenticationTracksTheHashedUserID() async throws {
        let rig = try Rig(.inProcess)
        try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        try await rig.run(.setSelectedProvider("NotBoarded"))
        try await rig.run(.login(username: "alice", password: "alice123"))
        try await rig.run(.checkAuthentication)
        let tracking = try #require(rig.lastLines.first { $0.callback == "sendTrackingData" })
        guard case .array(let data)? = tracking["data"] else {
            Issue.record("sendTrackingData without data")
            return
        }
        // MD5("u-alice"): alice's userID in the default world.
        try #require(data.count > 2)
        #expect(data[2] == .string("23807fcb5d33af23fe55de8a1eb249d1"))
    }
}
