import Dispatch
import Foundation

/// Something that must hear when its deadline has passed (a question the partner framework
/// has not answered in time, an exchange the transport has not finished).
protocol DeadlineExpiring: AnyObject, Sendable {
    /// Called once, on the watchdog's queue, when the deadline has passed and the deadline
    /// was not cancelled first. Keep it short: it only resumes or hands over.
    func deadlinePassed()
}

/// One dispatch timer for every deadline of the process.
///
/// Almost every deadline the SDK sets is cancelled long before it passes (answers come in
/// milliseconds, timeouts are seconds), so setting and cancelling one must cost next to
/// nothing: both take a lock and touch a dictionary and a heap, and neither creates a
/// dispatch source or wakes a thread. The one timer is moved only when a new deadline is
/// earlier than the one it is set for (with a fixed timeout, never), and it fires about
/// once per timeout, then drops the cancelled deadlines that came due and sets itself for
/// the earliest one still pending.
final class DeadlineWatchdog: @unchecked Sendable {
    /// The process's watchdog; its timer fires on ``DispatchTimerWait/queue``.
    static let shared = DeadlineWatchdog()

    /// Identifies a deadline, to cancel it.
    struct Ticket: Sendable, Equatable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        /// `DispatchTime` uptime in nanoseconds.
        var due: UInt64
        var id: UInt64
    }

    private let lock = NSLock()
    private var pending: [UInt64: any DeadlineExpiring] = [:]
    /// Min-heap on `due`; entries whose id is no longer in `pending` were cancelled.
    private var heap: [Entry] = []
    private var nextID: UInt64 = 0
    /// The instant the timer is set for, or `nil` when it is idle.
    private var armedFor: UInt64?
    private let timer: DispatchSourceTimer

    init(queue: DispatchQueue = DispatchTimerWait.queue) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in fire() }
        timer.schedule(deadline: .distantFuture, repeating: .never)
        timer.activate()
    }

    /// How many deadlines are set and not yet passed or cancelled.
    var count: Int { lock.withLock { pending.count } }

    /// How many entries the heap holds, cancelled ones included (they are dropped when they
    /// come due, and the heap is rebuilt when they outnumber the others).
    var heapSize: Int { lock.withLock { heap.count } }

    /// Calls `target.deadlinePassed()` once `seconds` have passed, unless cancelled first.
    /// Durations are clamped to between a millisecond and about 31 years.
    func schedule(after seconds: TimeInterval, _ target: any DeadlineExpiring) -> Ticket {
        let nanoseconds: UInt64 = WholeNumber.clamped(
            min(max(seconds.isNaN ? 0 : seconds, 0.001), 1_000_000_000) * 1_000_000_000)
        let due = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
        return lock.withLock {
            nextID &+= 1
            let id = nextID
            pending[id] = target
            push(Entry(due: due, id: id))
            if armedFor.map({ due < $0 }) ?? true { arm(for: due) }
            if heap.count > 64 && heap.count > 4 * pending.count { compact() }
            return Ticket(id: id)
        }
    }

    /// Cancels a deadline; harmless when it has passed or was cancelled already.
    func cancel(_ ticket: Ticket) {
        lock.withLock { _ = pending.removeValue(forKey: ticket.id) }
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [any DeadlineExpiring] = []
        lock.withLock {
            armedFor = nil
            while let top = heap.first, top.due <= now {
                popTop()
                if let target = pending.removeValue(forKey: top.id) { due.append(target) }
            }
            // Cancelled deadlines at the top never need the timer.
            while let top = heap.first, pending[top.id] == nil { popTop() }
            if let next = heap.first { arm(for: next.due) }
        }
        for target in due { target.deadlinePassed() }
    }

    /// Must be called with `lock` held.
    private func arm(for due: UInt64) {
        armedFor = due
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: due), repeating: .never, leeway: .milliseconds(1))
    }

    /// Rebuilds the heap from the deadlines still pending. Must be called with `lock` held.
    private func compact() {
        let live = heap.filter { pending[$0.id] != nil }
        heap.removeAll(keepingCapacity: true)
        for entry in live { push(entry) }
    }

    // MARK: Heap

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
