import Synchronization

/// The delegate types found to implement `sendTrackingData` in neither spelling.
///
/// Today's spelling forwards to the legacy one, whose argument is `[Any]!`: building it
/// costs an array of existentials for every tracking event, which a delegate listening in
/// neither spelling throws away. The legacy spelling's default records the delegate's type
/// here, so from its second event on such a delegate is skipped before the array is built.
/// A type that implements either spelling never reaches the legacy default and is never
/// recorded.
///
/// A process has one delegate type or a few: they are kept in a short list, searched by
/// comparing identities, with no hashing.
enum SilentTrackingDelegates {
    private static let types = Mutex<[ObjectIdentifier]>([])

    /// Whether `type` was found to implement neither spelling.
    static func contains(_ type: ObjectIdentifier) -> Bool {
        types.withLock { $0.contains(type) }
    }

    /// Records that `type` implements neither spelling.
    static func insert(_ type: ObjectIdentifier) {
        types.withLock { if !$0.contains(type) { $0.append(type) } }
    }
}
