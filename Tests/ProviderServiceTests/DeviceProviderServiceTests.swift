import AccessEnabler
import AccessEnablerProviderService
import Foundation
import LineServerHarness
import PassSandbox
import Testing

/// The SDK's client of the provider service against the service itself (in this process,
/// over its real socket) and against servers that misbehave: every failure is an answer
/// with a sentence, never a wait without end.
@Suite(.timeLimit(.minutes(5))) struct DeviceProviderServiceTests {
    @Test func anAppAsksAndIsAnsweredFromItsPermissionAndTheHouseholdsSignIn() async throws {
        let service = try InProcessService()
        let news = service.client()
        #expect(await news.accessStatus(prompt: false) == .notDetermined)
        await #expect(throws: PartnerFrameworkError.accessNotGranted) {
            try await news.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false))
        }
        try await service.grant()
        #expect(await news.accessStatus(prompt: false) == .granted)
        let nobody = try await news.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false))
        #expect(nobody == PartnerAccountMetadata(accountProviderIdentifier: nil))

        // getAuthentication's interactive request: the household sign-in starts, the person
        // types the code on a phone, and the waiting request gets the sign-in.
        var events = service.client().events().makeAsyncIterator()
        // Subscribed before the sign-in starts, or its code would go by unheard.
        while let event = await events.next(), event != .subscribed {}
        let signIn = Task {
            try await news.accountMetadata(
                PartnerMetadataRequest(
                    isInterruptionAllowed: true, supportedAccountProviderIdentifiers: ["AppleBoarded"]))
        }
        var code: String?
        while code == nil, let event = await events.next() {
            if case .signInStarted(let shown, _, _) = event { code = shown }
        }
        let typed = try #require(code)
        let outcome = try await SimulatedUserAgent(sandbox: service.sandbox).signInHousehold(
            code: typed, choice: .provider("AppleBoarded", username: "alice", password: "alice123"))
        #expect(outcome == .signedIn(provider: "AppleBoarded"))
        let account = try await signIn.value
        #expect(account.accountProviderIdentifier == "AppleBoarded")
        #expect((account.authenticationExpirationDate ?? .distantPast) > Date())
        while let event = await events.next() {
            if case .signedIn(let provider, _) = event {
                #expect(provider == "AppleBoarded")
                break
            }
        }
        // Another app, once permitted, reads the same sign-in without anyone signing in again.
        try await service.grant("Sports", requestor: "REF31")
        let sports = try await service.client("Sports", requestor: "REF31").accountMetadata(
            PartnerMetadataRequest(isInterruptionAllowed: false))
        #expect(sports.accountProviderIdentifier == "AppleBoarded")
    }

    // MARK: Faults

    private func scratchSocket() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "fake-\(UUID().uuidString.prefix(8))/provider.sock"
        ).path
    }

    @Test func aServiceThatIsNotRunningIsAnErrorThatSaysHowToStartIt() async throws {
        let client = DeviceProviderService(requestor: "REF30", appName: "News", socketPath: scratchSocket())
        guard case .error(let code, let message) = await client.accessStatus(prompt: false) else {
            Issue.record("answered"); return
        }
        #expect(code == "serviceNotRunning")
        #expect(message.contains(client.socketPath) && message.contains("accessenabler provider-service"))
        do {
            _ = try await client.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: true))
            Issue.record("answered")
        } catch {
            #expect(error == .other(code: "serviceNotRunning", message: message))
        }
    }

    @Test func aGarbageAnswerIsAnErrorNotAnAnswer() async throws {
        for garbage in [
            "garbage\n", "{\"v\":1,\"id\":\"someone-else\",\"ok\":true,\"accessStatus\":\"granted\"}\n",
            "{\"v\":9,\"ok\":true}\n",
            "{\"v\":1,\"ok\":true,\"accessStatus\":\"maybe\"}\n",
            "{\"v\":1,\"ok\":true,\"accountProviderIdentifier\":\"A\",\"authenticationExpirationDate\":1e300}\n",
        ] {
            let server = try FakeLineServer(path: scratchSocket(), behaviour: .answer(garbage))
            let client = DeviceProviderService(requestor: "REF30", appName: "News", socketPath: server.path)
            guard case .error(let code, _) = await client.accessStatus(prompt: false) else {
                Issue.record("\(garbage): answered")
                continue
            }
            #expect(code == "badAnswer", "\(garbage)")
            await #expect(throws: PartnerFrameworkError.self, "\(garbage)") {
                _ = try await client.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false))
            }
            withExtendedLifetime(server) {}
        }
    }

    @Test func anAnswerThatNeverComesEndsAtTheTimeout() async throws {
        let server = try FakeLineServer(path: scratchSocket(), behaviour: .silence)
        var client = DeviceProviderService(requestor: "REF30", appName: "News", socketPath: server.path)
        client.answerTimeout = 0.5
        guard case .error(let code, let message) = await client.accessStatus(prompt: false) else {
            Issue.record("answered"); return
        }
        #expect(code == "timeout")
        #expect(message.contains("did not answer within 1 s"))
    }

    @Test func aServiceThatGoesAwayMidCallIsConnectionLost() async throws {
        let server = try FakeLineServer(path: scratchSocket(), behaviour: .close)
        let client = DeviceProviderService(requestor: "REF30", appName: "News", socketPath: server.path)
        do {
            _ = try await client.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: true))
            Issue.record("answered")
        } catch {
            guard case .other(let code, let message) = error else { Issue.record("\(error)"); return }
            #expect(code == "connectionLost")
            #expect(message.contains("stopped or restarted"))
        }
    }

    @Test func aCancelledQuestionEndsAtOnce() async throws {
        let server = try FakeLineServer(path: scratchSocket(), behaviour: .silence)
        let client = DeviceProviderService(requestor: "REF30", appName: "News", socketPath: server.path)
        let asking = Task { await client.accessStatus(prompt: true) }
        try await Task.sleep(nanoseconds: 200_000_000)
        asking.cancel()
        guard case .error(let code, _) = await asking.value else { Issue.record("answered"); return }
        #expect(code == "cancelled", "the 310 s wait for the person ended with the task")
    }

    @Test func aLiveSocketIsRefusedAStaleOneTakenOverAndTheStateSurvivesARestart() async throws {
        let service = try InProcessService()
        try await service.grant()
        func settings(_ state: String) -> ProviderService.Settings {
            var settings = ProviderService.Settings(
                socketPath: service.socket, stateDirectory: state, identityProvider: service.sandbox.baseURLForLinks)
            settings.transport = service.sandbox.inProcessTransport
            return settings
        }
        let refusal = #expect(throws: ProviderService.StartFailure.self) {
            try ProviderService(settings: settings(service.root + "/other"), log: { _ in })
        }
        #expect(refusal?.description.contains("already listening") == true)
        await service.stop()
        #expect(!FileManager.default.fileExists(atPath: service.socket), "a service that stops removes its socket")
        // A service that died (kill -9) leaves its socket file behind, nobody listening.
        try FakeLineServer.leaveStaleSocket(at: service.socket)
        let log = LogLines()
        let restarted = try ProviderService(settings: settings(service.root + "/state"), log: { log.append($0) })
        let running = Task { await restarted.run() }
        #expect(log.all.contains { $0.contains("removed a stale socket") })
        #expect(await service.client().accessStatus(prompt: false) == .granted, "the permission survived the restart")
        restarted.stop()
        await running.value
    }
}
