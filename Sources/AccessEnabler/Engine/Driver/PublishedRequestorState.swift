import Foundation

/// What the engine knows about the requestor, published in a lock box so a synchronous
/// reader (the facade's fast `checkAuthentication`) sees a consistent picture without
/// waiting for the engine: the requestor, whether setRequestor succeeded (or why not), and
/// its catalog. The state machine publishes it whole whenever one of them changes.
final class PublishedRequestorState: @unchecked Sendable {
    private let lock = NSLock()
    private var current = RequestorStanding()

    /// The picture now.
    var snapshot: RequestorStanding { lock.withLock { current } }

    /// Publishes a new picture.
    func publish(_ snapshot: RequestorStanding) { lock.withLock { current = snapshot } }
}
