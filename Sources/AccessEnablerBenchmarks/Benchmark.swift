import AccessEnablerScenarios
import Foundation

/// The benchmark behind `accessenabler bench`: five measurements against embedded
/// PassSandbox instances, reported next to their goals. Every part is bounded in time and
/// count, and all traffic stays on 127.0.0.1.
///
/// 1. REST round trips per flow next to the minimum the flow needs;
/// 2. CPU time per flow with the in-process transport (live, and SDK-only by replay);
/// 3. the partner SSO sign-in over loopback HTTP against bare URLSession calls;
/// 4. many simulated devices signing in through SSO at once against one sandbox;
/// 5. the sandbox's requests per second on keep-alive connections.
public struct Benchmark: Sendable {
    /// Iteration counts and bounds for one run.
    struct Settings: Sendable {
        var cpuCycles: Int
        var cpuWarmups: Int
        var latencyRounds: Int
        var latencyWarmups: Int
        var devices: Int
        var devicesDeadline: Double
        var throughputConnections: Int
        var throughputSeconds: Double

        static let full = Settings(
            cpuCycles: 300, cpuWarmups: 20, latencyRounds: 100, latencyWarmups: 5, devices: 1_000, devicesDeadline: 120,
            throughputConnections: 4, throughputSeconds: 2)
        static let quick = Settings(
            cpuCycles: 3, cpuWarmups: 1, latencyRounds: 3, latencyWarmups: 1, devices: 20, devicesDeadline: 20,
            throughputConnections: 2, throughputSeconds: 0.25)
    }

    let settings: Settings

    /// Creates a benchmark; `quick` uses tiny iteration counts (a smoke test, not figures).
    public init(quick: Bool) {
        settings = quick ? .quick : .full
    }

    /// The keys of the measurements, in running order; ``run(only:progress:)`` takes one.
    public static let measurementKeys = ["roundTrips", "cpuPerFlow", "ssoLatency", "manyDevices", "sandboxThroughput"]

    /// Runs every measurement in turn, or only the one whose key is `only` (one of
    /// ``measurementKeys``); `progress` hears what is about to run.
    public func run(only: String? = nil, progress: @Sendable (String) -> Void) async throws -> Report {
        let settings = self.settings
        let steps: [(key: String, announcement: String, measure: () async throws -> Section)] = [
            ("roundTrips", "counting REST round trips per flow…", { try await RoundTripMeasurement.run() }),
            ("cpuPerFlow", "measuring CPU time per flow (\(settings.cpuCycles) runs each, live and replayed)…",
             { await CPUTimeMeasurement.run(cycles: settings.cpuCycles, warmups: settings.cpuWarmups) }),
            ("ssoLatency", "timing the SSO sign-in over loopback HTTP against bare URLSession calls (\(settings.latencyRounds) rounds)…",
             { try await SSOLatencyMeasurement.run(rounds: settings.latencyRounds, warmups: settings.latencyWarmups) }),
            ("manyDevices", "signing in \(settings.devices) simulated devices at once…",
             { try await ManyDevicesMeasurement.run(devices: settings.devices, deadline: settings.devicesDeadline) }),
            ("sandboxThroughput", "measuring sandbox requests per second on \(settings.throughputConnections) keep-alive connections…",
             { try await SandboxThroughputMeasurement.run(connections: settings.throughputConnections, seconds: settings.throughputSeconds) }),
        ]
        let chosen = steps.filter { only == nil || $0.key == only }
        var sections: [Section] = []
        for (index, step) in chosen.enumerated() {
            progress("\(index + 1)/\(chosen.count) \(step.announcement)")
            sections.append(try await step.measure())
        }
        return Report(machine: .current, sections: sections)
    }
}
