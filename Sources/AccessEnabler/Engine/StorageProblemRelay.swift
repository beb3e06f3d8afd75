import Foundation

/// Turns the store's problems (a failed write: a directory in the way, a read-only
/// directory, a full disk) into what the app sees: status N500 with the store's sentence,
/// and a ``Diagnostic/storageProblem(message:)``. Problems found while the facade is still
/// being built are held until the dispatcher is connected.
final class StorageProblemRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [StorageProblem] = []
    private var deliver: (@Sendable (StorageProblem) -> Void)?

    /// Reports `problem` now, or as soon as ``connect(_:diagnostics:)`` is called.
    func report(_ problem: StorageProblem) {
        let target: (@Sendable (StorageProblem) -> Void)? = lock.withLock {
            if deliver == nil { held.append(problem) }
            return deliver
        }
        target?(problem)
    }

    /// From now on, problems go to `dispatcher` (as statuses) and to `diagnostics`.
    func connect(_ dispatcher: CallbackDispatcher, diagnostics: (@Sendable (Diagnostic) -> Void)?) {
        let deliver: @Sendable (StorageProblem) -> Void = { problem in
            diagnostics?(.storageProblem(message: problem.message))
            // The status reaches the app like any other; the dispatcher already reports it
            // to diagnostics as a status too.
            dispatcher.dispatch(.status(StatusCatalog.status(.n500, message: problem.message)))
        }
        let pending: [StorageProblem] = lock.withLock {
            self.deliver = deliver
            defer { held.removeAll() }
            return held
        }
        pending.forEach(deliver)
    }
}
