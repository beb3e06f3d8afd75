import Foundation

/// What a test delegate received: one entry per callback, in arrival order, each naming
/// the spelling that received it. Thread-safe: callbacks arrive on the SDK's queue.
final class CallbackLog: @unchecked Sendable {
    /// One callback as received.
    struct Entry: Equatable, CustomStringConvertible {
        /// Which spelling of the callback received it.
        enum Spelling: String { case current, legacy }
        /// The callback's documented name (`navigateToUrl`, `status`, …).
        var name: String
        /// The arguments, rendered for comparison (`1,` for `setAuthenticationStatus(1, "")`).
        var arguments: String
        var spelling: Spelling

        var description: String { "\(name)(\(arguments))" }
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var everything: [Entry] = []
    private var dictionaries: [[AnyHashable: String]] = []

    /// Records one callback.
    func record(_ name: String, _ arguments: String, _ spelling: Entry.Spelling) {
        let entry = Entry(name: name, arguments: arguments, spelling: spelling)
        lock.withLock {
            entries.append(entry)
            everything.append(entry)
        }
    }

    /// Keeps a legacy status dictionary (its values rendered as text) for inspection.
    func keepStatusDictionary(_ dictionary: [AnyHashable: Any]) {
        lock.withLock { dictionaries.append(dictionary.mapValues { "\($0)" }) }
    }

    /// Everything received and not yet taken.
    var pending: [Entry] { lock.withLock { entries } }

    /// Everything ever received, taken or not.
    var history: [Entry] { lock.withLock { everything } }

    /// The status dictionaries received through the legacy `status` spelling.
    var statusDictionaries: [[AnyHashable: String]] { lock.withLock { dictionaries } }

    /// Takes the entries received so far, rendered as `name(arguments)`, and forgets them.
    func take() -> [String] {
        lock.withLock {
            defer { entries.removeAll() }
            return entries.map(\.description)
        }
    }

    /// As ``take()``, with the page addresses of `navigateToUrl` replaced by `page`: they
    /// hold one-time codes, so two runs of a flow compare equal only without them.
    func takeStable() -> [String] {
        take().map { line in
            guard line.hasPrefix("navigateToUrl"), let open = line.firstIndex(of: "(") else { return line }
            let name = line[..<open]
            let useSVC = line.hasSuffix(",true)") ? ",true" : line.hasSuffix(",false)") ? ",false" : ""
            return "\(name)(page\(useSVC))"
        }
    }

    /// The URL of the last `navigateToUrl`, in either form.
    var lastPage: String? {
        lock.withLock {
            guard let entry = everything.last(where: { $0.name.hasPrefix("navigateToUrl") }) else { return nil }
            if entry.name == "navigateToUrl:useSVC:", let comma = entry.arguments.lastIndex(of: ",") {
                return String(entry.arguments[..<comma])
            }
            return entry.arguments
        }
    }

    /// The arguments of the last entry named `name`.
    func lastArguments(of name: String) -> String? {
        lock.withLock { entries.last { $0.name == name }?.arguments }
    }
}
