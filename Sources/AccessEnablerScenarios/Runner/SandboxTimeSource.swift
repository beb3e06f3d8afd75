import AccessEnabler
import Foundation
import PassSandbox
import Synchronization

/// Lets the SDK read and wait on the sandbox's clock, so one `advanceClock` moves both
/// sides of the wire and wakes what the SDK was waiting for (a poll, a back-off).
///
/// The device's wall clock may also jump away from the sandbox's time (a person setting the
/// date, a time service correcting a year): ``DeviceClockJump`` moves ``now`` and not
/// ``monotonicSeconds``, which follows the sandbox's time, as a real device's uptime does.
public struct SandboxTimeSource: TimeSource, Sleeper {
    private let clock: SandboxClock
    private let jump: DeviceClockJump

    /// Reads `clock`, with the device's wall clock `jump` away from it (none by default).
    public init(_ clock: SandboxClock, jump: DeviceClockJump = DeviceClockJump()) {
        self.clock = clock
        self.jump = jump
    }

    /// The sandbox clock's time, plus the device's wall-clock jump.
    public var now: Date { clock.now.addingTimeInterval(jump.seconds) }

    /// The sandbox clock's time, which no jump of the device's wall clock moves.
    public var monotonicSeconds: TimeInterval { clock.now.timeIntervalSinceReferenceDate }

    /// Waits until the sandbox clock reads `deadline` (a deadline on the device's wall clock).
    public func sleep(until deadline: Date) async throws(CancellationError) {
        try await clock.sleep(until: deadline.addingTimeInterval(-jump.seconds))
    }
}

/// How far a device's wall clock has been set away from real time (the sandbox's), shared by
/// the time sources of one device.
public final class DeviceClockJump: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// No jump.
    public init() {}

    /// Seconds the wall clock reads ahead of real time (negative: behind).
    public var seconds: TimeInterval { offset.withLock { $0 } }

    /// Sets the wall clock `seconds` further (negative: back).
    public func jump(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
