import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// A PassSandbox served over loopback HTTP, a simulated device (permission granted, nobody
/// signed in at system level, the picker scripted by the test), fresh storage, and the
/// configuration that points an AccessEnabler at them: the set-up the scenario runner uses.
final class SandboxFixture: @unchecked Sendable {
    let sandbox: PassSandbox
    let device: SimulatedPartnerFramework
    let baseURL: URL
    private let server: LoopbackHTTPServer
    private let storage: URL

    init(picker: [PickerChoice] = []) throws {
        sandbox = PassSandbox(world: .default, clock: SandboxClock())
        (server, baseURL) = try sandbox.serveOverLoopback()
        device = SimulatedPartnerFramework(sandbox: sandbox, picker: picker)
        storage = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-port-\(UUID().uuidString)")
    }

    deinit {
        server.shutdown()
        try? FileManager.default.removeItem(at: storage)
    }

    /// The configuration an integration supplies to reach this sandbox, iOS flavour (MVPD
    /// login and logout are pages): the lines a port adds, and nothing else.
    var configuration: AccessEnablerConfiguration {
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.platform = .iOS
        configuration.storageDirectory = storage
        configuration.partnerFramework = device
        configuration.clock = SandboxTimeSource(sandbox.clock)
        // Bounds a request that hangs only: a healthy one on a machine at load 20 can take seconds.
        configuration.requestTimeout = 60
        return configuration
    }

    /// The user signs in on the MVPD page at `url`; returns where the browser was sent back to.
    func logIn(at url: String, username: String = "bob", password: String = "bob123") async throws -> String {
        try await SimulatedUserAgent(httpBase: baseURL).login(
            startingAt: url, username: username, password: password, redirectPrefix: ADOBEPASS_REDIRECT_URL)
    }

    /// The hidden browser follows the MVPD logout page at `url`; returns where it ends.
    func followLogout(_ url: String) async throws -> String {
        try await SimulatedUserAgent(httpBase: baseURL).follow(url, redirectPrefix: ADOBEPASS_REDIRECT_URL)
    }
}
