import Foundation

/// A step after which the SDK did not settle — quiescent, with what it stored on disk —
/// within the runner's bound (``ScenarioRunner/settleTimeout``): the run ends with this
/// error instead of waiting for ever, and the command line exits with status 2.
public struct ScenarioStall: Error, Sendable, Equatable, CustomStringConvertible {
    /// The index of the step, from 0, as its transcript marker gives it.
    public var step: Int
    /// The step's name (its key in the scenario file: `logout`, `restart`, …).
    public var name: String
    /// The bound that passed, in seconds of real time.
    public var seconds: TimeInterval

    /// Creates the error for step `step` named `name`.
    public init(step: Int, name: String, seconds: TimeInterval) {
        self.step = step
        self.name = name
        self.seconds = seconds
    }

    /// What happened, naming the step.
    public var description: String {
        "step \(step) (\(name)) did not settle within \(Self.format(seconds)) s: the SDK still had work under way "
            + "(a request, a back-off or a callback) when the bound passed"
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Runs `work` for at most `seconds` of real time: its result, or `nil` when the time ran
/// out first (the work is then left to finish on its own; nothing waits for it).
func withinRealTime<T: Sendable>(_ seconds: TimeInterval, _ work: @escaping @Sendable () async -> T) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let race = Race(continuation)
        race.timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
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
