/// A stored value that can tell whether it is well-formed, for the
/// ``IntegrityCheckType/INTEGRITY_CHECK_ALL`` check of stored values.
protocol StoredValueValidating {
    /// Why the value is not usable, or nil when it is well-formed.
    var validationProblem: String? { get }
}
