import Foundation

/// The writes AccessEnablers hand to the disk after their callbacks (a media token, a
/// device's new identity, what a released AccessEnabler still held), seen from a test rig
/// or a scenario runner that removes a storage directory: it waits for them first, so no
/// late write recreates what it removed.
package enum StorageWrites {
    /// Blocks until every write handed to the disk so far for a store under `directory` is
    /// done — those of AccessEnablers already released included. A write another process's
    /// lock holds up is waited for at most about a second.
    package static func waitUntilWritten(under directory: URL) {
        StorageSyncThread.shared.waitUntilWritten(under: TokenStore.key(for: directory))
    }
}
