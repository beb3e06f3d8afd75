import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Plain `http://` only to this machine: a custom environment or a service provider URL
/// with `http://` to another host is refused at setRequestor, before any request leaves,
/// unless the configuration explicitly allows insecure HTTP (test rigs).
@Suite struct InsecureHTTPTests {
    /// An AccessEnabler whose every request goes to an in-process sandbox, whatever the
    /// URL's host (so the only thing under test is the SDK's refusal).
    private final class Fixture: @unchecked Sendable {
        let sandbox = PassSandbox()
        let recorder = CallbackRecorder(revealSecrets: true)
        let capture: RequestCapture
        let accessEnabler: AccessEnabler
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-insecure-\(UUID().uuidString)")

        init(environment: URL, allowsInsecureHTTP: Bool = false) {
            capture = RequestCapture(sandbox.inProcessTransport)
            var configuration = AccessEnablerConfiguration(
                environment: .custom(environment), platform: .tvOS, storageDirectory: storage, transport: capture,
                clock: SandboxTimeSource(sandbox.clock))
            configuration.allowsInsecureHTTP = allowsInsecureHTTP
            accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
            accessEnabler.delegate = recorder
            accessEnabler.statusDelegate = recorder
        }

        deinit { try? FileManager.default.removeItem(at: storage) }

        func call(_ body: (AccessEnabler) -> Void) async -> [String] {
            body(accessEnabler)
            await accessEnabler.waitUntilIdle()
            lastLines = recorder.callbacks
            return recorder.takeSignatures()
        }

        /// The callback lines of the last call.
        private(set) var lastLines: [TranscriptLine] = []

        var statusMessage: String? { lastLines.last { $0.callback == "status" }?["message"]?.stringValue }
    }

    @Test func aCustomEnvironmentOverPlainHTTPToAnotherHostIsRefusedBeforeAnyRequest() async throws {
        let fixture = Fixture(environment: try #require(URL(string: "http://pass.example.test")))
        #expect(await fixture.call { $0.setRequestor("REF30") } == ["status(CFG400,error)", "setRequestorComplete(0)"])
        let message = try #require(fixture.statusMessage)
        #expect(message.contains("http://pass.example.test"))
        #expect(message.contains("https://"))
        #expect(message.contains("allowsInsecureHTTP"))
        #expect(fixture.capture.requests.isEmpty, "nothing was sent in clear")
        // Every later call ends with the requestor's failure, still without a request.
        #expect(
            await fixture.call { $0.checkAuthorization("news") }.last
                == "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))")
        #expect(fixture.capture.requests.isEmpty)
    }

    @Test func aServiceProviderURLOverPlainHTTPToAnotherHostIsRefused() async throws {
        let fixture = Fixture(environment: try #require(URL(string: "https://pass.example.test")))
        let signatures = await fixture.call {
            $0.setRequestor("REF30", serviceProviders: ["https://sp.example.test", "http://sp2.example.test"])
        }
        #expect(signatures == ["status(CFG404,error)", "setRequestorComplete(0)"])
        #expect(fixture.statusMessage?.contains("http://sp2.example.test") == true)
        #expect(fixture.capture.requests.isEmpty)
    }

    @Test(arguments: [
        "http://127.0.0.1:9", "http://127.3.2.1", "http://[::1]:8080", "http://localhost:8080",
        "http://sandbox.localhost", "https://pass.example.test",
    ])
    func loopbackHostsAndHTTPSAreAccepted(base: String) async throws {
        let fixture = Fixture(environment: try #require(URL(string: base)))
        #expect(await fixture.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(fixture.capture.requests.map(\.url.scheme).allSatisfy { $0 == URL(string: base)?.scheme })
    }

    @Test func theOptOutLetsATestRigUsePlainHTTP() async throws {
        let fixture = Fixture(
            environment: try #require(URL(string: "http://pass.example.test")), allowsInsecureHTTP: true)
        #expect(
            await fixture.call { $0.setRequestor("REF30", serviceProviders: ["http://sp.example.test"]) } == [
                "setRequestorComplete(1)"
            ])
        #expect(fixture.capture.requests.first?.url.host == "sp.example.test")
    }
}
