import Dispatch

/// A task executor over the callback queue: the jobs of a task that prefers it run on the
/// callback queue, in order with the callbacks queued there.
final class CallbackQueueExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) { self.queue = queue }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
