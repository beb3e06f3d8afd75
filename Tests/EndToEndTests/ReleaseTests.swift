import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// An AccessEnabler the app lets go of is freed with everything it made: its engine, its
/// REST clients and the transport they hold. An app that creates one per screen, or a
/// long soak that relaunches every few seconds, must not keep the old ones alive.
@Suite struct ReleaseTests {
    /// The sandbox's transport, as an object whose lifetime the test can watch.
    private final class WatchedTransport: HTTPTransport, @unchecked Sendable {
        let inner: any HTTPTransport
        init(_ inner: any HTTPTransport) { self.inner = inner }
        var keepsItsDeadline: Bool { inner.keepsItsDeadline }
        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            try await inner.send(request, timeout: timeout)
        }
    }

    @Test func aReleasedAccessEnablerFreesItsEngineAndTransport() async throws {
        let sandbox = PassSandbox()
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-release-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        weak var releasedAccessEnabler: AccessEnabler?
        weak var releasedTransport: WatchedTransport?
        do {
            let transport = WatchedTransport(sandbox.inProcessTransport)
            var configuration = AccessEnablerConfiguration(
                environment: .custom(sandbox.baseURLForLinks), platform: .iOS, storageDirectory: storage)
            configuration.transport = transport
            configuration.clock = SandboxTimeSource(sandbox.clock)
            let recorder = CallbackRecorder()
            let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
            accessEnabler.delegate = recorder
            accessEnabler.setRequestor("REF30")
            accessEnabler.checkAuthentication()
            accessEnabler.getAuthentication()
            accessEnabler.checkAuthorization("news")
            await accessEnabler.waitUntilIdle()
            #expect(recorder.signatures.first == "setRequestorComplete(1)")
            releasedAccessEnabler = accessEnabler
            releasedTransport = transport
        }
        // Freed at once or shortly after, as the engine's loop ends (two minutes at most,
        // which a loaded machine meets).
        for _ in 0..<12_000 where releasedAccessEnabler != nil || releasedTransport != nil {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(releasedAccessEnabler == nil, "the AccessEnabler was freed")
        #expect(releasedTransport == nil, "its engine and REST clients were freed, and the transport with them")
    }
}
