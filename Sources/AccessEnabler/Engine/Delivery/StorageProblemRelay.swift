import Foundation

/// Turns the store's problems (a failed write: a directory in the way, a read-only
/// directory, a full disk) into what the app sees: status N500 with the store's sentence,
/// and a ``Diagnostic/storageProblem(message:)``.
///
/// Problems found while the store opens come before the app could set its delegate (the
/// legacy pattern creates the AccessEnabler, then assigns `delegate`): their diagnostics go
/// out as soon as the relay is connected, their statuses wait for the app's first call and
/// come ahead of that call's callbacks, so none is delivered to nobody.
final class StorageProblemRelay: @unchecked Sendable {
    private let lock = NSLock()
    /// Problems reported before ``connect(_:diagnostics:)``.
    private var unconnected: [StorageProblem] = []
    /// Statuses waiting for the app's first call.
    private var waitingForFirstCall: [StorageProblem] = []
    private var firstCallMade = false
    private var dispatcher: CallbackDispatcher?
    private var diagnostics: (@Sendable (Diagnostic) -> Void)?

    /// Reports `problem`: at once when connected and the app has made a call, otherwise as
    /// described above.
    func report(_ problem: StorageProblem) {
        let route: (target: CallbackDispatcher, diagnostics: (@Sendable (Diagnostic) -> Void)?, statusNow: Bool)? = lock.withLock {
            guard let connected = dispatcher else {
                unconnected.append(problem)
                return nil
            }
            if !firstCallMade { waitingForFirstCall.append(problem) }
            return (connected, diagnostics, firstCallMade)
        }
        guard let route else { return }
        route.diagnostics?(.storageProblem(message: problem.message))
        if route.statusNow { Self.dispatchStatus(of: problem, to: route.target) }
    }

    /// From now on, problems go to `dispatcher` (as statuses) and to `diagnostics`.
    func connect(_ dispatcher: CallbackDispatcher, diagnostics: (@Sendable (Diagnostic) -> Void)?) {
        let held: [StorageProblem] = lock.withLock {
            self.dispatcher = dispatcher
            self.diagnostics = diagnostics
            defer { unconnected.removeAll() }
            waitingForFirstCall.append(contentsOf: unconnected)
            return unconnected
        }
        for problem in held { diagnostics?(.storageProblem(message: problem.message)) }
    }

    /// The app made a call: its delegate is in place, so held statuses are delivered now,
    /// ahead of the call's own callbacks.
    func appMadeACall() {
        let held: [StorageProblem] = lock.withLock {
            guard !firstCallMade, dispatcher != nil else { return [] }
            firstCallMade = true
            defer { waitingForFirstCall.removeAll() }
            return waitingForFirstCall
        }
        guard !held.isEmpty, let target = lock.withLock({ dispatcher }) else { return }
        for problem in held { Self.dispatchStatus(of: problem, to: target) }
    }

    /// The status reaches the app like any other; the dispatcher also reports it to the
    /// diagnostics handler as a status.
    private static func dispatchStatus(of problem: StorageProblem, to dispatcher: CallbackDispatcher) {
        dispatcher.dispatch(.status(StatusCatalog.status(.n500, message: problem.message)))
    }
}
