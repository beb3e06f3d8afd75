import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Storage seen through the facade: relaunch, device identity, corrupt files, TTL expiry
/// and file permissions.
@Suite struct RegularStorageTests {
    /// Every regular file under `directory`, recursively.
    static func files(under directory: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        var result: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { result.append(url) }
        }
        return result
    }

    static func mode(of url: URL) -> mode_t? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    @Test(arguments: bothWires)
    func aRelaunchStaysAuthenticated(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            rig.restCalls == ["GET /api/v2/REF30/profiles"],
            "credentials and access token come from storage; no configuration")
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
        #expect(
            try await rig.run(.getMetadata(opCode: "userMeta", key: "userID", resource: nil)) == [
                "setMetadataStatus(3,false,\"u-alice\")"
            ])
        #expect(
            try await rig.run(.getMetadata(opCode: "authorization", key: nil, resource: "news")) == [
                "setMetadataStatus(1,false,\"\(RegularMetadataTests.start + 3_600_000)\")"
            ])
        // Adobe Pass still knows this device and client: authorization works with no new login.
        #expect(
            try await rig.run(.checkAuthorization("sports")) == [
                "sendTrackingData(1,true,NotBoarded)", "setToken(sports)",
            ])
    }

    @Test(arguments: bothWires)
    func theDeviceIdentifierSurvivesRelaunchesAndIntegrityChecks(wire: ScenarioRunner.Wire) async throws {
        var identifiers: Set<String> = []
        let checks: [IntegrityCheckType] = [
            .INTEGRITY_CHECK_NONE, .INTEGRITY_CHECK_ALL, .INTEGRITY_CHECK_NONE, .INTEGRITY_CHECK_CLEAR,
            .INTEGRITY_CHECK_ALL,
        ]
        let harness = try RegularHarness(wire)
        defer { harness.stop() }
        for check in checks {
            let relaunched = AccessEnabler(
                storageCheck: check, softwareStatement: "STATEMENT", configuration: harness.accessEnabler.configuration)
            relaunched.delegate = harness.recorder
            harness.recorder.reset()
            relaunched.setRequestor("REF30")
            relaunched.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID])
            #expect(await whileProgressing(relaunched) { await relaunched.waitUntilIdle() })
            let line = try #require(harness.recorder.callbacks.first { $0.callback == "setMetadataStatus" })
            identifiers.insert(try #require(line["metadata"]?.stringValue))
        }
        #expect(identifiers.count == 1)
    }

    @Test(arguments: bothWires)
    func aCorruptStorageFileMeansNotAuthenticatedUntilAdobePassSaysOtherwiseAndNoCrash(wire: ScenarioRunner.Wire)
        async throws
    {
        // The sign-in's record in the store file replaced by something that is not one.
        for garbage: Any in ["AAAA", 42, [1, 2], ["requestor": 7], NSNull()] {
            let rig = try await Rig.loggedIn(wire)
            // A relaunch waits for the store's pending writes, so the files are on disk after it.
            #expect(try await rig.run(.restart) == [])
            let storeFile = try #require(
                Self.files(under: rig.storageDirectory).first { $0.lastPathComponent == "store.json" })
            var store = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: storeFile)) as? [String: Any])
            var payload = try #require(store["payload"] as? [String: Any])
            var requestors = try #require(payload["requestors"] as? [String: Any])
            #expect(requestors["REF30"] != nil)
            requestors["REF30"] = garbage
            payload["requestors"] = requestors
            store["payload"] = payload
            try JSONSerialization.data(withJSONObject: store).write(to: storeFile)
            #expect(try await rig.run(.restart) == [])
            // Adobe Pass cannot be asked: what the device stored — nothing readable — stands.
            rig.sandbox.inject(SandboxFault(status: 503), into: .profiles)
            // The discarded file is reported (a warning the app can log), ahead of the first call's callbacks.
            #expect(
                try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == [
                    "status(SEC412,warning)", "setRequestorComplete(1)",
                ])
            let message = try #require(rig.lines("status").first?["message"]?.stringValue)
            #expect(message.hasPrefix("Discarded the sign-in of REF30 (\(storeFile.path))"), "\(message)")
            #expect(
                try await rig.run(.checkAuthentication) == [
                    "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
                ])
            #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(null)"])
            // The next setRequestor asks Adobe Pass, which still holds the sign-in: it is adopted again.
            rig.sandbox.clearFaults()
            #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
            #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
            #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
        }
    }

    @Test(arguments: bothWires)
    func everyStorageFileCorruptStillStartsCleanly(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.restart) == [])
        for file in Self.files(under: rig.storageDirectory) { try Data("garbage".utf8).write(to: file) }
        #expect(try await rig.run(.restart) == [])
        // One warning per discarded file (the identity, the store), then the requestor; the
        // lock file's garbage is no concern.
        let signatures = try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        #expect(signatures == Array(repeating: "status(SEC412,warning)", count: 2) + ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }

    @Test(arguments: bothWires)
    func theProfileExpiresWithItsTTL(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.advanceClock(86_399)) == [])
        #expect(try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(try await rig.run(.advanceClock(1)) == [])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(rig.restCalls.isEmpty)
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(N000,info)", "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(null)"])
        #expect(
            try await rig.run(.getMetadata(opCode: "authentication", key: nil, resource: nil)) == [
                "setMetadataStatus(0,false,null)"
            ])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
    }

    @Test(arguments: bothWires)
    func anExpiredProfileStaysExpiredAfterARelaunch(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.advanceClock(90_000)) == [])
        #expect(try await rig.run(.restart) == [])
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }

    @Test(arguments: bothWires)
    func tempPassExpiresWithItsShorterTTL(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.regular(wire)
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(try await rig.run(.setSelectedProvider("TempPass")).last == authenticated)
        #expect(try await rig.run(.advanceClock(1_800)) == [])
        #expect(
            try await rig.run(.checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }

    @Test(arguments: bothWires)
    func filesAreOwnerOnly(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        #expect(
            try await rig.run(.checkPreauthorizedResources(["news"], cache: true)) == ["preauthorizedResources(news)"])
        #expect(try await rig.run(.restart) == [])  // the relaunch waits for the pending writes
        let files = Self.files(under: rig.storageDirectory)
        #expect(files.count == 3, "the identity, the store and its lock file")
        for file in files {
            #expect(Self.mode(of: file) == 0o600, "\(file.lastPathComponent)")
        }
        let statementDirectories =
            (try? FileManager.default.contentsOfDirectory(at: rig.storageDirectory, includingPropertiesForKeys: nil))
            ?? []
        for directory in statementDirectories {
            #expect(Self.mode(of: directory) == 0o700, "\(directory.lastPathComponent)")
        }
    }
}
