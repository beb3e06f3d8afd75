import Foundation
import Synchronization

/// A `checkAuthentication` answered outside the engine, while the facade holds the
/// engine's turn (``EngineMailbox/claimIfIdle()``), when the answer needs only the partner
/// framework's two silent answers: an `appleSSO` profile (a revoked permission or a system
/// sign-out must show at the very next check, so nothing is cached), or no valid regular
/// profile while partner single sign-on applies.
///
/// A partner framework that has both answers at hand (``PartnerFramework/accessStatusAtHand()``,
/// ``PartnerFramework/accountMetadataAtHand(_:)``) needs no such check: the facade answers
/// at once. Otherwise the questions left (the permission may be known already) are asked at
/// once, on the calling thread, by a task that starts there (`Task.immediate`). A partner
/// framework that answers without suspending has answered by the time ``start()`` returns: the
/// callbacks go to the callback queue in one trip and no deadline is ever set. Only a
/// partner that suspends gets a deadline, an entry on the process's ``DeadlineWatchdog``.
/// Whichever comes first answers — the partner's snapshot, or at the deadline
/// ``PartnerSnapshot/timedOut`` (the late answer is then dropped) — and gives the engine's
/// turn back, so calls made meanwhile run after it. The answer is the engine's: the same
/// pure ``AuthenticationCheck`` decides.
final class PartnerAuthenticationCheck: DeadlineExpiring, Sendable {
    /// What every check of one AccessEnabler shares, made once: a check then holds one
    /// reference to it instead of one to each.
    final class Context: Sendable {
        let partner: any PartnerFramework
        let clock: any TimeSource
        /// How far the device clock is from Adobe Pass's.
        let serverClock: ServerClock
        /// The bound on the partner framework's answers.
        let timeout: TimeInterval
        let tracking: TrackingFields
        let dispatcher: CallbackDispatcher
        let mailbox: EngineMailbox
        /// Where the deadline goes when the partner framework suspends.
        let watchdog: DeadlineWatchdog

        init(
            partner: any PartnerFramework, clock: any TimeSource, serverClock: ServerClock, timeout: TimeInterval,
            tracking: TrackingFields,
            dispatcher: CallbackDispatcher, mailbox: EngineMailbox, watchdog: DeadlineWatchdog = .shared
        ) {
            self.partner = partner
            self.clock = clock
            self.serverClock = serverClock
            self.timeout = timeout
            self.tracking = tracking
            self.dispatcher = dispatcher
            self.mailbox = mailbox
            self.watchdog = watchdog
        }

        /// Adobe's time: the device clock corrected by the offset the server's `Date`
        /// headers showed.
        var adobeNow: Date { serverClock.adobeNow(clock) }
    }

    private let context: Context
    /// The profile in force when the call was made.
    private let profile: StoredProfile?
    /// The providers the partner framework is asked about: the configuration's, else the
    /// ones the device remembers.
    private let supportedProviders: [String]
    /// The requestor as published when the call was made.
    private let requestor: PublishedRequestorState.Picture
    /// The checkAuthentication call this answers; its callbacks carry it.
    private let call: CallID
    /// The permission, when the partner framework had it at hand (it is not asked again).
    private let knownAccess: PartnerAccessResult?
    /// Whether an answer was delivered, and the deadline set meanwhile.
    private let state = Mutex<(answered: Bool, deadline: DeadlineWatchdog.Ticket?)>((false, nil))

    /// A check of `profile` for `call`, in `context`, asking the partner framework about
    /// `supportedProviders`; `requestor` is the published picture; `knownAccess` the
    /// permission the partner framework had at hand, if any.
    init(
        _ context: Context, profile: StoredProfile?, supportedProviders: [String],
        requestor: PublishedRequestorState.Picture, call: CallID, knownAccess: PartnerAccessResult? = nil
    ) {
        self.knownAccess = knownAccess
        self.context = context
        self.profile = profile
        self.supportedProviders = supportedProviders
        self.requestor = requestor
        self.call = call
    }

    /// Asks the partner framework; the caller holds the engine's turn, which this check
    /// gives back once it has answered.
    func start() {
        let known = knownAccess
        Task.immediate { [self] in
            let snapshot = await PartnerSignIn.silentSnapshot(
                of: context.partner, supportedProviders: supportedProviders, knownAccess: known)
            answer(with: snapshot)
        }
        // Here the task has either answered or suspended inside the partner framework.
        guard !state.withLock({ $0.answered }) else { return }
        let ticket = context.watchdog.schedule(after: context.timeout, self)
        let kept: Bool = state.withLock { state in
            guard !state.answered else { return false }
            state.deadline = ticket
            return true
        }
        // The answer came in meanwhile: the deadline goes.
        if !kept { context.watchdog.cancel(ticket) }
    }

    func deadlinePassed() {
        answer(with: .timedOut)
    }

    /// Delivers the answer `snapshot` implies, unless an answer was delivered already.
    private func answer(with snapshot: PartnerSnapshot) {
        let (first, ticket): (Bool, DeadlineWatchdog.Ticket?) = state.withLock { state in
            guard !state.answered else { return (false, nil) }
            state.answered = true
            defer { state.deadline = nil }
            return (true, state.deadline)
        }
        guard first else { return }
        if let ticket { context.watchdog.cancel(ticket) }
        let callbacks = AuthenticationCheck.callbacks(
            profile: profile, mvpds: requestor.standing.catalog?.mvpdsByID, snapshot: snapshot, now: context.adobeNow,
            tracking: context.dispatcher.wantsTrackingData ? context.tracking : nil)
        // Queued under the mailbox's lock as the turn is given back: a later call's
        // callbacks cannot come first.
        let (call, dispatcher) = (call, context.dispatcher)
        context.mailbox.releaseClaim { delivered in dispatcher.dispatch(callbacks, for: call, then: delivered) }
    }
}
