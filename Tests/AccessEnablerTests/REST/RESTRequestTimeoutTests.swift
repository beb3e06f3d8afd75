import Foundation
import Testing

@testable import AccessEnabler

/// The REST exchange's own deadline: a transport that ignores its timeout cannot hold a
/// flow, and any timeout value is accepted.
@Suite(.serialized) struct RESTRequestTimeoutTests {
    static let request = HTTPRequestMessage(
        method: "GET", url: URL(string: "http://sandbox.invalid/api/v2/REF30/configuration")!, headers: [], body: nil)

    /// Answers after `delay` seconds, whatever the timeout says (as an in-process server does).
    static func slow(_ delay: TimeInterval) -> InProcessTransport {
        InProcessTransport { _ in
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            return HTTPResponseMessage(status: 200, headers: [], body: Data())
        }
    }

    @Test func aTransportIgnoringTheTimeoutIsCutOff() async {
        let exchange = RESTExchange(transport: Self.slow(10), timeout: 0.2)
        do {
            _ = try await exchange.send(Self.request, operation: .configuration)
            Issue.record("a 10 s answer came back within a 0.2 s timeout")
        } catch {
            #expect(error == .transport(operation: .configuration, .timedOut))
        }
    }

    @Test func aQuickAnswerComesBack() async throws {
        let response = try await RESTExchange(transport: Self.slow(0), timeout: 60).send(
            Self.request, operation: .configuration)
        #expect(response.status == 200)
    }

    @Test(arguments: [0, -1, .infinity, .greatestFiniteMagnitude, 1e12] as [TimeInterval])
    func anyTimeoutValueIsAccepted(timeout: TimeInterval) async throws {
        let response = try await RESTExchange(transport: Self.slow(0), timeout: timeout).send(
            Self.request, operation: .configuration)
        #expect(response.status == 200)
    }

    /// A flow abandoned before its request task first ran (the app released its
    /// AccessEnabler, a later call took the flow over) sends nothing: nobody would read the
    /// answer. With the backstop, the request runs in a task of its own, which must start
    /// cancelled too.
    @Test(arguments: [false, true])
    func aCancelledTasksRequestIsNeverSent(transportKeepsItsDeadline: Bool) async {
        let sent = Counter()
        let transport = CountingInProcessTransport(keepsItsDeadline: transportKeepsItsDeadline, sent: sent)
        let exchange = RESTExchange(transport: transport, timeout: 60)
        let request = Task { () -> RESTClientError? in
            // Cancelled before it sends, whatever the order the two tasks run in.
            while !Task.isCancelled { await Task.yield() }
            do throws(RESTClientError) {
                _ = try await exchange.send(Self.request, operation: .configuration)
                return nil
            } catch {
                return error
            }
        }
        request.cancel()
        #expect(await request.value == .transport(operation: .configuration, .cancelled))
        #expect(sent.value == 0)
    }

    @Test func aShortTimeoutEndsOnTimeWhileThePoolIsBusy() async {
        // Every thread of Swift's cooperative pool is blocked for 3 s (a bounded stall, so the
        // other tests running meanwhile only wait a little): a deadline that needed a turn on
        // the pool (a sleeping task) could not end before the threads come back. The suite
        // runs its tests one at a time so none of them shares the stall. The stall is long
        // enough that a timeout which waited for it is told apart from one that only met a
        // machine at load 20, whose timers and threads wake up to seconds late.
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let started = Counter()
        let busy = (0..<threads).map { _ in
            Task.detached {
                started.increment()
                usleep(3_000_000)
            }
        }
        let waitedFrom = Date()
        // This test's own thread is one of the pool's: it is taken by the last busy task as
        // soon as the test suspends to wait for the exchange.
        // Other suites running meanwhile may hold the pool for a while before the busy tasks
        // get their turn; each then blocks for 3 s from its own start.
        while started.value < threads - 1, Date().timeIntervalSince(waitedFrom) < 5 { usleep(1_000) }
        let stop = Flag()
        let caller = ThreadTaskExecutor()
        defer {
            stop.set()
            for task in busy { task.cancel() }
            caller.stop()
        }
        // A transport that ignores both its timeout and cancellation.
        let ignoring = InProcessTransport { _ in
            await Task.detached { try? await Task.sleep(nanoseconds: 10_000_000_000) }.value
            return HTTPResponseMessage(status: 200)
        }
        let exchange = RESTExchange(transport: ignoring, timeout: 0.3)
        // The caller runs on a thread of its own, as an application's main actor does: the
        // deadline must not need a turn on the crowded pool to end its wait.
        let (error, elapsed) = await Task(executorPreference: caller) { () async -> (RESTClientError?, Duration) in
            let clock = ContinuousClock()
            let started = clock.now
            do throws(RESTClientError) {
                _ = try await exchange.send(Self.request, operation: .configuration)
                return (nil, started.duration(to: clock.now))
            } catch {
                return (error, started.duration(to: clock.now))
            }
        }.value
        #expect(error == .transport(operation: .configuration, .timedOut))
        #expect(elapsed >= .milliseconds(300))
        // The transport would take 10 s: well under that, the deadline ended the wait (a
        // machine at load 20 may take seconds to give the waiting thread its turn).
        #expect(elapsed < .seconds(8), "a 0.3 s timeout took \(elapsed) while the pool was blocked")
    }

    @Test func transportFailuresPassThrough() async {
        let failing = InProcessTransport { _ throws(TransportFailure) in throw .cannotConnect("refused") }
        do {
            _ = try await RESTExchange(transport: failing, timeout: 5).send(Self.request, operation: .authorize)
            Issue.record("no failure")
        } catch {
            #expect(error == .transport(operation: .authorize, .cannotConnect("refused")))
        }
    }
}

/// A task executor with a thread of its own: runs the jobs of the tasks that prefer it, in
/// order, whatever Swift's shared pool is doing. After ``stop()`` late jobs run on a global
/// queue.
private final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if stopped {
            condition.unlock()
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Answers every request at once and counts them; keeps its own deadline or not, as told.
private struct CountingInProcessTransport: HTTPTransport {
    let keepsItsDeadline: Bool
    let sent: Counter

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        sent.increment()
        return HTTPResponseMessage(status: 200, headers: [], body: Data())
    }
}
