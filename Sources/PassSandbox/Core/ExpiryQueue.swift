import Foundation

/// Keys of a table in the order they were added, with when each expires, so the table can
/// be swept a few entries at a time instead of scanning all of it.
///
/// It suits tables whose entries all live equally long (access tokens, registrations,
/// authentication sessions, SAML requests): the oldest entry expires first. Entries the
/// table dropped early stay queued until they reach the front; ``sweep`` bounds the queue
/// too, so neither grows without limit even when the clock never moves.
struct ExpiryQueue<Key: Hashable & Sendable>: Sendable {
    private var entries: [(key: Key, expiresAt: Date)] = []
    private var head = 0

    /// Entries queued (including ones the table already dropped).
    var count: Int { entries.count - head }

    /// Queues `key`, expiring at `expiresAt`.
    mutating func append(_ key: Key, expiresAt: Date) {
        entries.append((key, expiresAt))
    }

    /// Takes entries off the front and hands their keys to `remove`: at most
    /// `expiredBudget` entries whose time has come, then as many as needed while the table
    /// holds more than `capacity` entries (`tableCount` is asked each time) or the queue
    /// more than twice that. `remove` must forget the key if the table still has it.
    mutating func sweep(now: Date, expiredBudget: Int, capacity: Int, tableCount: () -> Int, remove: (Key) -> Void) {
        var budget = expiredBudget
        while head < entries.count {
            let front = entries[head]
            if front.expiresAt <= now, budget > 0 {
                budget -= 1
            } else if count > 2 * capacity || tableCount() > capacity {
                // Over a limit: the oldest goes, expired or not.
            } else {
                break
            }
            head += 1
            remove(front.key)
        }
        compactIfWorthIt()
    }

    /// Drops the consumed front of the array once it is the larger part.
    private mutating func compactIfWorthIt() {
        guard head > 0 else { return }
        if head == entries.count {
            entries.removeAll(keepingCapacity: entries.count <= 4_096)
            head = 0
        } else if head >= 1_024, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
