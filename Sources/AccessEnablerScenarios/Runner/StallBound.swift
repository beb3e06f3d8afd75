import Foundation

/// Runs `work` for as long as it makes progress: its result, or `nil` once `progress` has
/// stood still for `seconds` of real time while `work` was still waiting (the work is then
/// left to finish on its own; nothing waits for it).
///
/// This is the bound for waits that exist only to catch a hang. A wall-clock deadline on
/// such a wait measures the machine as much as the work: on a machine busy with other
/// builds, while hundreds of tests run in one process, a healthy wait of a second can take
/// minutes. A stuck SDK is one whose count stands still. `done`, when given, is asked
/// before giving up: whether what `work` waits for already holds, and only the waiting
/// task has not been scheduled yet (then the wait goes on).
package func unlessStalled<T: Sendable>(
    for seconds: TimeInterval,
    progress: @escaping @Sendable () -> UInt64,
    done: (@Sendable () -> Bool)? = nil,
    _ work: @escaping @Sendable () async -> T
) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let race = Race(continuation)
        race.timer = Task {
            let clock = ContinuousClock()
            let bound = stallBound(seconds)
            var seen = progress()
            var movedAt = clock.now
            while true {
                do { try await clock.sleep(until: movedAt + bound) } catch { return }
                let now = progress()
                if now != seen || done?() == true {
                    seen = now
                    movedAt = clock.now
                    continue
                }
                break
            }
            race.timeRanOut()
        }
        Task { race.workEnded(await work()) }
    }
}

/// `seconds` as a duration for a stall bound: NaN and negative values are no time, and the
/// bound is at most a day (so converting it can never overflow).
package func stallBound(_ seconds: TimeInterval) -> Duration {
    guard seconds > 0 else { return .zero }
    return .nanoseconds(Int64(min(seconds, 86_400) * 1_000_000_000))
}

/// Runs `work` for at most `seconds` of real time: its result, or `nil` when the time ran
/// out first (the work is then left to finish on its own; nothing waits for it).
func withinRealTime<T: Sendable>(_ seconds: TimeInterval, _ work: @escaping @Sendable () async -> T) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let race = Race(continuation)
        race.timer = Task {
            try? await Task.sleep(for: stallBound(seconds))
            race.timeRanOut()
        }
        Task { race.workEnded(await work()) }
    }
}

/// The work and its timer: the first to finish resumes the continuation; the timer is
/// cancelled when the work wins, so no sleeping task outlives a quick step.
private final class Race<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T?, Never>?
    private var timerTask: Task<Void, Never>?
    private var done = false

    init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = continuation }

    var timer: Task<Void, Never>? {
        get { lock.withLock { timerTask } }
        set {
            let cancelNow: Bool = lock.withLock {
                timerTask = newValue
                return done
            }
            if cancelNow { newValue?.cancel() }
        }
    }

    func workEnded(_ value: T) { finish(value, cancellingTimer: true) }

    func timeRanOut() { finish(nil, cancellingTimer: false) }

    private func finish(_ value: T?, cancellingTimer: Bool) {
        let (pending, timer): (CheckedContinuation<T?, Never>?, Task<Void, Never>?) = lock.withLock {
            defer {
                continuation = nil
                done = true
            }
            return (continuation, timerTask)
        }
        guard let pending else { return }
        if cancellingTimer { timer?.cancel() }
        pending.resume(returning: value)
    }
}
