import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A partner framework that answers the permission query only after `delay` seconds,
/// ignoring cancellation (as a wedged system service would).
private struct SlowPartner: PartnerFramework {
    let delay: TimeInterval

    func accessStatus(prompt: Bool) async -> PartnerAccessResult {
        let end = Date().addingTimeInterval(delay)
        while Date() < end { try? await Task.sleep(nanoseconds: 20_000_000) }
        return .granted
    }

    func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError) -> PartnerAccountMetadata {
        PartnerAccountMetadata(accountProviderIdentifier: nil)
    }
}

/// The partner framework's answers are bounded by the request timeout: a late answer is
/// replaced by the timeout error, an answer in time is used.
@Suite struct PartnerDeadlineTests {
    private func setRequestorStatuses(partnerDelay: TimeInterval, timeout: TimeInterval) async -> [TranscriptLine] {
        let sandbox = PassSandbox()
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(sandbox.baseURLForLinks)
        configuration.platform = .tvOS
        configuration.storageDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("partner-deadline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: configuration.storageDirectory) }
        configuration.partnerFramework = SlowPartner(delay: partnerDelay)
        configuration.transport = sandbox.inProcessTransport
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.requestTimeout = timeout
        let recorder = CallbackRecorder(revealSecrets: true)
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        accessEnabler.setRequestor("REF30")
        await accessEnabler.waitUntilIdle()
        return recorder.callbacks
    }

    @Test func aPartnerAnsweringLateCountsAsATimeoutError() async {
        // The timeout bounds the REST calls too: 1 s leaves them room when the suites around
        // keep the machine busy, and the partner answers well after it.
        let lines = await setRequestorStatuses(partnerDelay: 3, timeout: 1)
        #expect(lines.contains { $0.callback == "status" && $0["errorId"] == .string("APPL") && ($0["details"]?.stringValue ?? "").contains("timeout") })
        #expect(lines.last?.callback == "setRequestorComplete")
    }

    @Test func aPartnerAnsweringInTimeIsUsed() async {
        let lines = await setRequestorStatuses(partnerDelay: 0.05, timeout: 5)
        #expect(!lines.contains { $0.callback == "status" })
        #expect(lines.last?.callback == "setRequestorComplete" && lines.last?["status"] == .number(1))
    }
}
