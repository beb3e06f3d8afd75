import AccessEnabler
import Foundation
import PassSandbox

/// The yardstick's side of ``InstructionCountDriver``'s `signInLoopback`: `count` partner SSO
/// sign-ins written by hand on a bare URLSession (``BareSSOClient``) against a sandbox over
/// loopback HTTP, and nothing else. Counting both under callgrind shows what the SDK adds.
public enum BareSignInDriver {
    /// The flow's name on the command line.
    public static let flow = "bareSignInLoopback"

    /// Runs `count` bare sign-ins; returns how many ended with the profile created.
    public static func run(count: Int, report: @Sendable (String) -> Void) async -> Int {
        let sandbox = PassSandbox()
        guard let (server, baseURL) = try? sandbox.serveOverLoopback() else { return 0 }
        defer { server.shutdown() }
        let session = BareSSOClient.makeSession()
        defer { session.invalidateAndCancel() }
        let client = BareSSOClient(http: .urlSession(session), baseURL: baseURL, requestor: "REF30")
        let start = Date()
        var succeeded = 0
        for _ in 0..<count {
            let device = SimulatedPartnerFramework(
                sandbox: sandbox,
                signedIn: SystemSignIn(
                    provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)
                ))
            if (try? await client.signIn(device: device)) != nil { succeeded += 1 }
        }
        report(
            "\(flow): \(succeeded) of \(count) as expected in \(String(format: "%.3f", Date().timeIntervalSince(start))) s"
        )
        return succeeded
    }
}
