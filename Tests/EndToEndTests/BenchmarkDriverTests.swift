import AccessEnablerBenchmarks
import Foundation
import Testing

/// The bench's `--driver` flows (what callgrind, `strace -c -f` and `perf stat` are pointed
/// at), each run a few rounds: every round ends as the flow expects, and the line each driver
/// prints says so. A flow that silently stopped doing its work would count nothing worth
/// measuring; these make it fail here instead.
@Suite struct BenchmarkDriverTests {
    static let rounds = 3

    /// What a driver printed, collected.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test(arguments: InstructionCountDriver.flows)
    func theInstructionCountFlowsEndAsExpected(flow: String) async {
        let lines = Lines()
        let done = await InstructionCountDriver.run(flow: flow, count: Self.rounds, report: lines.append)
        #expect(done == Self.rounds, "\(lines.all)")
    }

    @Test(arguments: CurlSignInDriver.flows)
    func theLibcurlSignInsEndWithTheDeviceSignedIn(flow: String) async {
        let lines = Lines()
        let done = await CurlSignInDriver.run(flow: flow, count: Self.rounds, report: lines.append)
        #expect(done == Self.rounds, "\(lines.all)")
        #expect(lines.all.last?.hasPrefix("\(flow): \(Self.rounds) of \(Self.rounds) as expected") == true)
    }

    @Test func theBareSignInCreatesTheProfileEachRound() async {
        let lines = Lines()
        #expect(await BareSignInDriver.run(count: Self.rounds, report: lines.append) == Self.rounds, "\(lines.all)")
    }

    @Test(arguments: FloorDriver.flows)
    func theFloorProgramAnswersEachCheck(flow: String) async {
        let lines = Lines()
        #expect(await FloorDriver.run(flow: flow, count: Self.rounds, report: lines.append) == Self.rounds)
    }

    /// Every call of every burst ends in its callback, and the line counts the bursts by what
    /// they cost. (How many reach the minimum is the driver's measurement, left to the bench:
    /// a busy machine may hold the app's loop longer than the quiet window.)
    @Test func everyCallOfEveryAuthorizationBurstIsAnswered() async {
        let lines = Lines()
        _ = await AuthorizationBurstDriver.run(count: Self.rounds, report: lines.append)
        let line = lines.all.last ?? ""
        #expect(line.contains("of \(Self.rounds) bursts of 20 calls at the minimum (4 requests)"), "\(line)")
        #expect(!line.contains("no callback"), "\(line)")
    }
}
