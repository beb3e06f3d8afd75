import Foundation

@testable import AccessEnabler

/// Every call a random run made and every callback the SDK delivered, each callback with the
/// call the SDK says it belongs to, checked against the public API's table of terminal
/// callbacks:
///
/// - `setRequestor`, `checkAuthentication`, `checkAuthorization` / `getAuthorization`,
///   `checkPreauthorizedResources`, `getSelectedProvider`, `getMetadata` and the
///   Preauthorize API end exactly once, in a callback of their own kind; `setOptions` in none.
/// - An authentication call (`getAuthentication`, `setSelectedProvider`, `handleExternalURL`,
///   `logout`) ends at most once in a hand-over to the app (`displayProviderDialog`,
///   `navigateToUrl`, or a registration code — status REGCODE — which the SDK itself carries
///   on to one more `setAuthenticationStatus`), and at most once in a
///   `setAuthenticationStatus` of its own. Authentication is one flow across those calls,
///   and the state machine's rule holds: an authentication in the SDK's hands (a partner
///   sign-in, a code being polled, a login whose profile is being fetched) that a later call
///   abandons ends with that later call's `setAuthenticationStatus` — so an authentication
///   call may end in nothing of its own when the SDK says another call took its flow over
///   (``CallMonitor``'s takeovers); and a logout page still waiting for its redirect ends with one
///   `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)` delivered with the call that
///   abandoned it, ahead of that call's own.
final class CallLedger: @unchecked Sendable {
    /// What a call may end with.
    enum Kind: String, Sendable {
        case setOptions, setRequestor, checkAuthentication, authentication, authorization
        case preauthorizedResources, selectedProvider, metadata, preauthorize

        init(_ command: Command) {
            switch command {
            case .setOptions, .selectProfile: self = .setOptions
            case .setRequestor: self = .setRequestor
            case .checkAuthentication: self = .checkAuthentication
            case .getAuthentication, .setSelectedProvider, .handleExternalURL, .logout: self = .authentication
            case .checkAuthorization, .getAuthorization: self = .authorization
            case .checkPreauthorizedResources: self = .preauthorizedResources
            case .getSelectedProvider: self = .selectedProvider
            case .getMetadata: self = .metadata
            case .preauthorize: self = .preauthorize
            }
        }

        /// The terminal callback of a call of this kind that is not an authentication call.
        func isTerminal(_ callback: DelegateCall) -> Bool {
            switch (self, callback) {
            case (.setRequestor, .setRequestorComplete), (.checkAuthentication, .setAuthenticationStatus),
                (.authorization, .setToken), (.authorization, .tokenRequestFailed),
                (.preauthorizedResources, .preauthorizedResources), (.selectedProvider, .selectedProvider),
                (.metadata, .setMetadataStatus), (.preauthorize, .preauthorizeResult):
                return true
            default:
                return false
            }
        }
    }

    private struct Entry {
        let kind: Kind
        let description: String
        let isLogout: Bool
        /// Which AccessEnabler (0 for the first, one more at each relaunch).
        let instance: Int
        /// The action of the run that made the call.
        let action: Int
        /// Where the call stands in the order of calls and callbacks.
        let sequence: Int
        /// Terminal callbacks of a call that is not an authentication call.
        var terminals: [String] = []
        /// Hand-overs of an authentication call.
        var handOvers: [String] = []
        /// `setAuthenticationStatus` delivered with an authentication call.
        var statuses: [String] = []
        /// Where in ``events`` the first of them came.
        var firstStatusEvent: Int?
        /// Of those, the second-screen continuation and a setRequestor's ends of flows.
        var notItsOwn = 0
    }

    /// A call of one AccessEnabler of the run (each numbers its calls from 1).
    private struct Key: Hashable {
        var instance: Int
        var call: CallID
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []
    /// Terminal callbacks that belong to no call, or to a call never seen.
    private var strays: [String] = []
    /// Per AccessEnabler: where in ``events`` each logout handed a logout page over.
    private var logoutPages: [Int: [Int]] = [:]
    /// Per AccessEnabler: the call that handed a registration code over and whose
    /// continuation is still to come.
    private var codeHandedOver: [Int: Key] = [:]
    /// Calls whose flow another call took over, with that call.
    private var takenOver: [Key: Key] = [:]
    /// The action under way, set by the run.
    private var currentAction = 0
    /// Every call and callback in order (`A1 #5 call getAuthentication`, `A1 #5 ← navigateToUrl`),
    /// to show what happened around a problem.
    private var events: [String] = []

    /// Follows every call and callback of `accessEnabler`, the `instance`-th of the run.
    func follow(_ accessEnabler: AccessEnabler, instance: Int) {
        accessEnabler.monitor.install(
            calls: { [self] call, command in
                lock.withLock {
                    let key = Key(instance: instance, call: call)
                    var isLogout = false
                    if case .logout = command { isLogout = true }
                    entries[key] = Entry(
                        kind: Kind(command), description: Self.describe(command), isLogout: isLogout,
                        instance: instance,
                        action: currentAction, sequence: events.count)
                    order.append(key)
                    events.append("A\(instance) #\(call.value) call \(Self.describe(command))")
                }
            },
            callbacks: { [self] callback, owner in
                lock.withLock { record(callback, owner: owner, instance: instance) }
            },
            takeovers: { [self] old, new in
                lock.withLock {
                    takenOver[Key(instance: instance, call: old)] = Key(instance: instance, call: new)
                    events.append("A\(instance) #\(old.value) taken over by #\(new.value)")
                }
            })
    }

    /// Must be called with `lock` held.
    private func record(_ callback: DelegateCall, owner: CallID?, instance: Int) {
        events.append("A\(instance) #\(owner.map { "\($0.value)" } ?? "-") ← \(Self.describe(callback))")
        let key = owner.map { Key(instance: instance, call: $0) }
        guard let key, var entry = entries[key] else {
            if Self.isAnyTerminal(callback) {
                strays.append(
                    "\(Self.describe(callback)) (AccessEnabler \(instance), call \(owner.map { "\($0.value)" } ?? "none"))"
                )
            }
            return
        }
        defer { entries[key] = entry }
        switch callback {
        case .setAuthenticationStatus(let status, let code):
            let text = Self.describe(callback)
            if let handedOver = codeHandedOver[instance], handedOver == key {
                // The second-screen sign-in the call's code started has ended.
                codeHandedOver[instance] = nil
                entry.statuses.append(text)
                entry.notItsOwn += 1
                return
            }
            guard entry.kind == .authentication || entry.kind == .setRequestor else {
                if entry.kind.isTerminal(callback) { entry.terminals.append(text) }
                return
            }
            // A logout whose page was handed over ends that page with one status under its
            // own id when a later call abandons the page: the page's end, not a second one.
            if entry.isLogout, !entry.handOvers.isEmpty, entry.statuses.isEmpty {
                entry.statuses.append(text)
                entry.notItsOwn += 1
                return
            }
            if entry.statuses.isEmpty, entry.handOvers.isEmpty, status == ACCESS_ENABLER_STATUS_ERROR,
                code == USER_NOT_AUTHENTICATED_ERROR
            {
                entry.firstStatusEvent = events.count - 1
            }
            entry.statuses.append(text)
            // A setRequestor ends the authentication it abandoned with this status; it is not its own end.
            if entry.kind == .setRequestor { entry.notItsOwn += 1 }
        case .displayProviderDialog, .navigateToUrl, .navigateToUrlUsingSVC:
            guard entry.kind == .authentication else { return }
            entry.handOvers.append(Self.describe(callback))
            if entry.isLogout { logoutPages[instance, default: []].append(events.count - 1) }
        case .status(let status) where status.errorId == "REGCODE":
            guard entry.kind == .authentication else { return }
            entry.handOvers.append("status(REGCODE)")
            codeHandedOver[instance] = key
        default:
            if entry.kind.isTerminal(callback) { entry.terminals.append(Self.describe(callback)) }
        }
    }

    /// The run moved on to action `index`.
    func beginAction(_ index: Int) { lock.withLock { currentAction = index } }

    /// How many calls were made.
    var callCount: Int { lock.withLock { order.count } }

    /// Every call that ended twice, or never (as the rules above define it), and every stray
    /// terminal callback. Calls of an instance in `abandoned` (the app quit while they
    /// waited for a person) may end in nothing; none may end twice.
    func problems(abandoned: Set<Int>) -> [String] {
        lock.withLock {
            var found = strays.map { "a terminal callback belonging to no call: \($0)" }
            for key in order {
                guard let entry = entries[key] else { continue }
                guard let problem = problem(of: entry, key: key, abandoned: abandoned.contains(entry.instance)) else {
                    continue
                }
                // What happened from the call on, to see why.
                let label =
                    "call \(key.call.value) \(entry.description) (action \(entry.action), AccessEnabler \(entry.instance))"
                found.append(
                    "\(label) \(problem) — then: "
                        + events[entry.sequence..<min(events.count, entry.sequence + 40)].joined(separator: " | "))
            }
            return found
        }
    }

    /// Must be called with `lock` held.
    private func problem(of entry: Entry, key: Key, abandoned: Bool) -> String? {
        switch entry.kind {
        case .setOptions:
            return entry.terminals.isEmpty ? nil : "ended in \(entry.terminals), which it never should"
        case .authentication:
            var endings = entry.handOvers.count + entry.statuses.count - entry.notItsOwn
            // The end of a logout page the call abandoned comes first, with the call.
            if endings > 1, let first = entry.firstStatusEvent,
                logoutPages[key.instance, default: []].contains(where: { $0 < first })
            {
                endings -= 1
            }
            if entry.handOvers.count > 1 || endings > 1 {
                return "ended more than once: hand-overs \(entry.handOvers), statuses \(entry.statuses)"
            }
            guard entry.handOvers.isEmpty, entry.statuses.isEmpty, !abandoned, takenOver[key] == nil else { return nil }
            return "never ended"
        default:
            if entry.terminals.count > 1 { return "ended \(entry.terminals.count) times: \(entry.terminals)" }
            if entry.terminals.isEmpty, !abandoned { return "never ended" }
            return nil
        }
    }

    /// Whether `callback` ends some call (``DelegateCall/Name/endsACall``: the SDK's one definition).
    private static func isAnyTerminal(_ callback: DelegateCall) -> Bool {
        callback.name.endsACall
    }

    /// `name(arguments)`, the name as the SDK spells it (``DelegateCall/Name/callbackName``).
    private static func describe(_ callback: DelegateCall) -> String {
        let name = callback.name.callbackName
        let arguments: String? =
            switch callback {
            case .status(let status): "\(status.errorId)"
            case .setAuthenticationStatus(let status, let code): "\(status), \(code)"
            case .setToken(_, let resource): resource
            case .tokenRequestFailed(let resource, let code, _): "\(resource), \(code)"
            case .sendTrackingData(_, let event): "\(event)"
            case .setRequestorComplete(let status): "\(status)"
            case .preauthorizedResources(let resources): "\(resources.count)"
            case .selectedProvider(let mvpd): mvpd?.id ?? "nil"
            case .setMetadataStatus(_, _, let key, _): "\(key)"
            case .preauthorizeResult(let outcome, _): outcome.isFailure ? "failure" : "response"
            case .displayProviderDialog, .navigateToUrl, .navigateToUrlUsingSVC, .presentTVProviderDialog,
                .dismissTVProviderDialog:
                nil
            }
        return arguments.map { "\(name)(\($0))" } ?? name
    }

    private static func describe(_ command: Command) -> String {
        switch command {
        case .setOptions: "setOptions"
        case .selectProfile(let mvpd): "selectProfile(\(mvpd))"
        case .setRequestor(let id, _): "setRequestor(\(id))"
        case .checkAuthentication: "checkAuthentication"
        case .getAuthentication(let force, _, let filter):
            "getAuthentication(force: \(force), filter: \(filter?.providers ?? []))"
        case .setSelectedProvider(let id): "setSelectedProvider(\(id ?? "nil"))"
        case .handleExternalURL(let url): "handleExternalURL(\(url.prefix(40)))"
        case .checkAuthorization(let resource, _): "checkAuthorization(\(resource))"
        case .getAuthorization(let resource, _): "getAuthorization(\(resource))"
        case .checkPreauthorizedResources(let resources, let cache):
            "checkPreauthorizedResources(\(resources), cache: \(cache))"
        case .logout: "logout"
        case .getSelectedProvider: "getSelectedProvider"
        case .getMetadata(let query, _): "getMetadata(\(query))"
        case .preauthorize: "preauthorize"
        }
    }
}
