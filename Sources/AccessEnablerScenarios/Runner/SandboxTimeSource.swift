import AccessEnabler
import Foundation
import PassSandbox

/// Lets the SDK read and wait on the sandbox's clock, so one `advanceClock` moves both
/// sides of the wire and wakes what the SDK was waiting for (a poll, a back-off).
public struct SandboxTimeSource: TimeSource, Sleeper {
    private let clock: SandboxClock

    /// Reads `clock`.
    public init(_ clock: SandboxClock) { self.clock = clock }

    /// The sandbox clock's time.
    public var now: Date { clock.now }

    /// Waits until the sandbox clock reads `deadline`.
    public func sleep(until deadline: Date) async throws(CancellationError) {
        try await clock.sleep(until: deadline)
    }
}
