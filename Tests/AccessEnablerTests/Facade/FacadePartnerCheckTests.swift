import Foundation
import Testing

@testable import AccessEnabler

/// checkAuthentication answered outside the engine when the partner framework must be asked:
/// a partner that answers at once leaves no deadline behind, one that suspends gets a
/// deadline and its answer is used, one that never answers is answered at the deadline (its
/// late answer dropped), a permission the partner had at hand is not asked again. Each
/// check gives the engine's turn back.
@Suite struct FacadePartnerCheckTests {
    /// Records the callbacks; resumes a waiter at `setAuthenticationStatus`.
    final class Recorder: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
        private let lock = NSLock()
        private var log: [String] = []
        let ended = DispatchSemaphore(value: 0)

        var callbacks: [String] { lock.withLock { log } }

        func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
            lock.withLock { log.append("setAuthenticationStatus(\(status),\(code))") }
            ended.signal()
        }

        func sendTrackingData(_ data: [String], forEventType event: Int32) {
            lock.withLock { log.append("sendTrackingData(\(event),\(data.first ?? ""))") }
        }

        func status(_ status: AdvancedStatus) { lock.withLock { log.append("status(\(status.errorId))") } }
    }

    /// Answers the permission query when told to (or at once, or never).
    final class Partner: PartnerFramework, @unchecked Sendable {
        enum Timing { case atOnce, whenReleased }
        private let lock = NSLock()
        private let timing: Timing
        private var waiting: CheckedContinuation<Void, Never>?
        private var released = false

        init(_ timing: Timing) { self.timing = timing }

        func accessStatus(prompt: Bool) async -> PartnerAccessResult {
            if timing == .whenReleased {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now: Bool = lock.withLock {
                        if released { return true }
                        waiting = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            return .granted
        }

        func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError)
            -> PartnerAccountMetadata
        {
            PartnerAccountMetadata(
                accountProviderIdentifier: "AppleBoarded",
                authenticationExpirationDate: MachineHarness.start.addingTimeInterval(86_400))
        }

        func release() {
            let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
                released = true
                defer { waiting = nil }
                return waiting
            }
            waiter?.resume()
        }
    }

    /// Has the permission, and the account when `accountAtHand`, at hand; counts each call.
    final class AtHandPartner: PartnerFramework, @unchecked Sendable {
        private let lock = NSLock()
        private let accountAtHand: Bool
        private var log: [String] = []

        init(accountAtHand: Bool) { self.accountAtHand = accountAtHand }

        var calls: [String] { lock.withLock { log } }

        private var account: PartnerAccountMetadata {
            PartnerAccountMetadata(
                accountProviderIdentifier: "AppleBoarded",
                authenticationExpirationDate: MachineHarness.start.addingTimeInterval(86_400))
        }

        func accessStatus(prompt: Bool) async -> PartnerAccessResult {
            lock.withLock { log.append("accessStatus") }
            return .granted
        }

        func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError)
            -> PartnerAccountMetadata
        {
            lock.withLock { log.append("accountMetadata") }
            return account
        }

        func accessStatusAtHand() -> PartnerAccessResult? {
            lock.withLock { log.append("accessStatusAtHand") }
            return .granted
        }

        func accountMetadataAtHand(_ request: PartnerMetadataRequest) -> Result<
            PartnerAccountMetadata, PartnerFrameworkError
        >? {
            lock.withLock { log.append("accountMetadataAtHand(\(request.isInterruptionAllowed))") }
            return accountAtHand ? .success(account) : nil
        }
    }

    struct FixedClock: TimeSource {
        var now: Date { MachineHarness.start }
    }

    private struct Rig {
        let recorder = Recorder()
        let dispatcher = CallbackDispatcher(queue: DispatchQueue(label: "partner-check-callbacks"))
        let mailbox = EngineMailbox(activity: ActivityTracker())
        let watchdog = DeadlineWatchdog(queue: DispatchQueue(label: "partner-check-watchdog"))
        let context: PartnerAuthenticationCheck.Context

        init(_ partner: any PartnerFramework, timeout: TimeInterval = 600) {
            dispatcher.setDelegate(recorder)
            dispatcher.setStatusDelegate(recorder)
            context = PartnerAuthenticationCheck.Context(
                partner: partner, clock: FixedClock(), serverClock: ServerClock(), timeout: timeout,
                tracking: TrackingFields(platform: .tvOS),
                dispatcher: dispatcher, mailbox: mailbox, watchdog: watchdog)
        }

        /// Claims the engine's turn and starts a check of an appleSSO profile of AppleBoarded.
        func check(knownAccess: PartnerAccessResult? = nil) {
            #expect(mailbox.claimIfIdle())
            let profile = MachineHarness().stored("AppleBoarded", type: .appleSSO)
            let requestor = PublishedRequestorState.Picture(
                RequestorStanding(requestorID: "REF30", state: .ready, catalog: MachineHarness.catalog))
            PartnerAuthenticationCheck(
                context, profile: profile, supportedProviders: MachineHarness.catalog.sortedMappingIDs,
                requestor: requestor, call: CallID(value: 1), knownAccess: knownAccess
            ).start()
        }

        /// Waits (bounded generously: it only guards against a hang) for the check's end, on
        /// a thread of its own: the answer of a partner that suspended is a task that needs a
        /// thread of Swift's cooperative pool, and the pool has as many as the machine has
        /// cores. Waiting on one of them could leave none for that task (and for every other
        /// test of the process) until the bound.
        func waitForAnswer() async -> Bool {
            let ended = recorder.ended
            return await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: ended.wait(timeout: .now() + 60) == .success) }
            }
        }
    }

    static let signedIn = ["sendTrackingData(0,true)", "setAuthenticationStatus(1,)"]

    @Test func aPartnerAnsweringAtOnceLeavesNoDeadline() async {
        let rig = Rig(Partner(.atOnce))
        rig.check()
        #expect(rig.watchdog.heapSize == 0, "no deadline was set, not even one cancelled at once")
        #expect(await rig.waitForAnswer())
        await rig.dispatcher.flush()
        #expect(rig.recorder.callbacks == Self.signedIn)
        #expect(rig.mailbox.claimIfIdle(), "the engine's turn was given back")
    }

    /// What a partner framework has at hand decides what is left to ask, and nothing is
    /// asked twice.
    @Test func theAnswersAtHandSayWhatIsLeftToAsk() {
        let both = AtHandPartner(accountAtHand: true)
        guard
            case .complete(let snapshot) = PartnerSignIn.silentAnswersAtHand(
                of: both, supportedProviders: ["AppleBoarded"])
        else {
            Issue.record("both answers were at hand")
            return
        }
        #expect(snapshot.access == .granted && snapshot.account?.accountProviderIdentifier == "AppleBoarded")
        #expect(both.calls == ["accessStatusAtHand", "accountMetadataAtHand(false)"])

        let accessOnly = AtHandPartner(accountAtHand: false)
        let partial = PartnerSignIn.silentAnswersAtHand(of: accessOnly, supportedProviders: ["AppleBoarded"])
        #expect(partial.access == .granted)
        if case .complete = partial { Issue.record("the account was not at hand") }

        let awaited = Partner(.atOnce)
        let none = PartnerSignIn.silentAnswersAtHand(of: awaited, supportedProviders: ["AppleBoarded"])
        #expect(none.access == nil)
    }

    @Test func aPermissionAtHandIsNotAskedAgainWhenTheAccountMustBeAwaited() async {
        let partner = AtHandPartner(accountAtHand: false)
        let rig = Rig(partner)
        rig.check(knownAccess: .granted)
        #expect(await rig.waitForAnswer())
        await rig.dispatcher.flush()
        #expect(rig.recorder.callbacks == Self.signedIn)
        #expect(partner.calls == ["accountMetadata"])
        #expect(rig.mailbox.claimIfIdle())
    }

    @Test func aPartnerThatSuspendsGetsADeadlineAndItsAnswerIsUsed() async {
        let partner = Partner(.whenReleased)
        let rig = Rig(partner)
        rig.check()
        #expect(rig.watchdog.count == 1)
        #expect(rig.recorder.callbacks.isEmpty)
        #expect(!rig.mailbox.claimIfIdle(), "the check still holds the engine's turn")
        partner.release()
        #expect(await rig.waitForAnswer())
        await rig.dispatcher.flush()
        #expect(rig.recorder.callbacks == Self.signedIn)
        #expect(rig.watchdog.count == 0, "the answer cancelled the deadline")
        #expect(rig.mailbox.claimIfIdle())
    }

    @Test func aPartnerThatNeverAnswersIsAnsweredAtTheDeadline() async {
        let partner = Partner(.whenReleased)
        let rig = Rig(partner, timeout: 0.05)
        rig.check()
        #expect(await rig.waitForAnswer())
        await rig.dispatcher.flush()
        #expect(
            rig.recorder.callbacks == [
                "status(APPL_ERROR)", "sendTrackingData(0,false)",
                "setAuthenticationStatus(0,User Not Authenticated Error)",
            ])
        // The late answer is dropped.
        partner.release()
        try? await Task.sleep(nanoseconds: 50_000_000)
        await rig.dispatcher.flush()
        #expect(rig.recorder.callbacks.count == 3)
        #expect(rig.mailbox.claimIfIdle())
    }
}
