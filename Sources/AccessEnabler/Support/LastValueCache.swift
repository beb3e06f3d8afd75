import Foundation
import Synchronization

/// Remembers the value computed for the last key, so a value that is the same for every
/// request (the `X-Device-Info` of a session, the partner status of a flow) is encoded once
/// rather than on every request. Comparing a key is far cheaper than encoding it.
/// Thread-safe.
final class LastValueCache<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let last = Mutex<(key: Key, value: Value)?>(nil)

    /// The value stored for `key` when `key` is the last key stored.
    func value(for key: Key) -> Value? {
        last.withLock { $0.flatMap { $0.key == key ? $0.value : nil } }
    }

    /// Remembers `value` for `key`, replacing the previous pair.
    func store(_ value: Value, for key: Key) {
        last.withLock { $0 = (key, value) }
    }
}
