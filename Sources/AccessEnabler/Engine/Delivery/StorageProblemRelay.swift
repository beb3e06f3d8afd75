import Foundation
import Synchronization

/// Turns what the store reports into what the app sees: a failed write (a directory in the
/// way, a read-only directory, a full disk) becomes status N500 with the store's sentence,
/// a discarded file or a cleared store becomes status SEC412 (warning) with the file and
/// the reason, and each also a ``Diagnostic/storageProblem(message:)``. A write waiting for
/// a lock another process holds past its patience is only a diagnostic (``note(_:)``): the
/// change is kept and written later, nothing is lost.
///
/// Problems found while the store opens come before the app could set its delegate (the
/// legacy pattern creates the AccessEnabler, then assigns `delegate`): their diagnostics go
/// out as soon as the relay is connected, their statuses wait for the app's first call and
/// come ahead of that call's callbacks, so none is delivered to nobody.
final class StorageProblemRelay: @unchecked Sendable {
    /// One report: the status it becomes and the sentence it carries.
    private struct Report: Sendable {
        var status: StatusID
        var message: String
    }

    private let lock = NSLock()
    /// Reports made before ``connect(_:diagnostics:)``.
    private var unconnected: [Report] = []
    /// Notes made before ``connect(_:diagnostics:)``.
    private var unconnectedNotes: [String] = []
    /// Statuses waiting for the app's first call.
    private var waitingForFirstCall: [Report] = []
    private var firstCallMade = false
    private var dispatcher: CallbackDispatcher?
    private var diagnostics: (@Sendable (Diagnostic) -> Void)?

    /// Reports a failed write or deletion (N500).
    func report(_ problem: StorageProblem) {
        report(Report(status: .n500, message: problem.message))
    }

    /// Reports discarded stored values (SEC412).
    func report(_ discard: StorageDiscard) {
        report(Report(status: .sec412, message: discard.message))
    }

    /// Says something about storage that needs no status — a write waiting for another
    /// process's lock — through the diagnostics handler only.
    func note(_ message: String) {
        let diagnostics: (@Sendable (Diagnostic) -> Void)? = lock.withLock {
            guard dispatcher != nil else {
                unconnectedNotes.append(message)
                return nil
            }
            return self.diagnostics
        }
        diagnostics?(.storageProblem(message: message))
    }

    /// Reports at once when connected and the app has made a call, otherwise as described above.
    private func report(_ report: Report) {
        let route: (target: CallbackDispatcher, diagnostics: (@Sendable (Diagnostic) -> Void)?, statusNow: Bool)? =
            lock.withLock {
                guard let connected = dispatcher else {
                    unconnected.append(report)
                    return nil
                }
                if !firstCallMade { waitingForFirstCall.append(report) }
                return (connected, diagnostics, firstCallMade)
            }
        guard let route else { return }
        route.diagnostics?(.storageProblem(message: report.message))
        if route.statusNow { Self.dispatchStatus(of: report, to: route.target) }
    }

    /// From now on, reports go to `dispatcher` (as statuses) and to `diagnostics`.
    func connect(_ dispatcher: CallbackDispatcher, diagnostics: (@Sendable (Diagnostic) -> Void)?) {
        let (held, notes): ([Report], [String]) = lock.withLock {
            self.dispatcher = dispatcher
            self.diagnostics = diagnostics
            defer {
                unconnected.removeAll()
                unconnectedNotes.removeAll()
            }
            waitingForFirstCall.append(contentsOf: unconnected)
            return (unconnected, unconnectedNotes)
        }
        for report in held { diagnostics?(.storageProblem(message: report.message)) }
        for note in notes { diagnostics?(.storageProblem(message: note)) }
    }

    /// The app made a call: its delegate is in place, so held statuses are delivered now,
    /// ahead of the call's own callbacks.
    func appMadeACall() {
        let held: [Report] = lock.withLock {
            guard !firstCallMade, dispatcher != nil else { return [] }
            firstCallMade = true
            defer { waitingForFirstCall.removeAll() }
            return waitingForFirstCall
        }
        guard !held.isEmpty, let target = lock.withLock({ dispatcher }) else { return }
        for report in held { Self.dispatchStatus(of: report, to: target) }
    }

    /// The status reaches the app like any other; the dispatcher also reports it to the
    /// diagnostics handler as a status.
    private static func dispatchStatus(of report: Report, to dispatcher: CallbackDispatcher) {
        dispatcher.dispatch(.status(StatusCatalog.status(report.status, message: report.message)))
    }
}
