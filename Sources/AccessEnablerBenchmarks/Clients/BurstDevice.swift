import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// A device signed in through partner SSO (in-process, against a sandbox of its own) whose
/// decisions requests are counted: what the authorization burst of measurement 1 runs on,
/// in the bench's round trips and in the `authorizationBurst` driver alike.
final class BurstDevice: @unchecked Sendable {
    /// Resources per decisions request (the SDK's default).
    static let limit = 5

    let client: AccessEnabler
    let transport: CountingTransport
    let observer: BenchmarkObserver
    /// Whether setRequestor signed the device in.
    let signedIn: Bool
    private let sandbox: PassSandbox
    private let scratch: BenchmarkScratch

    /// The fewest decisions requests `calls` authorizations can cost: ⌈calls / limit⌉.
    static func minimumRequests(for calls: Int) -> Int { (calls + limit - 1) / limit }

    /// Starts the sandbox and the device, and runs setRequestor to its end. `scratchName`
    /// names the storage directory (removed by ``remove()``).
    init(scratchName: String) async {
        sandbox = PassSandbox(world: .default, clock: SandboxClock())
        transport = CountingTransport(sandbox.inProcessTransport)
        let factory = BenchmarkClientFactory(
            baseURL: sandbox.baseURLForLinks, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 10)
        scratch = BenchmarkScratch(scratchName)
        let device = SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
        observer = BenchmarkObserver()
        client = factory.make(
            storage: scratch.storage("device"), partner: device, transport: transport, observer: observer)
        client.setRequestor("REF30")
        await client.waitUntilIdle()
        signedIn = observer.snapshot.requestorStatus == 1
    }

    /// Calls checkAuthorization for each of `resources` in a plain loop and waits until every
    /// call has ended: how many decisions requests they cost, and how many ended in their
    /// callback (setToken or tokenRequestFailed).
    func burst(_ resources: [String]) async -> (requests: Int, answered: Int) {
        observer.reset()
        transport.reset()
        for resource in resources { client.checkAuthorization(resource) }
        await client.waitUntilIdle()
        return (transport.count, observer.snapshot.tokens + observer.snapshot.tokenFailures)
    }

    /// Removes the device's storage.
    func remove() { scratch.remove() }
}
