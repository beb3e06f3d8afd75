import Foundation

/// The throttle's state: one ``TokenBucket`` per device key while throttling is on, and
/// how many requests it refused. A plain value; `PassSandbox` keeps it under a lock of
/// its own, apart from the endpoints' state.
struct SandboxThrottleGate: Sendable {
    /// The limits in force; `nil` admits everything.
    private(set) var settings: SandboxThrottle?
    /// Requests refused with 429 so far.
    private(set) var refusals = 0
    private var buckets: [String: TokenBucket] = [:]
    /// The bucket count at which full buckets are next swept out.
    private var sweepAt = Self.minimumSweepSize

    /// Below this many buckets nothing is swept.
    static let minimumSweepSize = 4_096
    /// The most devices tracked at once. Past it (after sweeping the full buckets) every
    /// bucket is forgotten, which gives each device a fresh allowance.
    static let maximumBuckets = 100_000

    init(settings: SandboxThrottle?) {
        self.settings = settings
    }

    /// Switches throttling on with new limits, or off with `nil`; every device starts
    /// over with a full bucket.
    mutating func configure(_ settings: SandboxThrottle?) {
        self.settings = settings
        buckets.removeAll()
        sweepAt = Self.minimumSweepSize
    }

    /// `true` when throttling is on.
    var isOn: Bool { settings != nil }

    /// Admits the request of `key` at `now` (taking a token from its bucket), or counts a
    /// refusal. Always admits while throttling is off.
    mutating func admit(_ key: String, now: Date) -> Bool {
        guard let settings else { return true }
        var bucket = buckets[key] ?? TokenBucket(settings, now: now)
        let admitted = bucket.take(at: now)
        buckets[key] = bucket
        if !admitted { refusals += 1 }
        if buckets.count > sweepAt { sweep(now: now) }
        return admitted
    }

    /// Forgets the buckets that are full again (they are as good as new); amortised by
    /// doubling the threshold after each sweep.
    private mutating func sweep(now: Date) {
        buckets = buckets.filter { !$0.value.isFull(at: now) }
        if buckets.count > Self.maximumBuckets { buckets.removeAll() }
        sweepAt = max(Self.minimumSweepSize, buckets.count * 2)
    }

    /// How many devices have a bucket (for tests of the sweep).
    var trackedKeyCount: Int { buckets.count }
}

extension SandboxThrottleGate {
    /// The answer to a throttled request: `429 Too Many Requests` with the HTML body of
    /// the throttling page's sample (`content-type: text/html`), and `Retry-After` when
    /// the world asks for one.
    static func tooManyRequests(retryAfter: Int?) -> SandboxResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "text/html")]
        if let retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        return SandboxResponse(status: 429, headers: headers, body: tooManyRequestsPage)
    }

    private static let tooManyRequestsPage = Array(
        """
        <html>
        <head><title>429 Too Many Requests</title></head>
        <body>
        <center><h1>429 Too Many Requests</h1></center>
        <hr><center>openresty</center>
        </body>
        </html>

        """.utf8)

    /// Whose bucket a request draws from: the device (`AP-Device-Identifier`, as sent)
    /// when the request names one; else the client application (the client of its bearer
    /// token, or the `client_id` it asks a token for); else its connection (one bucket
    /// for all in-process requests).
    static func key(for request: SandboxRequest, clientOfToken: (String) -> String?) -> String {
        if let device = request.header("AP-Device-Identifier") {
            return "device " + HTTPASCII.trimmingSpaces(device)
        }
        if let authorization = request.header("Authorization") {
            if let parts = HTTPASCII.splitOnce(authorization, at: HTTPByte.space),
                let client = clientOfToken(HTTPASCII.trimmingSpaces(String(parts.tail)))
            {
                return "client " + client
            }
        }
        let form = SandboxRequest.decodeForm(String(decoding: request.body, as: UTF8.self))
        if let client = (request.query + form).first(where: { $0.name == "client_id" && !$0.value.isEmpty })?.value {
            return "client " + client
        }
        return request.connection ?? "in-process"
    }
}
