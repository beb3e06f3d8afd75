import AccessEnabler
import Foundation
import PassSandbox

/// Lets the SDK read the sandbox's clock, so one `advanceClock` moves both sides of the wire.
public struct SandboxTimeSource: TimeSource {
    private let clock: SandboxClock

    /// Reads `clock`.
    public init(_ clock: SandboxClock) { self.clock = clock }

    /// The sandbox clock's time.
    public var now: Date { clock.now }
}
