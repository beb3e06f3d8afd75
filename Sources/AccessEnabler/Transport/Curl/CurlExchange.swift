import Foundation
import Synchronization

/// One request on its way through the libcurl event loop, and the caller waiting for it.
///
/// The caller's side ends exactly once, with whichever comes first: the transfer's outcome
/// or its deadline (both on the event loop's thread), or the caller's cancellation (on the
/// cancelling thread). The libcurl side — the easy handle, its header list and error
/// buffer, what was received — belongs to the event loop's thread alone.
final class CurlExchange: @unchecked Sendable {
    typealias Outcome = Result<HTTPResponseMessage, TransportFailure>

    let plan: CurlRequestPlan
    /// Past this (uptime nanoseconds) the exchange ends with ``TransportFailure/timedOut``.
    let deadline: UInt64
    /// The host its connection is pooled under.
    let host: String

    // The event loop's thread only.
    var easy: OpaquePointer?
    var headerList: OpaquePointer?
    var errorBuffer: UnsafeMutablePointer<CChar>?
    var reception: CurlReception
    /// How much of the request body libcurl has read.
    var bodySent = 0

    private struct Waiting {
        var continuation: CheckedContinuation<Outcome, Never>?
        /// The outcome, when it came before the continuation was installed.
        var early: Outcome?
        var finished = false
    }

    private let waiting = Mutex(Waiting())

    init(plan: CurlRequestPlan, deadline: UInt64) {
        self.plan = plan
        self.deadline = deadline
        host = KeptAliveConnections.key(for: plan.url)
        reception = CurlReception(limit: plan.limit)
    }

    /// Whether the caller's side has ended.
    var isFinished: Bool { waiting.withLock { $0.finished } }

    /// Installs the caller's continuation: `false` (and the continuation resumed at once)
    /// when the exchange already ended, so it need not be started.
    func install(_ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
        let early: Outcome? = waiting.withLock { state in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(returning: early)
        return false
    }

    /// Ends the caller's side with `outcome`: `true` when this call ended it, `false` when
    /// it had ended already.
    @discardableResult
    func finish(_ outcome: Outcome) -> Bool {
        let (ended, continuation): (Bool, CheckedContinuation<Outcome, Never>?) = waiting.withLock { state in
            guard !state.finished else { return (false, nil) }
            state.finished = true
            defer { state.continuation = nil }
            if state.continuation == nil { state.early = outcome }
            return (true, state.continuation)
        }
        continuation?.resume(returning: outcome)
        return ended
    }
}
