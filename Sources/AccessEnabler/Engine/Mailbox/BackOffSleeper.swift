import Foundation

/// The sleeper the REST clients' throttle gate waits with: the configuration's, with each
/// wait recorded as a back-off, so a test rig sees that the SDK is waiting for the clock
/// (not for a person) and can move a manual clock there.
struct BackOffSleeper: Sleeper {
    let inner: any Sleeper
    let activity: ActivityTracker

    func sleep(until deadline: Date) async throws(CancellationError) {
        let token = activity.backOffStarted(until: deadline)
        defer { activity.backOffEnded(token) }
        try await inner.sleep(until: deadline)
    }
}
