import Foundation
import Synchronization

/// Turns the store's problems (a failed write: a directory in the way, a read-only
/// directory, a full disk) into what the app sees: status N500 with the store's sentence,
/// and a ``Diagnostic/storageProblem(message:)``.
///
/// Problems found while the store opens come before the app could set its delegate (the
/// legacy pattern creates the AccessEnabler, then assigns `delegate`): their diagnostics go
/// out as soon as the relay is connected, their statuses wait for the app's first call and
/// come ahead of that call's callbacks, so none is delivered to nobody.
final class StorageProblemRelay: Sendable {
    private struct State {
        /// Problems reported before ``connect(_:diagnostics:)``.
        var unconnected: [StorageProblem] = []
        /// Statuses waiting for the app's first call.
        var waitingForFirstCall: [StorageProblem] = []
        var firstCallMade = false
        var dispatcher: CallbackDispatcher?
        var diagnostics: (@Sendable (Diagnostic) -> Void)?
    }

    private let state = Mutex(State())

    /// Reports `problem`: at once when connected and the app has made a call, otherwise as
    /// described above.
    func report(_ problem: StorageProblem) {
        let route: (target: CallbackDispatcher, diagnostics: (@Sendable (Diagnostic) -> Void)?, statusNow: Bool)? = state.withLock { state in
            guard let connected = state.dispatcher else {
                state.unconnected.append(problem)
                return nil
            }
            if !state.firstCallMade { state.waitingForFirstCall.append(problem) }
            return (connected, state.diagnostics, state.firstCallMade)
        }
        guard let route else { return }
        route.diagnostics?(.storageProblem(message: problem.message))
        if route.statusNow { Self.dispatchStatus(of: problem, to: route.target) }
    }

    /// From now on, problems go to `dispatcher` (as statuses) and to `diagnostics`.
    func connect(_ dispatcher: CallbackDispatcher, diagnostics: (@Sendable (Diagnostic) -> Void)?) {
        let held: [StorageProblem] = state.withLock { state in
            state.dispatcher = dispatcher
            state.diagnostics = diagnostics
            defer { state.unconnected.removeAll() }
            state.waitingForFirstCall.append(contentsOf: state.unconnected)
            return state.unconnected
        }
        for problem in held { diagnostics?(.storageProblem(message: problem.message)) }
    }

    /// The app made a call: its delegate is in place, so held statuses are delivered now,
    /// ahead of the call's own callbacks.
    func appMadeACall() {
        let (held, target): ([StorageProblem], CallbackDispatcher?) = state.withLock { state in
            guard !state.firstCallMade, let dispatcher = state.dispatcher else { return ([], nil) }
            state.firstCallMade = true
            defer { state.waitingForFirstCall.removeAll() }
            return (state.waitingForFirstCall, dispatcher)
        }
        guard !held.isEmpty, let target else { return }
        for problem in held { Self.dispatchStatus(of: problem, to: target) }
    }

    /// The status reaches the app like any other; the dispatcher also reports it to the
    /// diagnostics handler as a status.
    private static func dispatchStatus(of problem: StorageProblem, to dispatcher: CallbackDispatcher) {
        dispatcher.dispatch(.status(StatusCatalog.status(.n500, message: problem.message)))
    }
}
