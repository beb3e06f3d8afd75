import Foundation

/// The serial queue that writes one statement directory's files, shared by every
/// ``TokenStore`` open on that directory in this process.
///
/// Stores write behind: a change updates memory at once and its file is written on this
/// queue, in order, so the engine never waits for `fsync` on Swift's shared threads. A store
/// opened later over the same directory (an app relaunch in the same process, a test) first
/// waits for the queue, so it reads everything written before it.
enum StorageWriteQueue {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var queues: [String: DispatchQueue] = [:]

    /// The write queue of `directory`.
    static func forDirectory(_ directory: URL) -> DispatchQueue {
        let key = directory.standardizedFileURL.path
        return lock.withLock {
            if let queue = queues[key] { return queue }
            let queue = DispatchQueue(label: "accessenabler.storage.\(queues.count)", qos: .utility)
            queues[key] = queue
            return queue
        }
    }
}
