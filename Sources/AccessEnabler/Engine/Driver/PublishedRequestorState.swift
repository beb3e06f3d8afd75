import Foundation
import Synchronization

/// What the engine knows about the requestor, published under a mutex so a synchronous
/// reader (the facade's fast `checkAuthentication`) sees a consistent picture without
/// waiting for the engine: the requestor, whether setRequestor succeeded (or why not), and
/// its catalog. The state machine publishes it whole whenever one of them changes.
final class PublishedRequestorState: Sendable {
    private let current = Mutex(RequestorStanding())

    /// The picture now.
    var snapshot: RequestorStanding { current.withLock { $0 } }

    /// Publishes a new picture.
    func publish(_ snapshot: RequestorStanding) { current.withLock { $0 = snapshot } }
}
