import Foundation

/// A step after which the SDK did not settle — quiescent, with what it stored on disk — and
/// made no progress for the runner's bound (``ScenarioRunner/settleTimeout``): no event
/// posted or handled, no request or other child task started or ended, for that long. The
/// run ends with this error instead of waiting for ever, and the command line exits with
/// status 2. A slow machine is not a stall: its work moves, however slowly.
public struct ScenarioStall: Error, Sendable, Equatable, CustomStringConvertible {
    /// The index of the step, from 0, as its transcript marker gives it.
    public var step: Int
    /// The step's name (its key in the scenario file: `logout`, `restart`, …).
    public var name: String
    /// The bound that passed with no progress, in seconds of real time.
    public var seconds: TimeInterval

    /// Creates the error for step `step` named `name`.
    public init(step: Int, name: String, seconds: TimeInterval) {
        self.step = step
        self.name = name
        self.seconds = seconds
    }

    /// What happened, naming the step.
    public var description: String {
        "step \(step) (\(name)) did not settle: the SDK made no progress for \(Self.format(seconds)) s "
            + "with work still under way (a request, a back-off or a callback)"
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
