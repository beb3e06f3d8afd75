/// One immutable value held once and referenced from several owners.
///
/// A large value type (the configuration: about 700 bytes; device information: 344)
/// stored inline in each object that needs it is copied into every one of them, and
/// every AccessEnabler of a process pays each copy. Holding it here, each owner keeps
/// one reference instead.
final class Shared<Value: Sendable>: Sendable {
    /// The value.
    let value: Value

    /// Holds `value`.
    init(_ value: Value) {
        self.value = value
    }
}
