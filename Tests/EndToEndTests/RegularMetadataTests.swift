import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// getSelectedProvider, getMetadata (every opcode, every way of passing it) and the
/// tracking events of the regular flows.
@Suite struct RegularMetadataTests {
    /// 2026-01-01T00:00:00Z, where the sandbox clock starts, in epoch milliseconds.
    static let start: Int64 = 1_767_225_600_000

    @Test(arguments: bothWires)
    func selectedProviderIsTheAuthenticatedMVPDOrNil(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(null)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "navigateToUrl(authenticate)")
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(null)"], "chosen but not logged in yet")
        #expect(try await rig.run(.login(username: "alice", password: "alice123")).last == authenticated)
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func authenticationAndAuthorizationExpiries(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let day = Self.start + 86_400_000
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                "setMetadataStatus(0,false,\"\(day)\")"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "news")) == [
                "setMetadataStatus(1,false,null)"
            ], "no token yet")
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(try await rig.run(.advanceClock(600)) == [])
        #expect(try await rig.run(.checkAuthorization("sports")).last == "setToken(sports)")
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "news")) == [
                "setMetadataStatus(1,false,\"\(Self.start + 3_600_000)\")"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "sports")) == [
                "setMetadataStatus(1,false,\"\(Self.start + 600_000 + 3_600_000)\")"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "movies")) == [
                "setMetadataStatus(1,false,null)"
            ])
        #expect(rig.restCalls.isEmpty, "metadata is answered from storage")
    }

    @Test(arguments: bothWires)
    func theDeviceIdentifierIsStable(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        _ = try await rig.run(.getMetadata(opCode: "deviceId", key: nil, resource: nil))
        let first = try #require(rig.lines("setMetadataStatus").first?["metadata"]?.stringValue)
        #expect(first.count == 64 && first.allSatisfy(\.isHexDigit))
        try await rig.logIn()
        #expect(
            try await rig.run(.getMetadata(opCode: "deviceId", key: nil, resource: nil)) == [
                "setMetadataStatus(2,false,\"\(first)\")"
            ])
        #expect(try await rig.run(.logout) == [logoutPage, notAuthenticated])
        #expect(try await rig.run(.restart) == [])
        // Before any setRequestor, getMetadata fails like every other call.
        #expect(
            try await rig.run(.getMetadata(opCode: "deviceId", key: nil, resource: nil)) == [
                "status(CFG400,error)", "setMetadataStatus(2,false,null)",
            ])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.getMetadata(opCode: "deviceId", key: nil, resource: nil)) == [
                "setMetadataStatus(2,false,\"\(first)\")"
            ])
    }

    @Test(arguments: bothWires)
    func userMetadataIncludingTheEncryptedZip(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "userID", resource: nil)) == [
                "setMetadataStatus(3,false,\"u-alice\")"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "householdID", resource: nil)) == [
                "setMetadataStatus(3,false,\"h-1\")"
            ])
        _ = try await rig.run(.getMetadata(opCode: "userMeta", key: "zip", resource: nil))
        let zip = try #require(rig.lines("setMetadataStatus").first)
        #expect(zip["encrypted"] == .bool(true), "state enc → encrypted")
        let value = try #require(zip["metadata"]?.stringValue)
        #expect(SandboxMetadataCipher.decrypt(value) == ["10001"], "the encrypted value is handed over untouched")
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "maxRating", resource: nil)) == [
                "setMetadataStatus(3,false,null)"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "tokenSource", resource: nil)) == [
                "setMetadataStatus(3,false,null)"
            ],
            "a regular profile without the attribute has no token source")
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func withoutAProfileOnlyTheDeviceIdentifierAnswers(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                "setMetadataStatus(0,false,null)"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "news")) == [
                "setMetadataStatus(1,false,null)"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "zip", resource: nil)) == [
                "setMetadataStatus(3,false,null)"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "deviceId", key: nil, resource: nil)).first?.hasPrefix(
                "setMetadataStatus(2,false,\"") == true)
    }

    @Test(arguments: bothWires)
    func theOpcodeMayBeIntInt32OrNSNumberAndTheArgumentsComeBack(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let day = Self.start + 86_400_000
        let forms: [(String, [String: Any])] = [
            ("Int", [METADATA_OPCODE_KEY: 0]),
            ("Int32", [METADATA_OPCODE_KEY: METADATA_AUTHENTICATION]),
            ("NSNumber", [METADATA_OPCODE_KEY: NSNumber(value: 0)]),
        ]
        for (name, query) in forms {
            #expect(await rig.call { $0.getMetadata(query) } == ["setMetadataStatus(0,false,\"\(day)\")"], "\(name)")
            #expect(
                rig.lines("setMetadataStatus").first?["arguments"] == .object([METADATA_OPCODE_KEY: .number(0)]),
                "\(name)")
        }
        let userMeta: [(String, [String: Any])] = [
            ("Int", [METADATA_OPCODE_KEY: 3, METADATA_USER_META_KEY: "userID"]),
            ("Int32", [METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "userID"]),
            ("NSNumber", [METADATA_OPCODE_KEY: NSNumber(value: METADATA_USER_META), METADATA_USER_META_KEY: "userID"]),
        ]
        for (name, query) in userMeta {
            #expect(await rig.call { $0.getMetadata(query) } == ["setMetadataStatus(3,false,\"u-alice\")"], "\(name)")
            #expect(
                rig.lines("setMetadataStatus").first?["arguments"]
                    == .object([METADATA_OPCODE_KEY: .number(3), METADATA_USER_META_KEY: .string("userID")]), "\(name)")
        }
        let authorization: [String: Any] = [
            METADATA_OPCODE_KEY: NSNumber(value: 1), METADATA_RESOURCE_ID_KEY: "news", "extra": "kept",
        ]
        #expect(await rig.call { $0.getMetadata(authorization) } == ["setMetadataStatus(1,false,null)"])
        #expect(
            rig.lines("setMetadataStatus").first?["arguments"]
                == .object([
                    METADATA_OPCODE_KEY: .number(1), METADATA_RESOURCE_ID_KEY: .string("news"),
                    "extra": .string("kept"),
                ]))
        #expect(
            await rig.call { $0.getMetadata([METADATA_OPCODE_KEY: Int64(2)]) }.first?.hasPrefix(
                "setMetadataStatus(2,false,") == true)
    }

    @Test(arguments: bothWires)
    func anUnknownOpcodeStillEndsInSetMetadataStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(
            await rig.call { $0.getMetadata([METADATA_OPCODE_KEY: 42]) } == [
                "status(N500,error)", "setMetadataStatus(42,false,null)",
            ])
        #expect(await rig.call { $0.getMetadata([:]) } == ["status(N500,error)", "setMetadataStatus(-1,false,null)"])
    }

    @Test(arguments: bothWires)
    func theDocumentedTrackingEventsOfAFullFlow(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        var events: [TranscriptLine] = []
        func collect(_ step: Scenario.Step) async throws {
            _ = try await rig.run(step)
            events += rig.lines("sendTrackingData")
        }
        try await collect(.checkAuthentication)
        try await collect(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        try await collect(.setSelectedProvider("NotBoarded"))
        try await collect(.login(username: "bob", password: "bob123"))
        try await collect(.checkAuthorization("news"))
        try await collect(.checkAuthorization("sports"))
        try await collect(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        let bob = "fec62f15920f466cbf551e472a9a8c22"
        let device = ["unknown", "ios", "Linux (tvOS)"]
        let expected: [(Int32, [String])] = [
            (TRACKING_AUTHENTICATION, ["false", "", "", "false"] + device),
            (TRACKING_GET_SELECTED_PROVIDER, ["NotBoarded"] + device),
            (TRACKING_AUTHENTICATION, ["true", "NotBoarded", bob, "false"] + device),
            (TRACKING_AUTHORIZATION, ["true", "NotBoarded", bob, "false", "", ""] + device),
            (TRACKING_AUTHORIZATION, ["false", "NotBoarded", bob, "false", "authorization_denied_by_mvpd"]),
            (TRACKING_AUTHENTICATION, ["true", "NotBoarded", bob, "true"] + device),
        ]
        #expect(events.count == expected.count)
        for (line, (event, data)) in zip(events, expected) {
            #expect(line["event"] == .number(Double(event)))
            guard case .array(let values)? = line["data"] else { Issue.record("no data in \(line)"); continue }
            let texts = values.compactMap(\.stringValue)
            #expect(Array(texts.prefix(data.count)) == data, "\(line)")
            #expect(Array(texts.suffix(3)) == device, "\(line)")
        }
    }

    @Test(arguments: bothWires)
    func iOSReportsAMobileDevice(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire, platform: .iOS)
        _ = try await rig.run(.checkAuthentication)
        let data = try #require(rig.lines("sendTrackingData").first?["data"])
        #expect(data == strings("false", "", "", "false", "mobile", "ios", "Linux (iOS)"))
    }
}
