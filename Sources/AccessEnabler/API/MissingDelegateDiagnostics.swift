import Foundation
import Synchronization

/// Makes a call whose answer reaches nobody impossible to miss: the SDK holds its delegates
/// weakly, as the legacy SDK did, so a delegate object nothing else keeps alive is gone the
/// moment it is assigned — and every answer after that is silence.
///
/// A call whose answer is a delegate callback, made through the delegate API while
/// ``AccessEnabler/delegate`` is `nil`, is reported (``Diagnostic/noDelegate(call:message:)``
/// each time, one line on standard error per call name per process); so is a call made
/// while the delegate adopts ``EntitlementStatus`` but ``AccessEnabler/statusDelegate`` is
/// `nil` — the statuses it meant to receive go nowhere. The async API needs no delegate.
final class MissingDelegateDiagnostics: Sendable {
    /// Which delegate property is missing.
    enum Receiver: String, Sendable {
        case delegate
        case statusDelegate
    }

    /// The process-wide ledger; it prints to standard error.
    static let shared = MissingDelegateDiagnostics(print: { FileHandle.standardError.write(Data($0.utf8)) })

    private let printed = Mutex<Set<String>>([])
    private let print: @Sendable (String) -> Void

    /// A ledger that prints through `print` (tests pass a collector).
    init(print: @escaping @Sendable (String) -> Void) {
        self.print = print
    }

    /// `call` was made while `receiver` is `nil`: returns the diagnostic's message, printed
    /// the first time for this call and receiver.
    @discardableResult
    func report(call: String, answer: String, missing receiver: Receiver, delegateType: String? = nil) -> String {
        let message = Self.message(call: call, answer: answer, missing: receiver, delegateType: delegateType)
        let first = printed.withLock { $0.insert("\(receiver.rawValue) \(call)").inserted }
        if first { print(message) }
        return message
    }

    /// How many lines were printed for `call` and `receiver` (0 or 1).
    func printCount(call: String, missing receiver: Receiver) -> Int {
        printed.withLock { $0.contains("\(receiver.rawValue) \(call)") ? 1 : 0 }
    }

    /// The diagnostic: which call, which delegate is missing, why, what to do.
    static func message(call: String, answer: String, missing receiver: Receiver, delegateType: String?) -> String {
        switch receiver {
        case .delegate:
            return """
                AccessEnabler: \(call) was called while AccessEnabler.delegate is nil, so its answer (\(answer)) reaches \
                nobody and your app waits for it forever. The SDK holds its delegates weakly, as the legacy SDK did: assign \
                an object something else keeps alive (a property of your app's controller, not a temporary), before the \
                first call. (Printed once per call per process.)

                """
        case .statusDelegate:
            return """
                AccessEnabler: \(call) was called while your delegate \(delegateType ?? "") adopts EntitlementStatus but \
                AccessEnabler.statusDelegate is nil, so the statuses that explain its answer reach nobody. Set \
                accessEnabler.statusDelegate as well (held weakly too). (Printed once per call per process.)

                """
        }
    }
}
