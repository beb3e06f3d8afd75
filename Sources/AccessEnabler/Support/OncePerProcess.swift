import Foundation
import Synchronization

/// Which messages were printed to standard error already: the SDK says each kind of set-up
/// problem there once per process (the diagnostics hook hears every occurrence).
final class OncePerProcess: Sendable {
    /// The process's ledger.
    static let shared = OncePerProcess()

    private let seen = Mutex<Set<String>>([])

    /// `true` the first time `key` is asked about.
    func firstTime(_ key: String) -> Bool {
        seen.withLock { $0.insert(key).inserted }
    }
}
