import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Synchronization
import Testing

/// The app hears that the system picker opened before the partner framework is asked for
/// the person's choice, and that it closed before the sign-in sends its first request — as
/// on tvOS, where the app is told before the picker shows — however slowly the app's
/// callback queue runs and however fast the partner framework answers.
@Suite struct PartnerPickerOrderTests {
    @Test func thePickerCallbacksReachTheAppBeforeTheSignInGoesOn() async throws {
        let sandbox = PassSandbox(clock: SandboxClock())
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-picker-order-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let device = SimulatedPartnerFramework(sandbox: sandbox)
        device.picker = [.select(provider: "AppleBoarded", user: "alice")]
        let order = Mutex<[String]>([])
        let callbackQueue = DispatchQueue(label: "picker-order.callbacks")
        var configuration = AccessEnablerConfiguration(
            environment: .custom(sandbox.baseURLForLinks), platform: .tvOS, storageDirectory: storage,
            partnerFramework: device,
            callbackQueue: callbackQueue)
        configuration.clock = SandboxTimeSource(sandbox.clock)
        let transport = sandbox.transport
        configuration.transport = InProcessTransport { request throws(TransportFailure) in
            order.withLock { $0.append("\(request.method) \(request.url.path)") }
            return try await transport.send(request, timeout: 60)
        }
        let recorder = CallbackRecorder(observer: { line in
            if case .string(let name) = line["callback"] { order.withLock { $0.append(name) } }
        })
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.statusDelegate = recorder
        accessEnabler.setRequestor("REF30")
        await accessEnabler.waitUntilIdle()
        order.withLock { $0.removeAll() }

        // The app's queue is busy for a moment: the picker's callbacks wait for it.
        callbackQueue.async { usleep(300_000) }
        accessEnabler.getAuthentication()
        await accessEnabler.waitUntilIdle()
        let seen = order.withLock { $0 }
        let present = try #require(seen.firstIndex(of: "presentTVProviderDialog"), "\(seen)")
        let dismiss = try #require(seen.firstIndex(of: "dismissTVProviderDialog"), "\(seen)")
        let exchange = try #require(seen.firstIndex(of: "POST /api/v2/REF30/sessions/sso/Apple"), "\(seen)")
        #expect(present < dismiss && dismiss < exchange, "\(seen)")
        #expect(seen.last == "setAuthenticationStatus", "\(seen)")
        #expect(device.picker.isEmpty, "the person's one choice was taken")
    }
}
