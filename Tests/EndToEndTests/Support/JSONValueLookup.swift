import AccessEnabler

extension JSONValue {
    /// The member `key` of an object (`nil` for anything else), for reading transcript values.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
