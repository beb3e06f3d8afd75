import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// The authorization burst of measurement 1, `count` times: a device signed in through
/// partner SSO calls checkAuthorization for 20 new resources in a plain loop — no help to
/// make the calls arrive together — and the decisions requests each burst cost are counted.
/// Run it beside `stress --cpu 2` to see whether coalescing depends on the scheduler:
/// `accessenabler bench --driver authorizationBurst --count 100`.
public enum AuthorizationBurstDriver {
    /// The flow's name on the command line.
    public static let flow = "authorizationBurst"

    /// Runs `count` bursts; returns how many cost the minimum number of requests. `report`
    /// hears how many requests each burst cost, counted.
    public static func run(count: Int, report: @Sendable (String) -> Void) async -> Int {
        let size = RoundTripMeasurement.burstSize
        let limit = 5
        let minimum = (size + limit - 1) / limit
        let sandbox = PassSandbox(world: .default, clock: SandboxClock())
        let transport = CountingTransport(sandbox.inProcessTransport)
        let factory = BenchmarkClientFactory(
            baseURL: sandbox.baseURLForLinks, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 10)
        let scratch = BenchmarkScratch("burst-driver")
        defer { scratch.remove() }
        let device = SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
        let observer = BenchmarkObserver()
        let client = factory.make(
            storage: scratch.storage("device"), partner: device, transport: transport, observer: observer)
        client.setRequestor("REF30")
        await client.waitUntilIdle()
        guard observer.snapshot.requestorStatus == 1 else {
            report("\(flow): the device did not sign in")
            return 0
        }
        let start = Date()
        var costs: [Int: Int] = [:]
        var answeredAll = true
        for round in 0..<count {
            observer.reset()
            transport.reset()
            // New resources each time: a media token already held would answer without a request.
            for index in 1...size { client.checkAuthorization("burst\(round)-resource\(index)") }
            await client.waitUntilIdle()
            costs[transport.count, default: 0] += 1
            answeredAll = answeredAll && observer.snapshot.tokens + observer.snapshot.tokenFailures == size
        }
        let counted = costs.keys.sorted().map { "\($0) requests: \(costs[$0] ?? 0)" }.joined(separator: ", ")
        let atMinimum = costs[minimum] ?? 0
        report(
            "\(flow): \(atMinimum) of \(count) bursts of \(size) calls at the minimum (\(minimum) requests);"
                + " \(counted)\(answeredAll ? "" : "; some calls ended in no callback")"
                + " in \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
        return answeredAll ? atMinimum : 0
    }
}
