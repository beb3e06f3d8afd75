import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// The partner SSO sign-in of measurement 3 over loopback HTTP on libcurl, `count` times and
/// nothing else, for callgrind, `strace -c -f` or `perf stat`:
///
/// - `signInLoopbackCurl`: the SDK on one shared ``CurlTransport`` (its default), each round a
///   new AccessEnabler over new storage with a device signed in at system level:
///   setRequestor until `setRequestorComplete`, then until the store's files are durable;
/// - `bareSignInLoopbackCurl`: the same six requests by hand on ``BareLibcurlClient``
///   (``BareSSOClient``), the goals' yardstick.
///
/// `ACCESSENABLER_DRIVER_STORAGE` names the directory the SDK's storage goes under (the
/// system's temporary directory by default): the store's cost on another file system
/// (tmpfs: `/dev/shm`).
public enum CurlSignInDriver {
    /// The flows the driver knows.
    public static let flows = ["signInLoopbackCurl", "bareSignInLoopbackCurl"]

    /// Runs `flow` `count` times; returns the number of rounds that ended as expected.
    public static func run(flow: String, count: Int, report: @Sendable (String) -> Void) async -> Int {
        let sandbox = PassSandbox()
        guard let (server, baseURL) = try? sandbox.serveOverLoopback() else { return 0 }
        defer { server.shutdown() }
        let start = Date()
        let succeeded: Int
        if flow == "bareSignInLoopbackCurl" {
            guard let curl = try? BareLibcurlClient() else { return 0 }
            defer { curl.shutdown() }
            let client = BareSSOClient(http: .libcurl(curl), baseURL: baseURL, requestor: "REF30")
            var done = 0
            for _ in 0..<count where (try? await client.signIn(device: device(sandbox))) != nil { done += 1 }
            succeeded = done
        } else {
            let base = ProcessInfo.processInfo.environment["ACCESSENABLER_DRIVER_STORAGE"].map {
                URL(fileURLWithPath: $0)
            }
            let scratch = BenchmarkScratch("curl-driver", under: base ?? FileManager.default.temporaryDirectory)
            defer { scratch.remove() }
            let transport = CurlTransport()
            let factory = BenchmarkClientFactory(
                baseURL: baseURL, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 10)
            var done = 0
            for index in 0..<count {
                let observer = BenchmarkObserver()
                let client = factory.make(
                    storage: scratch.storage("device-\(index)"), partner: device(sandbox), transport: transport,
                    observer: observer)
                client.setRequestor("REF30")
                await client.waitUntilIdle()
                if observer.snapshot.requestorStatus == 1 { done += 1 }
            }
            succeeded = done
        }
        let seconds = String(format: "%.3f", Date().timeIntervalSince(start))
        report("\(flow): \(succeeded) of \(count) as expected in \(seconds) s")
        return succeeded
    }

    /// A new device signed in to AppleBoarded at system level.
    private static func device(_ sandbox: PassSandbox) -> SimulatedPartnerFramework {
        SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
    }
}
