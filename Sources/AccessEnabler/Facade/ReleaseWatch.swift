import Foundation

/// Lets a test rig that releases an AccessEnabler (a relaunch) wait until the released one
/// has ended every call it still had and their callbacks have been delivered, without
/// keeping the AccessEnabler alive. Take it before releasing the AccessEnabler.
package struct ReleaseWatch: Sendable {
    let mailbox: EngineMailbox
    let clock: any TimeSource

    /// Returns once the AccessEnabler is released and its engine has nothing left under way.
    ///
    /// The rig's last reference need not be the last one: a wait the rig gave up on (a
    /// bounded `waitUntilIdle` still waiting for the disk) holds the AccessEnabler until it
    /// ends, and the release comes then. So this waits for the release itself first — for as
    /// long as something holds the AccessEnabler: bound the wait.
    package func waitUntilEnded() async {
        while !mailbox.isClosed {
            guard !Task.isCancelled else { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        // Cancelled waits leave the tracker a moment after the release: look again briefly.
        for _ in 0..<1_000 {
            guard case .waitingForClock = await mailbox.activity.waitUntilQuiescent(clock: clock) else { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}
