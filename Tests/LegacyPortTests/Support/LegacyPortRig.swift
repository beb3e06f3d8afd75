import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// An AccessEnabler (iOS flavour, so MVPD login and logout are pages) talking real HTTP to a
/// PassSandbox on loopback, with a simulated device whose picker the test scripts, and a
/// delegate of the test's choosing: the set-up the scenario runner uses, without its
/// recorder, so the delegate under test is the only one.
final class LegacyPortRig: @unchecked Sendable {
    let sandbox: PassSandbox
    let device: SimulatedPartnerFramework
    let accessEnabler: AccessEnabler
    let baseURL: URL
    private let server: LoopbackHTTPServer
    private let storage: URL

    /// Starts the sandbox, the device (permission granted, nobody signed in at system level,
    /// `picker` scripted) and an AccessEnabler over fresh storage; `delegate` and
    /// `statusDelegate` are set before anything runs. The caller keeps both alive: the
    /// AccessEnabler holds them weakly.
    init(picker: [PickerChoice] = [], delegate: EntitlementDelegate?, statusDelegate: EntitlementStatus?) throws {
        sandbox = PassSandbox(world: .default, clock: SandboxClock())
        (server, baseURL) = try sandbox.serveOverLoopback()
        device = SimulatedPartnerFramework(sandbox: sandbox, picker: picker)
        storage = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-port-\(UUID().uuidString)")
        accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: Self.configuration(baseURL: baseURL, storage: storage, device: device, clock: sandbox.clock))
        accessEnabler.delegate = delegate
        accessEnabler.statusDelegate = statusDelegate
    }

    deinit {
        server.shutdown()
        try? FileManager.default.removeItem(at: storage)
    }

    /// The configuration an integration supplies to reach this sandbox: the lines a port
    /// adds, and nothing else.
    static func configuration(baseURL: URL, storage: URL, device: SimulatedPartnerFramework?, clock: SandboxClock) -> AccessEnablerConfiguration {
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.platform = .iOS
        configuration.storageDirectory = storage
        configuration.partnerFramework = device
        configuration.clock = SandboxTimeSource(clock)
        configuration.requestTimeout = 5
        return configuration
    }

    /// Runs `call` and waits until everything it caused has been delivered.
    func run(_ call: (AccessEnabler) -> Void) async {
        call(accessEnabler)
        await accessEnabler.waitUntilIdle()
    }

    /// The user signs in on the MVPD page at `url`; returns where the browser was sent back to.
    func logIn(at url: String, username: String = "bob", password: String = "bob123") async throws -> String {
        try await SimulatedUserAgent(httpBase: baseURL).login(startingAt: url, username: username, password: password, redirectPrefix: ADOBEPASS_REDIRECT_URL)
    }

    /// The hidden browser follows the MVPD logout page at `url`; returns where it ends.
    func followLogout(_ url: String) async throws -> String {
        try await SimulatedUserAgent(httpBase: baseURL).follow(url, redirectPrefix: ADOBEPASS_REDIRECT_URL)
    }
}
