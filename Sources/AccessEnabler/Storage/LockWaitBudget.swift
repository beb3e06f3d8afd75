import Foundation

/// How long a store's callers may still wait for the directory's lock (``StorageDirectoryLock``)
/// while another process holds it: a pure value the store keeps under its state lock, fed
/// with what each attempt found.
///
/// Another process holds the lock for one write — milliseconds — so a wait that runs out
/// means a stuck holder (stopped in a debugger, frozen on a dead network file system). An
/// *episode* starts with the first attempt that finds the lock taken past its patience and
/// ends when a write of this store gets the lock again. Every wait on a caller's path within
/// one episode draws from one ``patience``: the first call waits for what is left of it,
/// and once it is spent, calls try the lock once without waiting and answer from memory —
/// the storage thread writes their changes as soon as the lock is free. So a stuck holder
/// delays a call, however many writes it makes (a new device's identity, a sign-in, a
/// logout), by at most ``patience`` in total, and the calls after it not at all.
///
/// The storage thread's own attempts (short, repeated) open an episode too but take nothing
/// from the budget: while the thread keeps finding the lock taken, the budget runs out on
/// the clock, so a call that comes a second or more into the episode does not wait at all.
struct LockWaitBudget: Sendable {
    /// The longest a caller waits within one episode (``StorageDirectoryLock/patience``).
    let patience: TimeInterval
    /// When (uptime nanoseconds) the episode began: the start of the first attempt that found
    /// the lock taken; `nil` outside an episode.
    private(set) var heldSince: UInt64?
    /// Whether the app was told of this episode.
    private var said = false
    /// What callers' waits came to, in all.
    private(set) var tally = Tally()

    /// What callers' waits for the lock came to (the tests read it to check the budget).
    struct Tally: Sendable, Equatable {
        /// Waits on callers' paths.
        var waits = 0
        /// The seconds granted to them, in all.
        var granted: TimeInterval = 0
        /// The seconds they actually waited, in all.
        var waited: TimeInterval = 0
        /// Waits that ended without the lock (their change was left to the storage thread).
        var withoutTheLock = 0
    }

    init(patience: TimeInterval) {
        self.patience = patience
    }

    /// How long a caller starting to wait at `now` (uptime nanoseconds) may wait: `requested`,
    /// or what is left of the episode's ``patience`` (zero once it is spent: one try).
    func allowance(_ requested: TimeInterval, at now: UInt64) -> TimeInterval {
        guard let heldSince else { return requested }
        let used = Double(now > heldSince ? now - heldSince : 0) / 1_000_000_000
        return max(0, min(requested, patience - used))
    }

    /// Counts a caller's wait: `granted` seconds allowed, `waited` nanoseconds spent.
    mutating func record(granted: TimeInterval, waitedNanoseconds waited: UInt64, gotTheLock: Bool) {
        tally.waits += 1
        tally.granted += granted
        tally.waited += Double(waited) / 1_000_000_000
        if !gotTheLock { tally.withoutTheLock += 1 }
    }

    /// An attempt that started at `attempt` found the lock taken past its patience: the
    /// episode began then, unless it already had. Returns the episode's start.
    mutating func heldByAnother(since attempt: UInt64) -> UInt64 {
        let start = heldSince ?? attempt
        heldSince = start
        return start
    }

    /// Whether to tell the app now (`now`, uptime nanoseconds) that another process has held
    /// the lock past ``patience``: once per episode.
    mutating func shouldSay(at now: UInt64) -> Bool {
        guard !said, let heldSince, now > heldSince, Double(now - heldSince) / 1_000_000_000 >= patience else {
            return false
        }
        said = true
        return true
    }

    /// A write of this store got the lock: the episode, if any, is over. Returns whether the
    /// app had been told of it (and so should hear that the lock is free again).
    mutating func lockTaken() -> Bool {
        defer {
            heldSince = nil
            said = false
        }
        return said
    }
}
