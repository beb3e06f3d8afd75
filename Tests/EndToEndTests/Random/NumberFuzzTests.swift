import Foundation
import Testing

/// Seeded runs of every flow while Adobe Pass's answers carry extreme numbers (see
/// ``NumberFuzzRun`` and ``NumberFuzzer``) and some launches have a configuration of
/// extremes: every call ends in exactly one terminal callback and the process never stops.
/// On the manual clock in-process for most seeds, over loopback HTTP for a few.
///
/// The seeds are fixed here; to run others: `ACCESSENABLER_RANDOM_SEEDS=1-500 swift test
/// --filter NumberFuzzTests` (the seeds then replace both lists).
@Suite("Numbers from outside, fuzzed", .timeLimit(.minutes(20)))
struct NumberFuzzTests {
    static let inProcessSeeds: [UInt64] = RandomRunSeeds.fromEnvironment ?? Array(1...24)
    static let loopbackSeeds: [UInt64] = RandomRunSeeds.fromEnvironment ?? [101, 102]

    /// The operations whose answers the SDK reads: each must have been fuzzed by the seeds
    /// above, or the test proves less than it says.
    static let everyOperation = [
        "dcrRegister", "dcrToken", "configuration", "profiles", "profileForMVPD", "profileForCode", "createSession",
        "partnerSession", "partnerProfile", "authorize", "preauthorize", "logout",
    ]

    @Test func inProcessOnTheManualClock() async throws {
        var changed: [String: Int] = [:]
        var calls = 0
        for seed in Self.inProcessSeeds {
            let run = try NumberFuzzRun(NumberFuzzRun.Settings(seed: seed, wire: .inProcess))
            let problems = await run.run()
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            changed.merge(run.fuzzer.changedByOperation, uniquingKeysWith: +)
            calls += run.callCount
        }
        #expect(calls > 40 * Self.inProcessSeeds.count)
        if RandomRunSeeds.fromEnvironment == nil {
            let missed = Self.everyOperation.filter { (changed[$0] ?? 0) == 0 }
            #expect(missed.isEmpty, "answers never fuzzed: \(missed); fuzzed: \(changed)")
        }
    }

    @Test(arguments: loopbackSeeds)
    func overLoopbackHTTP(seed: UInt64) async throws {
        let run = try NumberFuzzRun(NumberFuzzRun.Settings(seed: seed, wire: .loopbackHTTP))
        let problems = await run.run()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
