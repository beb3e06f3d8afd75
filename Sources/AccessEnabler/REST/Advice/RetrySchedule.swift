import Foundation

/// When an answer whose enhanced error says `retry` (a code filed under that action, or the
/// action itself) is asked again: after 1 s, then after 2 s — each wait ± 20 % jitter
/// (``RetryJitter``), longer when the answer's `Retry-After` says so — and never a third
/// time (Adobe's checklist: "limits retries to a reasonable number (2-3)"; the AI rules ask
/// for a back-off). The same schedule serves a whole request (``BackOffPolicy``) and the
/// decisions inside a `200` (``DecisionRetries``).
enum RetrySchedule {
    /// How many times one request (or one decision) is asked again at most.
    static let limit = 2

    /// The wait before retry number `retry` (1 for the first), before jitter.
    static func nominalWait(retry: Int) -> TimeInterval {
        retry <= 1 ? 1 : 2
    }
}
