import Foundation

/// A store's device identifier as requests and metadata read it: never one another launch
/// replaced.
///
/// A device's very first launch draws its identifier in memory and claims it on the storage
/// thread (``TokenStore``): created unless another first launch over the same directory
/// created one meanwhile, which is then taken instead. Until that claim is settled the
/// identifier is provisional, and the first read settles it — at once when the storage
/// thread already has (the usual case: a new device's first request, the DCR registration,
/// carries no identifier, so the first one that does is built long after), on the reader's
/// thread otherwise. Reading it after that costs a lock.
///
/// A request context takes the identity, not its value, so building a request is where the
/// identifier is read.
final class DeviceIdentity: @unchecked Sendable, Equatable {
    private let lock = NSLock()
    private var current: String
    /// Settles a provisional identifier (the store's claim); `nil` once settled.
    private var settle: (@Sendable () -> Void)?

    /// An identifier known for good (a stored one, a configured one, a test's), unless
    /// ``settle(with:)`` makes it provisional.
    init(fixed identifier: String) {
        current = identifier
    }

    /// Makes the identifier provisional: the first read runs `settle`, which ends with
    /// ``settled(as:)`` (unless that came first).
    func settle(with settle: @escaping @Sendable () -> Void) {
        lock.withLock { self.settle = settle }
    }

    /// The identifier, settled first if it is still provisional.
    var value: String {
        if let pending = lock.withLock({ settle }) { pending() }
        return lock.withLock { current }
    }

    /// The identifier from now on, for good.
    func settled(as identifier: String) {
        lock.withLock {
            current = identifier
            settle = nil
        }
    }

    static func == (lhs: DeviceIdentity, rhs: DeviceIdentity) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }
}
