import Foundation
import Synchronization

/// Adobe Pass throttling, remembered per host for one AccessEnabler: after a
/// `429 Too Many Requests` every later request to that host waits until at least one second
/// after the `429` arrived (longer when its `Retry-After` says so).
///
/// Adobe Pass allows one request per second per device after a burst of ten, and its
/// throttling lasts one second after the first `429`; a request sent earlier only earns
/// another `429`. One gate is shared by every REST client of an AccessEnabler (the
/// configured environment and any extra service provider URL, and their DCR calls), so no
/// client of the app keeps knocking while another waits.
///
/// Waiting costs no thread and no busy loop: waiters sleep on the ``Sleeper`` until the
/// host's deadline, all waking together when it passes; a new `429` meanwhile moves the
/// deadline and they sleep on. No request waits longer than it may (its request timeout):
/// one that would is refused its turn at once, with the time left. Time is read from and
/// waited on the configuration's clock, so a test or a scenario moves a manual clock instead
/// of waiting. Thread-safe (one mutex).
final class ThrottleGate: Sendable {
    /// Where the gate reads the time.
    let clock: any TimeSource
    /// What waits until a deadline on ``clock``.
    let sleeper: any Sleeper
    /// How long a `429` holds the host back, and what the chain retries (the one policy of
    /// the AccessEnabler's clients).
    let policy: BackOffPolicy
    /// The random part of a retry's wait.
    let jitter: RetryJitter

    /// Until when each throttled host waits.
    private let deadlines = Mutex<[String: Date]>([:])

    /// Creates a gate reading `clock`.
    ///
    /// - Parameter sleeper: waits on `clock`; by default the clock itself when it is a
    ///   ``Sleeper`` (a manual clock), else a ``SystemSleeper`` over it.
    init(
        clock: any TimeSource = SystemTimeSource(), sleeper: (any Sleeper)? = nil,
        policy: BackOffPolicy = BackOffPolicy(), jitter: RetryJitter = .random
    ) {
        self.clock = clock
        self.sleeper = sleeper ?? (clock as? any Sleeper) ?? SystemSleeper(clock: clock)
        self.policy = policy
        self.jitter = jitter
    }

    /// The key throttling is kept under: the URL's host and port (two servers on one
    /// loopback address are throttled apart).
    static func key(for url: URL) -> String {
        let host = url.host?.lowercased() ?? ""
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// Until when requests to `host` wait, when they do.
    func deadline(forHost host: String) -> Date? {
        deadlines.withLock { $0[host] }
    }

    /// Why a request did not get its turn.
    enum TurnRefused: Error, Sendable, Equatable {
        /// The task was cancelled while it waited.
        case cancelled
        /// The host stays throttled longer than the request may wait: `remaining` seconds more.
        case throttled(remaining: TimeInterval)
    }

    /// Returns once `host` may be sent a request: at once when it is not throttled, else
    /// when the sleeper says the host's deadline has come. A new `429` that moved the
    /// deadline meanwhile is waited out too.
    ///
    /// - Parameter patience: the longest the request may wait, in all (its request
    ///   timeout). When the host's deadline lies further ahead, the request gets no turn:
    ///   ``TurnRefused/throttled(remaining:)`` at once, with the time left, instead of a wait.
    /// - Throws: ``TurnRefused/cancelled`` at once when the task is cancelled during a wait.
    func waitForTurn(host: String, patience: TimeInterval = .infinity) async throws(TurnRefused) {
        let arrived = clock.now
        var waited: Date?
        while true {
            let now = clock.now
            let deadline: Date? = deadlines.withLock { deadlines in
                guard let deadline = deadlines[host] else { return nil }
                if deadline <= now {
                    deadlines[host] = nil
                    return nil
                }
                return deadline
            }
            // Past the deadline already waited for: a clock that the sleeper does not move
            // (one read elsewhere) must not hold the request forever.
            guard let deadline, deadline > (waited ?? .distantPast) else { return }
            // Written so that a patience that is not a number allows no wait at all.
            guard deadline.timeIntervalSince(arrived) <= patience else {
                throw .throttled(remaining: deadline.timeIntervalSince(now))
            }
            do {
                try await sleeper.sleep(until: deadline)
            } catch {
                throw .cancelled
            }
            waited = deadline
        }
    }

    /// Notes a `429` from `host` that arrived at `arrival`, with the `Retry-After` delay
    /// when there was one; returns the host's deadline (never earlier than one already set).
    @discardableResult
    func recordThrottling(host: String, retryAfter: TimeInterval?, arrival: Date) -> Date {
        let deadline = arrival.addingTimeInterval(policy.wait(retryAfter: retryAfter))
        return deadlines.withLock { deadlines in
            let moved = max(deadlines[host] ?? deadline, deadline)
            deadlines[host] = moved
            return moved
        }
    }
}
