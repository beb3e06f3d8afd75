import AccessEnabler
import Foundation
import PassSandbox

/// A ``SandboxFixture`` with an AccessEnabler over it whose delegates are the test's: the
/// delegate under test is the only one, and it is set before anything runs.
final class LegacyPortRig: @unchecked Sendable {
    let fixture: SandboxFixture
    let accessEnabler: AccessEnabler

    /// The caller keeps `delegate` and `statusDelegate` alive: the AccessEnabler holds them weakly.
    init(picker: [PickerChoice] = [], delegate: EntitlementDelegate?, statusDelegate: EntitlementStatus?) throws {
        fixture = try SandboxFixture(picker: picker)
        accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: fixture.configuration)
        accessEnabler.delegate = delegate
        accessEnabler.statusDelegate = statusDelegate
    }

    var device: SimulatedPartnerFramework { fixture.device }
    var baseURL: URL { fixture.baseURL }

    /// Runs `call` and waits until everything it caused has been delivered.
    func run(_ call: (AccessEnabler) -> Void) async {
        call(accessEnabler)
        await accessEnabler.waitUntilIdle()
    }

    /// The user signs in on the MVPD page at `url`; returns where the browser was sent back to.
    func logIn(at url: String) async throws -> String { try await fixture.logIn(at: url) }

    /// The hidden browser follows the MVPD logout page at `url`; returns where it ends.
    func followLogout(_ url: String) async throws -> String { try await fixture.followLogout(url) }
}
