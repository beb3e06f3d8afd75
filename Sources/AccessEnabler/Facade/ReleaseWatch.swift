import Foundation

/// Lets a test rig that releases an AccessEnabler (a relaunch) wait until the released one
/// has ended every call it still had and their callbacks have been delivered, without
/// keeping the AccessEnabler alive. Take it before releasing the AccessEnabler.
package struct ReleaseWatch: Sendable {
    let activity: ActivityTracker
    let clock: any TimeSource

    /// Returns once the engine of the released AccessEnabler has nothing left under way
    /// (at once if it was not released: then only what is under way is waited for).
    package func waitUntilEnded() async {
        // Cancelled waits leave the tracker a moment after the release: look again briefly.
        for _ in 0..<1_000 {
            guard case .waitingForClock = await activity.waitUntilQuiescent(clock: clock) else { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}
