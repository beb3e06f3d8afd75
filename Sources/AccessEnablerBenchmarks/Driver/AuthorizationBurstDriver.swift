import AccessEnabler
import Foundation

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
        let minimum = BurstDevice.minimumRequests(for: size)
        let device = await BurstDevice(scratchName: "burst-driver")
        defer { device.remove() }
        guard device.signedIn else {
            report("\(flow): the device did not sign in")
            return 0
        }
        let start = Date()
        var costs: [Int: Int] = [:]
        var answeredAll = true
        for round in 0..<count {
            // New resources each time: a media token already held would answer without a request.
            let (requests, answered) = await device.burst((1...size).map { "burst\(round)-resource\($0)" })
            costs[requests, default: 0] += 1
            answeredAll = answeredAll && answered == size
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
