import Foundation
import Synchronization

/// What the engine knows about the requestor, published under a mutex so a synchronous
/// reader (the facade's fast `checkAuthentication`) sees a consistent picture without
/// waiting for the engine: the requestor, whether setRequestor succeeded (or why not), and
/// its catalog. The state machine publishes it whole whenever one of them changes.
final class PublishedRequestorState: Sendable {
    /// One published picture, immutable and shared by reference: a reader takes it with one
    /// retain instead of copying the catalog's collections one by one.
    final class Picture: Sendable {
        let standing: RequestorStanding

        /// `standing.problem`. Read, not kept: a ready requestor's is `nil` at once (the
        /// failed state is boxed), and every AccessEnabler would otherwise hold 209 bytes of
        /// an absent status in its picture.
        var problem: AdvancedStatus? { standing.problem }

        init(_ standing: RequestorStanding) {
            self.standing = standing
        }
    }

    private let current = Mutex(Picture(RequestorStanding()))

    /// The picture now.
    var picture: Picture { current.withLock { $0 } }

    /// The picture now, as a value.
    var snapshot: RequestorStanding { picture.standing }

    /// Publishes a new picture.
    func publish(_ snapshot: RequestorStanding) {
        let picture = Picture(snapshot)
        current.withLock { $0 = picture }
    }
}
