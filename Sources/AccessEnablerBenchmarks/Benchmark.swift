import AccessEnablerScenarios
import Foundation

/// The benchmark behind `accessenabler bench`: seven measurements against embedded
/// PassSandbox instances, each figure reported next to its goal. Every part is bounded in
/// time and count, and all traffic stays on 127.0.0.1.
///
/// 1. REST round trips per flow next to the minimum the flow needs, and the polls a
///    second-screen sign-in costs;
/// 2. CPU time per flow with the in-process transport (live, and SDK-only by replay);
/// 3. the partner SSO sign-in over loopback HTTP against bare libcurl and bare URLSession calls;
/// 4. many simulated devices signing in through SSO at once against one sandbox;
/// 5. the sandbox's requests per second on keep-alive connections;
/// 6. one device's flows with Adobe's throttling on, counting the requests refused;
/// 7. the flows with a fixed delay added to every round trip, in round trips;
/// 8. the CPU a device uses while one request waits for a server that never answers.
///
/// Where a goal has a floor — what the same work costs at the least, measured in the same
/// run (checkAuthentication's floor program, the bare libcurl client) — the goal is a
/// ratio to it, so a run on any machine judges itself.
public struct Benchmark: Sendable {
    /// Iteration counts and bounds for one run.
    struct Settings: Sendable {
        var cpuCycles: Int
        var cpuWarmups: Int
        var latencyRounds: Int
        var latencyWarmups: Int
        var devices: Int
        /// Devices signing in at once in the device wave (see ``SignInSlots``).
        var deviceSlots: Int
        var throughputConnections: Int
        var throughputSeconds: Double
        /// Delayed rounds of every flow in the WAN latency measurement, after undelayed warm-ups.
        var wanRounds: Int
        var wanWarmups: Int
        /// Runs of the SSO latency measurement whose ratios give its range (`--repeat`).
        var latencyRepeats = 1
        /// Seconds one request waits for the silent server in the waiting measurement.
        var waitSeconds: Double

        /// Seconds the device wave may take: at least a minute, and time for 50 sign-ins a second.
        var devicesDeadline: Double { max(60, Double(devices) / 50) }

        static let full = Settings(
            cpuCycles: 300, cpuWarmups: 20, latencyRounds: 100, latencyWarmups: 5, devices: defaultDevices,
            deviceSlots: 64,
            throughputConnections: 4, throughputSeconds: 2, wanRounds: 5, wanWarmups: 1, waitSeconds: 5)
        static let quick = Settings(
            cpuCycles: 3, cpuWarmups: 1, latencyRounds: 3, latencyWarmups: 1, devices: 20, deviceSlots: 4,
            throughputConnections: 2, throughputSeconds: 0.25, wanRounds: 1, wanWarmups: 1, waitSeconds: 0.5)
    }

    /// Devices in the wave of a full run.
    public static let defaultDevices = 10_000

    let settings: Settings

    /// Creates a benchmark; `quick` uses tiny iteration counts (a smoke test, not figures);
    /// `devices` replaces the number of devices in the wave (at least 1); `repeats` runs the
    /// SSO latency measurement that many times and reports the range of its ratios.
    public init(quick: Bool, devices: Int? = nil, repeats: Int = 1) {
        var settings = quick ? Settings.quick : .full
        if let devices { settings.devices = max(1, devices) }
        settings.latencyRepeats = max(1, repeats)
        self.settings = settings
    }

    /// The keys of the measurements, in running order; ``run(only:progress:)`` takes one.
    public static let measurementKeys = [
        "roundTrips", "cpuPerFlow", "ssoLatency", "manyDevices", "sandboxThroughput", "throttled", "wanLatency",
        "waiting",
    ]

    /// Runs every measurement in turn, or only the one whose key is `only` (one of
    /// ``measurementKeys``); `progress` hears what is about to run. The machine (and its
    /// load average) is read before the first measurement.
    public func run(only: String? = nil, progress: @Sendable (String) -> Void) async throws -> Report {
        let machine = Machine.current
        let settings = self.settings
        let steps: [(key: String, announcement: String, measure: () async throws -> Section)] = [
            (
                "roundTrips", "counting REST round trips per flow and second-screen polls…",
                { try await RoundTripMeasurement.run() }
            ),
            (
                "cpuPerFlow", "measuring CPU time per flow (\(settings.cpuCycles) runs each, live and replayed)…",
                { await CPUTimeMeasurement.run(cycles: settings.cpuCycles, warmups: settings.cpuWarmups) }
            ),
            (
                "ssoLatency",
                "timing the SSO sign-in over loopback HTTP against bare libcurl and URLSession calls "
                    + "(\(settings.latencyRounds) rounds"
                    + "\(settings.latencyRepeats > 1 ? ", \(settings.latencyRepeats) runs" : ""))…",
                {
                    try await SSOLatencyMeasurement.run(
                        rounds: settings.latencyRounds, warmups: settings.latencyWarmups,
                        repeats: settings.latencyRepeats)
                }
            ),
            (
                "manyDevices",
                "signing in \(settings.devices) simulated devices at once with the bare client, then with the SDK…",
                {
                    try await ManyDevicesMeasurement.run(
                        .init(
                            devices: settings.devices, slots: settings.deviceSlots, deadline: settings.devicesDeadline))
                }
            ),
            (
                "sandboxThroughput",
                "measuring sandbox requests per second on \(settings.throughputConnections) keep-alive connections…",
                {
                    try await SandboxThroughputMeasurement.run(
                        connections: settings.throughputConnections, seconds: settings.throughputSeconds)
                }
            ),
            (
                "throttled", "running one device's flows with Adobe's throttling on…",
                { try await ThrottledMeasurement.run() }
            ),
            (
                "wanLatency",
                "timing the flows with \(Int(WANLatencyMeasurement.addedDelay * 1e3)) ms added to every round trip (\(settings.wanRounds) rounds)…",
                { try await WANLatencyMeasurement.run(rounds: settings.wanRounds, warmups: settings.wanWarmups) }
            ),
            (
                "waiting",
                "measuring the CPU used while one request waits \(Int(settings.waitSeconds.rounded(.up))) s for a server that never answers…",
                { try await WaitingMeasurement.run(wait: settings.waitSeconds) }
            ),
        ]
        // The idle measurement runs first, in a process nothing has run in yet: it counts the
        // CPU of the whole process, and the other measurements leave work behind them for a
        // while (thousands of stores syncing, connections and sandboxes closing) that is not
        // the waiting request's. The report keeps the order above.
        let chosen = steps.enumerated().filter { only == nil || $0.element.key == only }
            .sorted { ($0.element.key == "waiting" ? -1 : $0.offset) < ($1.element.key == "waiting" ? -1 : $1.offset) }
        var sections: [(offset: Int, section: Section)] = []
        for (index, step) in chosen.enumerated() {
            progress("\(index + 1)/\(chosen.count) \(step.element.announcement)")
            sections.append((step.offset, try await step.element.measure()))
        }
        return Report(machine: machine, sections: sections.sorted { $0.offset < $1.offset }.map(\.section))
    }
}
