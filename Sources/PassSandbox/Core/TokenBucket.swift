import Foundation

/// The token bucket behind throttling, as a pure value: it holds at most `capacity`
/// tokens, refills continuously at `refillPerSecond`, and each admitted request takes
/// one. Time is whatever clock the caller reads, so a manual clock refills the bucket
/// only when it moves.
///
/// With a capacity of `burst + 1` and a refill of one per second this reproduces the
/// scenario table of Adobe's throttling page exactly (see `SandboxThrottleTests`).
struct TokenBucket: Sendable, Equatable {
    let capacity: Double
    let refillPerSecond: Double
    private(set) var tokens: Double
    private(set) var updatedAt: Date

    /// A full bucket at `now`.
    init(capacity: Double, refillPerSecond: Double, now: Date) {
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
        tokens = capacity
        updatedAt = now
    }

    /// The bucket for a throttle setting: the current request plus `burst` more.
    init(_ throttle: SandboxThrottle, now: Date) {
        self.init(capacity: Double(throttle.burst) + 1, refillPerSecond: throttle.requestsPerSecond, now: now)
    }

    /// Takes one token if there is one at `now`; `false` (and nothing taken) otherwise.
    mutating func take(at now: Date) -> Bool {
        refill(to: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// `true` when the bucket would be full at `now`: forgetting it changes nothing.
    func isFull(at now: Date) -> Bool {
        var copy = self
        copy.refill(to: now)
        return copy.tokens >= capacity
    }

    /// Adds what the time since the last update earned. A clock moved backwards earns
    /// nothing (and does not take back what was earned).
    private mutating func refill(to now: Date) {
        let elapsed = now.timeIntervalSince(updatedAt)
        guard elapsed > 0 else { return }
        tokens = min(capacity, tokens + elapsed * refillPerSecond)
        updatedAt = now
    }
}
