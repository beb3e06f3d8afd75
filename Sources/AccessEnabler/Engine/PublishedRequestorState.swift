import Foundation

/// What the engine knows about the requestor, published in a lock box so a synchronous
/// reader (the facade's fast `checkAuthentication`) sees a consistent picture without
/// waiting for the engine: the requestor, whether setRequestor succeeded (or why not), and
/// its catalog. The engine replaces it whole whenever one of them changes.
final class PublishedRequestorState: @unchecked Sendable {
    /// One consistent picture.
    struct Snapshot: Sendable {
        var requestorID: String?
        var state: EntitlementEngine.RequestorState = .notSet
        var catalog: RequestorCatalog?
    }

    private let lock = NSLock()
    private var current = Snapshot()

    /// The picture now.
    var snapshot: Snapshot { lock.withLock { current } }

    /// Publishes a new picture.
    func publish(_ snapshot: Snapshot) { lock.withLock { current = snapshot } }
}
