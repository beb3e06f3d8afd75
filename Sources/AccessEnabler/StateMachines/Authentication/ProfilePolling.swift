import Foundation

/// Waiting for the profile of an authentication session by polling
/// `GET profiles/code/{code}`: after a registration code was shown for a second screen, or
/// after the login page came back to the redirect URL.
///
/// A small state machine with no I/O: *waiting* until the next poll is due, *asking*
/// while a poll is in flight, and an ending (profile, expiry, session gone) that the caller
/// acts on. REST API V2's FAQs (authentication 14–17) set its rules: poll every 3–5 seconds
/// or more, stop at the first profile, stop when the session's `notAfter` passes, and obey
/// throttling (a 429 makes the next poll wait at least a second longer).
struct ProfilePolling: Sendable, Equatable {
    /// Why the SDK polls.
    enum Origin: Sendable, Equatable {
        /// A registration code was shown; the user signs in on another device.
        case secondScreen
        /// The login page reached the redirect URL on this device.
        case redirect
    }

    /// Where the wait stands.
    enum Phase: Sendable, Equatable {
        /// The next poll is due at this instant.
        case waiting(until: Date)
        /// A poll is in flight.
        case asking
    }

    /// What a poll's answer was, reduced to what decides the next step.
    enum Answer: Sendable, Equatable {
        /// A profile: the user is signed in.
        case profile
        /// The session is open but the user has not finished signing in.
        case notYet
        /// HTTP 429: throttled; `retryAfter` when the server said how long.
        case throttled(retryAfter: TimeInterval?)
        /// No usable answer (network failure, server error, unreadable body): a second
        /// screen asks again later; after a redirect the authentication fails.
        case transientFailure
        /// The server says the session or its code no longer exists (expired, unknown).
        case sessionGone
    }

    /// What the caller does next.
    enum Step: Sendable, Equatable {
        /// Send `GET profiles/code/{code}` now.
        case ask
        /// Set a timer for this instant.
        case wait(until: Date)
        /// Stop: the profile is there.
        case signedIn
        /// Stop: the session's time is up with no profile.
        case expired
        /// Stop: the server no longer knows the session.
        case sessionGone
        /// Stop: the answer after a redirect failed (a second screen asks again instead).
        case failed
    }

    /// What the polls' failures mean for the person waiting at the TV.
    enum ReachabilityNotice: Sendable, Equatable {
        /// Adobe Pass has not answered since `since` (every poll since failed), for
        /// ``quietFailureLimit`` or longer: say so.
        case lost(since: Date)
        /// A poll answered again after ``lost(since:)``.
        case restored
    }

    /// The shortest interval between polls: REST API V2 asks for 3 seconds or more.
    static let minimumInterval: TimeInterval = 3
    /// How long polls of a second screen may fail (no answer, a server error) before the
    /// person is told (status REG404): a few polls, not the code's whole life.
    static let quietFailureLimit: TimeInterval = 30
    /// How much longer the next poll waits after a 429 at the least (Adobe's throttling
    /// expires one second after the first 429).
    static let throttleBackOff: TimeInterval = 1

    let session: AuthenticationSession
    let origin: Origin
    /// Seconds between polls, never under ``minimumInterval`` nor over a minute (the
    /// configuration's range; one that is not a number is the minimum).
    let interval: TimeInterval
    private(set) var phase: Phase
    /// Polls sent so far.
    private(set) var polls = 0
    /// The last time Adobe Pass answered: the session's opening, then every good poll.
    private(set) var lastHeardFrom: Date
    /// Whether ``ReachabilityNotice/lost(since:)`` was given and no good answer came since.
    private(set) var reportedUnreachable = false

    /// Starts waiting for `session`'s profile. A second screen waits one interval before
    /// its first poll (the person has just been shown the code); after a redirect the
    /// first poll goes at once.
    init(session: AuthenticationSession, origin: Origin, interval: TimeInterval, now: Date) {
        self.session = session
        self.origin = origin
        self.interval = ConfigurationRanges.clamp(
            interval, to: Self.minimumInterval...ConfigurationRanges.secondScreenPollInterval.upperBound,
            orElse: Self.minimumInterval)
        lastHeardFrom = now
        switch origin {
        case .secondScreen: phase = .waiting(until: min(now.addingTimeInterval(self.interval), session.notAfter))
        case .redirect:
            phase = .asking
            polls = 1
        }
    }

    /// The first step: `.ask` after a redirect, a timer for a second screen.
    var firstStep: Step {
        switch phase {
        case .asking: .ask
        case .waiting(let until): .wait(until: until)
        }
    }

    /// The timer fired at `now`; `nil` when no timer was due (a poll is in flight: a late
    /// timer of an earlier wait changes nothing).
    mutating func timerFired(now: Date) -> Step? {
        guard case .waiting(let until) = phase else { return nil }
        if now >= session.notAfter { return .expired }
        // A timer that fired early (a wall clock that moved) waits for the rest.
        guard now >= until else { return .wait(until: until) }
        phase = .asking
        polls += 1
        return .ask
    }

    /// Asks at once instead of waiting for the timer (the redirect arrived again); `nil`
    /// when a poll is already in flight.
    mutating func pollNow() -> Step? {
        guard case .waiting = phase else { return nil }
        phase = .asking
        polls += 1
        return .ask
    }

    /// What a poll's answer at `now` changes for the person waiting: on a second screen, a
    /// failed poll when Adobe Pass has not answered for ``quietFailureLimit`` or longer
    /// (once, until Adobe Pass answers again), or the first answer after that (a 429
    /// included: the server is there).
    mutating func reachability(after answer: Answer, now: Date) -> ReachabilityNotice? {
        switch answer {
        case .transientFailure:
            guard origin == .secondScreen, !reportedUnreachable,
                now.timeIntervalSince(lastHeardFrom) >= Self.quietFailureLimit
            else { return nil }
            reportedUnreachable = true
            return .lost(since: lastHeardFrom)
        case .profile, .notYet, .sessionGone, .throttled:
            lastHeardFrom = now
            defer { reportedUnreachable = false }
            return reportedUnreachable ? .restored : nil
        }
    }

    /// A poll answered at `now`.
    mutating func answered(_ answer: Answer, now: Date) -> Step {
        switch answer {
        case .profile: return .signedIn
        case .sessionGone: return .sessionGone
        // After a redirect the login is over: a failed answer ends it (N500), as a single
        // profile request always did. A second screen may still be typing: ask again.
        case .transientFailure where origin == .redirect: return .failed
        case .notYet, .transientFailure, .throttled:
            if now >= session.notAfter { return .expired }
            var next = now.addingTimeInterval(interval)
            if case .throttled(let retryAfter) = answer {
                next.addTimeInterval(max(retryAfter ?? 0, Self.throttleBackOff))
            }
            let until = min(next, session.notAfter)
            phase = .waiting(until: until)
            return .wait(until: until)
        }
    }
}
