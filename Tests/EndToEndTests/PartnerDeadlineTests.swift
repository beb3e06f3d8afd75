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

    func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError)
        -> PartnerAccountMetadata
    {
        PartnerAccountMetadata(accountProviderIdentifier: nil)
    }
}

/// The sandbox in process, keeping its own deadline (an in-process answer always comes), so
/// that the SDK's request timeout bounds the partner framework's answers alone: with three
/// other builds on the machine, the registration and configuration requests of
/// `setRequestor` took more than the test's 1 s and failed it before the partner was asked.
private struct PatientInProcessSandbox: HTTPTransport {
    let sandbox: InProcessTransport
    var keepsItsDeadline: Bool { true }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        try await sandbox.send(request, timeout: timeout)
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
        configuration.storageDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "partner-deadline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: configuration.storageDirectory) }
        configuration.partnerFramework = SlowPartner(delay: partnerDelay)
        configuration.transport = PatientInProcessSandbox(sandbox: sandbox.inProcessTransport)
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
        let lines = await setRequestorStatuses(
            partnerDelay: SanitizerTiming.scaled(60), timeout: SanitizerTiming.scaled(1))
        #expect(
            lines.contains {
                $0.callback == "status" && $0["errorId"] == .string("APPL")
                    && ($0["details"]?.stringValue ?? "").contains("timeout")
            })
        #expect(lines.last?.callback == "setRequestorComplete")
    }

    @Test func aPartnerAnsweringInTimeIsUsed() async {
        let lines = await setRequestorStatuses(partnerDelay: 0.05, timeout: SanitizerTiming.scaled(60))
        #expect(!lines.contains { $0.callback == "status" })
        #expect(lines.last?.callback == "setRequestorComplete" && lines.last?["status"] == .number(1))
    }
}
