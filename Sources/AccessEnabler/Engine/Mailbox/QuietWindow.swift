import Foundation
import Synchronization

/// The quiet window of a round of authorizations being gathered
/// (``EngineAction/awaitQuietWindow``): a deadline on the monotonic clock that every event
/// the engine handles pushes back, and the child task that waits for it.
///
/// The task sleeps until the deadline, looks again, and sleeps on while the deadline has
/// moved; once it finds the deadline passed it returns, and its answer
/// (``EngineEvent/quietWindowElapsed``) is posted like any child's. Starting the window
/// again while it runs only moves the deadline: one task per window, however many events
/// come. The engine counts the task as work under way, so a rig waiting for quiescence
/// waits for the window too, on any clock.
final class QuietWindow: Sendable {
    /// Uptime nanoseconds at which the window closes.
    private let deadline: Atomic<UInt64>
    private let length: UInt64
    /// Whether ``elapse()`` has returned: the window's answer is posted or about to be.
    private let finished = Atomic<Bool>(false)

    /// A window of `length`, starting now.
    init(length: Duration) {
        let (seconds, attoseconds) = length.components
        let whole = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let total = whole.partialValue.addingReportingOverflow(UInt64(clamping: attoseconds / 1_000_000_000))
        self.length = whole.overflow || total.overflow ? .max / 2 : total.partialValue
        deadline = Atomic(DispatchTime.now().uptimeNanoseconds &+ self.length)
    }

    /// An event came: the window closes `length` from now.
    func restart() {
        deadline.store(DispatchTime.now().uptimeNanoseconds &+ length, ordering: .relaxed)
    }

    /// Whether the window's wait is over, so the ``EngineEvent/quietWindowElapsed`` the
    /// engine reads may be its own (not a stopped window's).
    var hasElapsed: Bool { finished.load(ordering: .acquiring) }

    /// Returns once the deadline has passed with no restart since; early when the task is
    /// cancelled.
    func elapse() async {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let until = deadline.load(ordering: .relaxed)
            guard until > now else { return finished.store(true, ordering: .releasing) }
            do {
                try await Task.sleep(nanoseconds: until - now)
            } catch {
                return finished.store(true, ordering: .releasing)
            }
        }
    }
}
