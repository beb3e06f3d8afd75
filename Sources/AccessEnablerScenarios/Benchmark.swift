import Foundation

/// The benchmark behind `accessenabler bench` (being written).
public struct Benchmark: Sendable {
    /// The figures measured.
    public struct Report: Sendable {
        public var table: String
        public var json: String
    }

    let quick: Bool

    /// Creates a benchmark; `quick` uses fewer iterations.
    public init(quick: Bool) { self.quick = quick }

    /// Runs every measurement.
    public func run(progress: @Sendable (String) -> Void) async throws -> Report {
        struct NotYet: Error {}
        throw NotYet()
    }
}
