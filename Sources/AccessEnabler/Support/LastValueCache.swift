import Foundation

/// Remembers the value computed for the last key, so a value that is the same for every
/// request (the `X-Device-Info` of a session, the partner status of a flow) is encoded once
/// rather than on every request. Comparing a key is far cheaper than encoding it.
/// Thread-safe.
final class LastValueCache<Key: Equatable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var last: (key: Key, value: Value)?

    /// The value stored for `key` when `key` is the last key stored.
    func value(for key: Key) -> Value? {
        lock.withLock { last.flatMap { $0.key == key ? $0.value : nil } }
    }

    /// Remembers `value` for `key`, replacing the previous pair.
    func store(_ value: Value, for key: Key) {
        lock.withLock { last = (key, value) }
    }
}
