import Foundation

/// A wall clock no jump of the device's date moves: the wall time when it was made, advanced
/// by the clock's monotonic reading (``TimeSource/monotonicSeconds``). It judges what the SDK
/// timed itself from a local reading — an access token's `expires_in` — so a date set a year
/// ahead while the app runs does not make a fresh token look expired. A clock with no
/// monotonic reading of its own reads as it is.
struct SteadyTimeSource: TimeSource {
    let inner: any TimeSource
    private let wallAtStart: Date
    private let monotonicAtStart: TimeInterval

    init(_ inner: any TimeSource) {
        self.inner = inner
        wallAtStart = inner.now
        monotonicAtStart = inner.monotonicSeconds
    }

    var now: Date {
        let elapsed = inner.monotonicSeconds - monotonicAtStart
        return elapsed.isFinite && elapsed >= 0 ? wallAtStart.addingTimeInterval(elapsed) : inner.now
    }

    var monotonicSeconds: TimeInterval { inner.monotonicSeconds }
}
