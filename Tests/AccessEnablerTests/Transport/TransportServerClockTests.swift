import Foundation
import Synchronization
import Testing

@testable import AccessEnabler

/// ``ServerClock``: Adobe Pass's time as the last answer gave it, advanced by the monotonic
/// clock, so a jump of the device's date between answers moves nothing; and
/// ``SteadyTimeSource`` for what the SDK times itself (an access token's life).
@Suite struct TransportServerClockTests {
    /// A wall clock that can jump, over a monotonic one that only moves forward.
    final class Clock: TimeSource {
        private let state = Mutex((wall: Date(timeIntervalSince1970: 1_767_225_600), monotonic: 1_000.0))
        var now: Date { state.withLock { $0.wall } }
        var monotonicSeconds: TimeInterval { state.withLock { $0.monotonic } }
        func pass(_ seconds: TimeInterval) {
            state.withLock {
                $0.wall += seconds; $0.monotonic += seconds
            }
        }
        func jump(_ seconds: TimeInterval) { state.withLock { $0.wall += seconds } }
    }

    @Test func withNoAnswerYetAdobesTimeIsTheWallClock() {
        let clock = Clock()
        clock.jump(-86_400)
        #expect(ServerClock().adobeNow(clock) == clock.now)
    }

    @Test func aJumpOfTheDeviceDateAfterAnAnswerMovesNothing() {
        let clock = Clock()
        let server = ServerClock()
        let adobe = clock.now.addingTimeInterval(2)  // a small drift: not corrected
        server.record(serverDate: adobe, deviceNow: clock.now, monotonic: clock.monotonicSeconds)
        clock.pass(60)
        let before = server.adobeNow(clock)
        #expect(before == adobe.addingTimeInterval(58))
        for jump in [-86_400.0, 365 * 86_400.0] {
            clock.jump(jump)
            #expect(server.adobeNow(clock) == before, "a jump of \(jump) s")
            clock.jump(-jump)
        }
        clock.pass(10)
        #expect(server.adobeNow(clock) == before.addingTimeInterval(10), "real time still counts")
    }

    @Test func aSignificantDifferenceIsCorrectedAndTheNextAnswerMeasuresAJump() {
        let clock = Clock()
        let server = ServerClock()
        server.record(
            serverDate: clock.now.addingTimeInterval(3_600), deviceNow: clock.now, monotonic: clock.monotonicSeconds)
        #expect(server.adobeNow(clock) == clock.now.addingTimeInterval(3_600))
        clock.jump(-86_400)
        #expect(server.adobeNow(clock) == clock.now.addingTimeInterval(86_400 + 3_600))
        // The next answer after the jump measures the new difference.
        let adobe = clock.now.addingTimeInterval(86_400 + 3_600)
        server.record(serverDate: adobe, deviceNow: clock.now, monotonic: clock.monotonicSeconds)
        #expect(server.adobeNow(clock) == adobe)
        #expect(abs((server.unreportedOffset ?? 0) - (86_400 + 3_600)) < 0.001)
    }

    @Test func aSteadyClockIgnoresJumpsAndFollowsRealTime() {
        let clock = Clock()
        let steady = SteadyTimeSource(clock)
        let start = steady.now
        clock.jump(365 * 86_400)
        #expect(steady.now == start)
        clock.pass(5)
        #expect(steady.now == start.addingTimeInterval(5))
        // A clock without a monotonic reading of its own reads as it is.
        let manual = ManualTimeSource()
        let plain = SteadyTimeSource(manual)
        manual.advance(by: 30)
        #expect(plain.now == manual.now)
    }
}
