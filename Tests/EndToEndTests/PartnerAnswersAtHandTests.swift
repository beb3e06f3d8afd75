import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A partner framework that has its silent answers at hand (`accessStatusAtHand()`,
/// `accountMetadataAtHand(_:)`) and one that must be awaited lead to the same callbacks and
/// the same questions, each asked once: the simulated device plays both
/// (`answersAtHand`). The flow: a silent sign-in at setRequestor, then checkAuthentication
/// while signed in at system level, after a system sign-out, and with the permission denied.
@Suite struct PartnerAnswersAtHandTests {
    private struct Run {
        var callbacks: [String]
        var partnerCalls: [PartnerCall]
    }

    private func run(answersAtHand: Bool) async -> Run {
        let sandbox = PassSandbox(clock: SandboxClock())
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-at-hand-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let device = SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
        device.answersAtHand = answersAtHand
        var configuration = AccessEnablerConfiguration(
            environment: .custom(sandbox.baseURLForLinks), platform: .tvOS, storageDirectory: storage,
            partnerFramework: device)
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.transport = sandbox.transport
        let recorder = CallbackRecorder()
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        accessEnabler.setRequestor("REF30")
        await accessEnabler.waitUntilIdle()
        accessEnabler.checkAuthentication()
        await accessEnabler.waitUntilIdle()
        device.signOut()
        accessEnabler.checkAuthentication()
        await accessEnabler.waitUntilIdle()
        device.signedIn = SystemSignIn(
            provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400))
        device.accessStatus = .denied
        accessEnabler.checkAuthentication()
        await accessEnabler.waitUntilIdle()
        return Run(callbacks: recorder.callbacks.map(\.description), partnerCalls: device.calls)
    }

    @Test func answersAtHandAndAwaitedAnswersLeadToTheSameCallbacksAndQuestions() async throws {
        let atHand = await run(answersAtHand: true)
        let awaited = await run(answersAtHand: false)
        #expect(atHand.callbacks == awaited.callbacks)
        // The SAML request of the silent sign-in carries a random ID: compared without it.
        #expect(atHand.partnerCalls.map(\.withoutSAMLRequestID) == awaited.partnerCalls.map(\.withoutSAMLRequestID))

        // What those callbacks are: signed in silently, then 1, 0, 0.
        let statuses = atHand.callbacks.filter { $0.contains("\"setAuthenticationStatus\"") }
        #expect(statuses.count == 3, "\(atHand.callbacks)")
        #expect(statuses.first?.contains("\"status\":1") == true, "\(statuses)")
        #expect(statuses.dropFirst().allSatisfy { $0.contains("\"status\":0") }, "\(statuses)")
        #expect(atHand.callbacks.first?.contains("setRequestorComplete") == true, "\(atHand.callbacks)")
        // Each check asked the permission once, without a prompt, and the account only when
        // the permission was granted.
        let checks = atHand.partnerCalls.suffix(5)
        #expect(
            Array(checks.map(\.name)) == [
                "accessStatus", "accountMetadata", "accessStatus", "accountMetadata", "accessStatus",
            ], "\(atHand.partnerCalls)")
    }
}

extension PartnerCall {
    fileprivate var withoutSAMLRequestID: PartnerCall {
        guard case .accountMetadata(var request) = self, request.samlRequest != nil else { return self }
        request.samlRequest = "<SAML request>"
        return .accountMetadata(request)
    }

    fileprivate var name: String {
        switch self {
        case .accessStatus(let prompt):
            #expect(!prompt)
            return "accessStatus"
        case .accountMetadata(let request):
            #expect(!request.isInterruptionAllowed)
            return "accountMetadata"
        }
    }
}
