import AccessEnabler
import Foundation
import PassSandbox

/// The floors' side of ``InstructionCountDriver``: `count` rounds of a floor program and
/// nothing else, so callgrind counts what the SDK's flow costs at the least.
///
/// - `checkAuthenticationFloor`: ``CheckAuthenticationFloor`` over the same simulated
///   device as the driver's `checkAuthentication` (signed in at system level to
///   AppleBoarded); each round checks and waits for the callback.
public enum FloorDriver {
    /// The flows the driver knows.
    public static let flows = ["checkAuthenticationFloor"]

    /// Runs `flow` `count` times; returns the number of rounds that ended as expected.
    public static func run(flow: String, count: Int, report: @Sendable (String) -> Void) async -> Int {
        let sandbox = PassSandbox()
        let clock = sandbox.clock
        let device = SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: clock.now.addingTimeInterval(86_400)))
        let floor = CheckAuthenticationFloor(
            published: .init(provider: "AppleBoarded", expiresAt: clock.now.addingTimeInterval(86_400)),
            partner: device,
            supportedProviders: ["AppleBoarded"], clock: { clock.now })
        let start = Date()
        var succeeded = 0
        for _ in 0..<count where await floor.checkAndWait() == 1 { succeeded += 1 }
        report(
            "\(flow): \(succeeded) of \(count) as expected in \(String(format: "%.3f", Date().timeIntervalSince(start))) s"
        )
        return succeeded
    }
}
