import Foundation
import Testing

@testable import AccessEnabler

/// ``PreauthorizationRound/split(refused:)``: a request Adobe Pass refuses with
/// `too_many_resources` is asked again in halves, never the same list twice, with at most
/// ⌈log2 n⌉ refusals for a first request of n resources, whatever the server's limit.
@Suite struct StateMachinePreauthorizationSplitTests {
    private func round(_ resources: [String], limit: Int?) -> PreauthorizationRound {
        let harness = MachineHarness(settings: MachineHarness.settings())
        let ledger = PreauthorizationLedger(requested: resources, cached: [:], useCache: false, now: harness.now)
        var round = PreauthorizationRound(
            first: PreauthorizationRound.Call(owner: nil, answer: .legacy, ledger: ledger),
            profile: harness.stored("Plain1"),
            partnerStatus: nil, snapshot: nil)
        round.close(limit: limit)
        return round
    }

    /// Plays a server whose limit is `serverLimit`; returns every list it was asked, and
    /// which it refused.
    private func play(resources: Int, configured: Int?, serverLimit: Int) -> (asked: [[String]], refused: [[String]]) {
        let names = (1...resources).map { "r\($0)" }
        var round = round(names, limit: configured)
        var asked: [[String]] = []
        var refused: [[String]] = []
        var ticket: UInt64 = 0
        while let batch = round.nextBatch {
            ticket += 1
            round.sent(as: RequestTicket(value: ticket))
            guard let request = round.answered(RequestTicket(value: ticket)) else { break }
            asked.append(batch)
            if batch.count > serverLimit {
                refused.append(batch)
                if round.split(refused: request) == nil {
                    round.stop(.server(operation: .preauthorize, httpStatus: 403, error: nil))
                }
            } else {
                round.record(batch.map { Decision(resource: $0, authorized: true) })
            }
        }
        return (asked, refused)
    }

    @Test func everyResourceIsAnsweredAndNoListIsAskedTwice() {
        for resources in 1...24 {
            for configured in [nil, 5] as [Int?] {
                for serverLimit in 1...8 {
                    let (asked, refused) = play(resources: resources, configured: configured, serverLimit: serverLimit)
                    let configuredText = configured.map(String.init) ?? "nil"
                    let context = "\(resources) resources, configured \(configuredText), server \(serverLimit)"
                    #expect(
                        Set(asked.map { $0.joined(separator: ",") }).count == asked.count,
                        "a list asked twice: \(context)")
                    let first = min(resources, configured ?? resources)
                    let bound = Int(ceil(log2(Double(max(first, 1)))))
                    #expect(refused.count <= bound, "\(refused.count) refusals > ⌈log2 \(first)⌉: \(context)")
                    let answered = Set(asked.filter { $0.count <= serverLimit }.flatMap { $0 })
                    #expect(answered.count == resources, "every resource is answered: \(context)")
                }
            }
        }
    }

    @Test func theRefusedListIsHalvedRoundingUp() {
        let (asked, refused) = play(resources: 12, configured: 5, serverLimit: 2)
        #expect(refused.map(\.count) == [5, 3])
        #expect(asked.map(\.count) == [5, 3, 2, 2, 2, 2, 2, 2])
    }
}
