import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// What the device stores follows what Adobe Pass holds: a new DCR registration signs the
/// user out (profiles belong to the client that obtained them), and storage that cannot
/// write says so instead of failing silently.
@Suite struct StorageAndRegistrationTests {
    @Test(arguments: bothWires)
    func aNewRegistrationSignsTheUserOut(wire: ScenarioRunner.Wire) async throws {
        var world = SandboxWorld.default
        world.accessTokenTTL = 60
        world.registrationTTL = 120
        let rig = try Rig(wire) { scenario in
            scenario.world = world
            scenario.loginScreen = .thisDevice
        }
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        // The registration ends; the next request registers again, and the profiles of the
        // old client are gone on both sides.
        #expect(try await rig.run(.advanceClock(180)) == [])
        let answer = try await rig.run(.checkAuthorization("news"))
        #expect(answer.last == "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))")
        #expect(rig.restCalls.contains("POST /o/client/register"))
        // Never silently: the first status says the new registration signed the user out.
        #expect(answer.first == "status(N130,error)")
        let signedOut = try #require(rig.lines("status").first?["message"]?.stringValue)
        #expect(signedOut.contains("registered again"), "\(signedOut)")
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
        try await rig.logIn()
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }

    @Test func storageThatCannotWriteSaysSoAndTheSDKKeepsWorking() async throws {
        let sandbox = PassSandbox()
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        // A file where the storage directory should be.
        let blocked = FileManager.default.temporaryDirectory.appendingPathComponent(
            "not-a-directory-\(UUID().uuidString)")
        try Data("x".utf8).write(to: blocked)
        defer { try? FileManager.default.removeItem(at: blocked) }
        let diagnostics = DiagnosticsTests.Log()
        var configuration = AccessEnablerConfiguration(
            environment: .custom(baseURL), platform: .iOS, storageDirectory: blocked)
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.diagnostics = { diagnostics.append($0) }
        let recorder = CallbackRecorder()
        let ae = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        ae.delegate = recorder
        ae.statusDelegate = recorder
        try await ae.configure(requestor: "REF30")
        await ae.waitUntilIdle()
        let statuses = recorder.lines.filter { $0.callback == "status" }
        #expect(
            statuses.contains {
                $0["errorId"]?.stringValue == "N500"
                    && ($0["message"]?.stringValue?.contains(blocked.lastPathComponent) ?? false)
            })
        let problems = diagnostics.all.compactMap { if case .storageProblem(let message) = $0 { message } else { nil } }
        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.contains("storageDirectory") || $0.contains("Remove") })
        // The SDK works from memory.
        #expect(!(try await ae.authenticationStatus().isAuthenticated))
    }
    @Test func aStorageProblemFoundBeforeTheDelegateIsSetComesWithTheFirstCall() async throws {
        let sandbox = PassSandbox()
        let blocked = FileManager.default.temporaryDirectory.appendingPathComponent(
            "not-a-directory-\(UUID().uuidString)")
        try Data("x".utf8).write(to: blocked)
        defer { try? FileManager.default.removeItem(at: blocked) }
        let diagnostics = DiagnosticsTests.Log()
        var configuration = AccessEnablerConfiguration(
            environment: .custom(sandbox.baseURLForLinks), platform: .iOS, storageDirectory: blocked)
        configuration.transport = sandbox.inProcessTransport
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.diagnostics = { diagnostics.append($0) }
        let ae = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        // The diagnostics handler hears of it at once.
        #expect(diagnostics.all.contains { if case .storageProblem = $0 { true } else { false } })
        // The app sets its delegate a while later, as apps do.
        try await Task.sleep(nanoseconds: 100_000_000)
        let recorder = CallbackRecorder()
        ae.delegate = recorder
        ae.statusDelegate = recorder
        ae.setRequestor("REF30")
        await ae.waitUntilIdle()
        let names = recorder.lines.map {
            $0.callback == "status" ? "status(\($0["errorId"]?.stringValue ?? ""))" : $0.callback
        }
        #expect(names == ["status(N500)", "setRequestorComplete"])
    }
}
