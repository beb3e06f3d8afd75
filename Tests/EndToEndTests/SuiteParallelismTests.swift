import Foundation
import SuiteParallelism
import Synchronization
import Testing

/// A plain `swift test` runs a bounded number of test cases at once (see
/// Tests/SuiteParallelism): a test that has started keeps its share of the machine, so its
/// waits measure its own work, not the whole run's.
@Suite struct SuiteParallelismTests {
    /// The test cases of ``aBoundedNumberOfTestCasesRunAtOnce(_:)`` running now.
    private static let running = Mutex(0)

    @Test func theBoundIsInForce() {
        #expect(suite_parallelism_width() >= 1, "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH is set for the run")
    }

    /// More cases than the bound allows at once, each staying until the others had a
    /// chance to start: without the bound they would all run at once.
    @Test(arguments: 0..<256)
    func aBoundedNumberOfTestCasesRunAtOnce(_ index: Int) async throws {
        let width = Int(suite_parallelism_width())
        try #require(width >= 1 && width <= 128, "this test needs a bound of at most 128")
        let now = Self.running.withLock { count in
            count += 1
            return count
        }
        defer { Self.running.withLock { $0 -= 1 } }
        #expect(now <= width, "\(now) cases of this test ran at once; the bound is \(width)")
        // Stay a while, so that unbounded, the other cases would have started meanwhile.
        try await Task.sleep(nanoseconds: 100_000_000)
    }
}
