import Foundation
import Synchronization

/// Makes a delegate that cannot receive a terminal callback impossible to miss.
///
/// A delegate method whose name, labels or types match neither accepted spelling compiles
/// without a warning and is never called; if the callback ends a call, the app then waits
/// forever. The default implementations that are only reached in that case call
/// ``unimplemented(_:by:)``, which prints one diagnostic to standard error per callback name
/// per process and hands every report to the observers (a diagnostics hook, a test).
final class CallbackDiagnostics: Sendable {
    /// One terminal callback that reached neither spelling.
    struct Report: Sendable, Equatable {
        /// The callback.
        var callback: TerminalCallback
        /// The delegate's type, fully qualified.
        var delegateType: String
        /// Whether this report printed the diagnostic (the first for its callback).
        var printed: Bool
        /// The diagnostic's text.
        var message: String
    }

    /// The process-wide ledger the default implementations report to; it prints to
    /// standard error.
    static let shared = CallbackDiagnostics(print: CallbackDiagnostics.writeToStandardError)

    private struct State {
        var printedCallbacks: Set<TerminalCallback> = []
        var printCounts: [TerminalCallback: Int] = [:]
        var observers: [UUID: @Sendable (Report) -> Void] = [:]
    }

    private let state = Mutex(State())
    private let print: @Sendable (String) -> Void

    /// A ledger that prints through `print` (tests pass a collector).
    init(print: @escaping @Sendable (String) -> Void) {
        self.print = print
    }

    /// `callback` reached neither spelling on `delegate`: the one entry point of the default
    /// implementations.
    static func unimplemented(_ callback: TerminalCallback, by delegate: AnyObject) {
        let report = shared.report(callback, delegateType: String(reflecting: type(of: delegate)))
        currentHandler?.report(.unimplementedCallback(name: callback.name, message: report.message))
    }

    /// The diagnostics handler of the AccessEnabler whose callback is being delivered on
    /// this thread (set by the dispatcher around each delivery).
    @TaskLocal static var currentHandler: Handler?

    /// An AccessEnabler's diagnostics handler, in a class: binding a task-local of optional
    /// function type on a thread outside any task crashes release builds of Swift 6.3.1
    /// (in `swift_task_localValuePush`), while a class reference binds correctly.
    final class Handler: Sendable {
        let report: @Sendable (Diagnostic) -> Void

        init(_ report: @escaping @Sendable (Diagnostic) -> Void) { self.report = report }
    }

    /// Records one report: prints the diagnostic if it is the first for `callback`, then
    /// hands the report to every observer.
    @discardableResult
    func report(_ callback: TerminalCallback, delegateType: String) -> Report {
        let first = state.withLock { state in
            let inserted = state.printedCallbacks.insert(callback).inserted
            if inserted { state.printCounts[callback, default: 0] += 1 }
            return inserted
        }
        let report = Report(
            callback: callback, delegateType: delegateType, printed: first,
            message: Self.message(for: callback, delegateType: delegateType))
        if first { print(report.message) }
        let current = state.withLock { Array($0.observers.values) }
        for observer in current { observer(report) }
        return report
    }

    /// How many times the diagnostic of `callback` was printed (0 or 1).
    func printCount(for callback: TerminalCallback) -> Int {
        state.withLock { $0.printCounts[callback, default: 0] }
    }

    /// Adds an observer of every report (printed or not); returns the token that removes it.
    func addObserver(_ observer: @escaping @Sendable (Report) -> Void) -> UUID {
        let token = UUID()
        state.withLock { $0.observers[token] = observer }
        return token
    }

    /// Removes the observer added with `token`.
    func removeObserver(_ token: UUID) {
        state.withLock { _ = $0.observers.removeValue(forKey: token) }
    }

    /// The diagnostic: which callback, on which delegate, the accepted spellings, what to do.
    static func message(for callback: TerminalCallback, delegateType: String) -> String {
        let spellings = callback.acceptedSpellings
        let choice =
            spellings.count == 1 ? "Implement it:" : "Implement exactly one of these \(spellings.count) spellings:"
        return """
            AccessEnabler: your delegate \(delegateType) did not receive the callback \(callback.name), \
            because it implements no method with an accepted spelling. This callback ends an AccessEnabler \
            call, so without it your app waits for an answer that it never sees. \(choice)
            \(spellings.map { "    \($0)" }.joined(separator: "\n"))
            A method with another name, other labels or other parameter types (Int for Int32, String? for \
            String!, [MVPD]! for [MVPD]) is a different method that the SDK never calls, and so is a method \
            that only a subclass declares: put it in the class that adopts EntitlementDelegate. If your app \
            does not need this callback, implement it with an empty body. (Printed once per callback per process.)

            """
    }

    private static func writeToStandardError(_ message: String) {
        FileHandle.standardError.write(Data(message.utf8))
    }
}
