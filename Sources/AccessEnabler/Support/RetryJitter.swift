import Foundation

/// The random part of a retry's wait: a factor around 1, so devices that failed together
/// (an MVPD's outage) do not all come back at the same instant.
struct RetryJitter: Sendable {
    /// A factor in 0.8...1.2 (± 20 %).
    let factor: @Sendable () -> Double

    /// ± 20 %, drawn from the system's random number generator.
    static let random = RetryJitter { Double.random(in: 0.8...1.2) }
    /// No jitter: every wait is the nominal one (tests that check the schedule itself).
    static let none = RetryJitter { 1 }

    /// `seconds`, jittered.
    func applied(to seconds: TimeInterval) -> TimeInterval { seconds * factor() }
}
