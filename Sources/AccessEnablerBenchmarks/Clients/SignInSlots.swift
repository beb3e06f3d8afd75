import AccessEnabler
import Foundation

/// How many simulated devices may be signing in at once, the rest waiting their turn in
/// the order they asked: the benchmark's model of a server that serves a bounded number of
/// clients at a time while the others wait to be accepted.
///
/// Without it, thousands of devices sharing one client queue are served breadth-first:
/// every device's first request before any device's second, so no device finishes until
/// the whole wave nearly has. With it, a device that has started is served to its end, and
/// devices finish steadily, as they are served.
final class SignInSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var free: Int
    /// Devices waiting for a slot, oldest first from `head`.
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// Slots for `capacity` devices at once (at least one).
    init(capacity: Int) {
        free = max(1, capacity)
    }

    /// Returns once the caller holds a slot.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted: Bool = lock.withLock {
                guard free > 0 else {
                    waiting.append(continuation)
                    return false
                }
                free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back: to the device that has waited longest, or to the pool.
    func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            guard head < waiting.count else {
                free += 1
                return nil
            }
            let continuation = waiting[head]
            head += 1
            if head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            }
            return continuation
        }
        next?.resume()
    }
}

/// One simulated device's transport: its first request waits for a ``SignInSlots`` slot,
/// which the device holds until ``finish()`` (its sign-in has completed); every request
/// goes through the shared `inner` transport.
final class SlottedTransport: HTTPTransport, @unchecked Sendable {
    private enum Turn { case notYet, waiting, holding, finished }

    private let inner: any HTTPTransport
    private let slots: SignInSlots
    private let lock = NSLock()
    private var turn = Turn.notYet

    init(_ inner: any HTTPTransport, slots: SignInSlots) {
        self.inner = inner
        self.slots = slots
    }

    /// The shared transport's: waiting for a slot is not part of an exchange, and a transport
    /// that keeps its deadline needs no backstop task around each request.
    var keepsItsDeadline: Bool { inner.keepsItsDeadline }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let mustWait = lock.withLock {
            guard turn == .notYet else { return false }
            turn = .waiting
            return true
        }
        if mustWait {
            await slots.acquire()
            // A device that finished while it waited (its request gave up) hands the slot on.
            let keep = lock.withLock {
                guard turn == .waiting else { return false }
                turn = .holding
                return true
            }
            if !keep { slots.release() }
        }
        return try await inner.send(request, timeout: timeout)
    }

    /// The device's sign-in is over: its slot goes to the next device. Requests it sends
    /// afterwards no longer wait.
    func finish() {
        let held = lock.withLock {
            defer { turn = .finished }
            return turn == .holding
        }
        if held { slots.release() }
    }
}
