import Foundation
import Testing

/// Seeded random runs of the whole facade against PassSandbox (see ``RandomRun``): on the
/// manual clock in-process, and on the wall clock over loopback HTTP with real dispatch
/// timers. Each run must end every call in exactly one terminal callback, settle within its
/// bound after every step, and not crash.
///
/// The seeds are fixed here. To run others by hand:
/// `ACCESSENABLER_RANDOM_SEEDS=1-500 ACCESSENABLER_RANDOM_ACTIONS=80 swift test --filter RandomRobustnessTests`
/// (a list `3,17,40` works too); the seeds given then replace both lists below, and
/// `ACCESSENABLER_RANDOM_REPORT=1` prints each run's call count and time.
@Suite("Random robustness", .timeLimit(.minutes(20)))
struct RandomRobustnessTests {
    static let manualSeeds: [UInt64] = RandomRunSeeds.fromEnvironment ?? Array(1...12)
    static let wallSeeds: [UInt64] = RandomRunSeeds.fromEnvironment ?? [1001, 1002, 1003, 1004]

    @Test(arguments: manualSeeds)
    func onTheManualClockInProcess(seed: UInt64) async throws {
        try await Self.check(RandomRun.Settings(seed: seed, actions: RandomRunSeeds.actions ?? 60, clock: .manual))
    }

    @Test(arguments: wallSeeds)
    func onTheWallClockOverLoopbackHTTP(seed: UInt64) async throws {
        try await Self.check(RandomRun.Settings(seed: seed, actions: RandomRunSeeds.actions ?? 40, clock: .wall))
    }

    private static func check(_ settings: RandomRun.Settings) async throws {
        let run = try RandomRun(settings)
        let started = Date()
        let problems = await run.run()
        if RandomRunSeeds.report {
            print(
                "random run: \(run.label): \(run.callCount) calls in \(String(format: "%.2f", Date().timeIntervalSince(started))) s"
            )
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(run.callCount > settings.actions / 2, "the run made calls")
    }
}

/// The seeds and action count a person asks for through the environment.
enum RandomRunSeeds {
    /// `ACCESSENABLER_RANDOM_SEEDS`: `1-500`, or a list `3,17,40`; `nil` when unset.
    static let fromEnvironment: [UInt64]? = {
        guard let text = ProcessInfo.processInfo.environment["ACCESSENABLER_RANDOM_SEEDS"], !text.isEmpty else {
            return nil
        }
        var seeds: [UInt64] = []
        for part in text.split(separator: ",") {
            let bounds = part.split(separator: "-").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
            if bounds.count == 2, bounds[0] <= bounds[1] {
                seeds += Array(bounds[0]...bounds[1])
            } else if bounds.count == 1 {
                seeds.append(bounds[0])
            }
        }
        return seeds.isEmpty ? nil : seeds
    }()

    /// `ACCESSENABLER_RANDOM_REPORT=1`: print each run's calls and time.
    static let report = ProcessInfo.processInfo.environment["ACCESSENABLER_RANDOM_REPORT"] != nil

    /// `ACCESSENABLER_RANDOM_ACTIONS`: actions per run.
    static let actions: Int? = ProcessInfo.processInfo.environment["ACCESSENABLER_RANDOM_ACTIONS"].flatMap(Int.init)
}
