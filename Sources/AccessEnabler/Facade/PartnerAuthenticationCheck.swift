import Foundation
import Synchronization

/// A `checkAuthentication` answered outside the engine, while the facade holds the
/// engine's turn (``EngineMailbox/claimIfIdle()``), when the answer needs only the partner
/// framework's two silent answers: an `appleSSO` profile (a revoked permission or a system
/// sign-out must show at the very next check, so nothing is cached), or no valid regular
/// profile while partner single sign-on applies.
///
/// One task asks the partner framework directly and hands the callbacks to the dispatcher;
/// the deadline is an entry on the process's ``DeadlineWatchdog``. Whichever comes first
/// answers — the partner's snapshot, or at the deadline ``PartnerSnapshot/timedOut`` (the
/// late answer is then dropped) — and gives the engine's turn back, so calls made
/// meanwhile run after it. The answer is the engine's: the same pure
/// ``AuthenticationCheck`` decides.
final class PartnerAuthenticationCheck: DeadlineExpiring, Sendable {
    /// What the check reads, captured when the call is made.
    struct Inputs: Sendable {
        var partner: any PartnerFramework
        var profile: StoredProfile?
        /// The configuration, when the SDK has one (the profile is judged against it).
        var catalog: RequestorCatalog?
        /// The providers the partner framework is asked about: the configuration's, else
        /// the ones the device remembers.
        var supportedProviders: [String]
        /// Adobe's time: the device clock corrected by the offset the server's `Date`
        /// headers showed.
        var adobeNow: @Sendable () -> Date
        var timeout: TimeInterval
        var tracking: TrackingFields
    }

    private let inputs: Inputs
    /// The checkAuthentication call this answers; its callbacks carry it.
    private let call: CallID
    private let dispatcher: CallbackDispatcher
    private let mailbox: EngineMailbox
    /// Whether an answer was delivered, and the deadline set meanwhile.
    private let state = Mutex<(answered: Bool, deadline: DeadlineWatchdog.Ticket?)>((false, nil))

    init(_ inputs: Inputs, call: CallID, dispatcher: CallbackDispatcher, mailbox: EngineMailbox) {
        self.inputs = inputs
        self.call = call
        self.dispatcher = dispatcher
        self.mailbox = mailbox
    }

    /// Asks the partner framework; the caller holds the engine's turn, which this check
    /// gives back once it has answered.
    func start() {
        let ticket = DeadlineWatchdog.shared.schedule(after: inputs.timeout, self)
        let stillOpen: Bool = state.withLock { state in
            guard !state.answered else { return false }
            state.deadline = ticket
            return true
        }
        guard stillOpen else { return DeadlineWatchdog.shared.cancel(ticket) }
        // The task runs on the callback queue, so the answer is delivered where it stands.
        Task(executorPreference: dispatcher.executor) { [self] in
            let snapshot = await PartnerSignIn.silentSnapshot(of: inputs.partner, supportedProviders: inputs.supportedProviders)
            answer(with: snapshot, onCallbackQueue: true)
        }
    }

    func deadlinePassed() {
        answer(with: .timedOut, onCallbackQueue: false)
    }

    /// Delivers the answer `snapshot` implies, unless an answer was delivered already:
    /// there and then on the callback queue, else queued there.
    private func answer(with snapshot: PartnerSnapshot, onCallbackQueue: Bool) {
        let (first, ticket): (Bool, DeadlineWatchdog.Ticket?) = state.withLock { state in
            guard !state.answered else { return (false, nil) }
            state.answered = true
            defer { state.deadline = nil }
            return (true, state.deadline)
        }
        guard first else { return }
        if let ticket { DeadlineWatchdog.shared.cancel(ticket) }
        let verdict = AuthenticationCheck.verdict(profile: inputs.profile, catalog: inputs.catalog, snapshot: snapshot, now: inputs.adobeNow())
        let callbacks = AuthenticationCheck.callbacks(profile: verdict.profile, status: verdict.status, tracking: inputs.tracking)
        guard onCallbackQueue else {
            return mailbox.releaseClaim { delivered in dispatcher.dispatch(callbacks, for: call, then: delivered) }
        }
        // Calls made from now on queue their callbacks behind this task, which is on the
        // callback queue: delivering here, after giving the turn back, keeps the order (and
        // a delegate may call the facade again from its callback).
        var delivered: (@Sendable () -> Void)?
        mailbox.releaseClaim { delivered = $0 }
        dispatcher.deliverOnCallbackQueue(callbacks, for: call)
        delivered?()
    }
}
