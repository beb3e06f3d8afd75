import Foundation

/// Identifies one facade call, so the callbacks it ends in can be told apart from those of
/// other calls (the async API waits for its own call's terminal callback, whatever else
/// is delivered meanwhile). A flow that outlives its call (a picker, a polled code) is
/// owned by the last call that carried it on; a waiting `getAuthorization` keeps its own.
struct CallID: Hashable, Sendable {
    let value: UInt64
}
