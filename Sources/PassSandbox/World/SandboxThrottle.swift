/// Adobe Pass's throttling, as a world option: a token bucket per device that refills at
/// ``requestsPerSecond`` and holds the current request plus ``burst`` more, so a fresh
/// device may send `burst + 1` requests at once and then one per `1 / requestsPerSecond`
/// seconds. Adobe's default is 1 request per second with a burst of 10; a refused request
/// is answered `429 Too Many Requests` with an HTML body.
///
/// In the world file: `"throttle": {"requestsPerSecond": 1, "burst": 10}`, optionally
/// with `"retryAfter": 1` to send a `Retry-After` header (Adobe's sample sends none).
public struct SandboxThrottle: Codable, Sendable, Equatable {
    /// How fast a device's bucket refills, in requests per second (positive).
    public var requestsPerSecond: Double
    /// How many requests beyond the steady rate a device may send at once (zero or more).
    public var burst: Int
    /// Seconds written in a `Retry-After` header on every 429; `nil` sends none.
    public var retryAfter: Int?

    /// Creates a throttle; Adobe's documented limits by default.
    public init(requestsPerSecond: Double = 1, burst: Int = 10, retryAfter: Int? = nil) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.retryAfter = retryAfter
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case requestsPerSecond, burst, retryAfter }

    /// The problem with these values, or `nil` when they are usable.
    var problem: (key: String, text: String)? {
        if !(requestsPerSecond > 0) || !requestsPerSecond.isFinite {
            return ("requestsPerSecond", "must be a positive number")
        }
        if burst < 0 { return ("burst", "must not be negative") }
        if let retryAfter, retryAfter <= 0 { return ("retryAfter", "must be positive") }
        return nil
    }
}
