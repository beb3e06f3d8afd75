import Foundation

/// One thing the SDK reports for the app's own logging, through
/// ``AccessEnablerConfiguration/diagnostics``. Secrets never appear: a REST exchange is
/// its method, path (no query string), status and duration — never headers or bodies, so
/// no client secret, access token, SAML response or media token.
public enum Diagnostic: Sendable, Equatable {
    /// A REST API V2 or DCR request ended.
    case restExchange(RESTExchangeRecord)
    /// An advanced status was delivered (the same value `EntitlementStatus` receives).
    case status(AdvancedStatus)
    /// The SDK's storage could not do what it was asked; `message` says what and what to do.
    case storageProblem(message: String)
    /// A terminal callback reached a delegate that implements it under no accepted
    /// spelling: the app will wait for an answer it never sees. `message` says how to fix it.
    case unimplementedCallback(name: String, message: String)
    /// `setOptions` was given a key the SDK does not use (misspelt, or another SDK's option):
    /// it has no effect. `message` names the keys the SDK reads.
    case unusedOption(key: String, message: String)
    /// ``AccessEnablerConfiguration/platform`` was left at its default, iOS, which signs in
    /// through `navigateToUrl` and opens the MVPD logout page: a TV app that waits for a
    /// registration code would wait forever. Reported at the first `setRequestor` (and
    /// printed once per process to standard error); set the platform to silence it.
    case defaultPlatform(message: String)
    /// A call whose answer is a delegate callback was made while ``AccessEnabler/delegate``
    /// was `nil` (held weakly, a delegate nothing else keeps alive is gone at once), or while
    /// the delegate adopts ``EntitlementStatus`` and ``AccessEnabler/statusDelegate`` was
    /// `nil`: the answer, or its statuses, reach nobody. `call` names the call; `message` says
    /// what to do (it is also printed to standard error, once per call per process).
    case noDelegate(call: String, message: String)
    /// ``AccessEnablerConfiguration/transport`` is a ``CurlTransport`` that could not load
    /// libcurl, so requests go through ``URLSessionTransport``. Reported at the first
    /// `setRequestor` (and printed once per process to standard error); `message` says why
    /// and what to install.
    case transportFallback(message: String)
}

extension Diagnostic: CustomStringConvertible {
    /// One line for a log, never a secret:
    ///
    /// - `POST /api/v2/REF30/sessions → 200 (12 ms)` for a REST exchange;
    /// - `status N130 (error): The sign-in … — details: ABC1234; enhanced error: authenticated_profile_expired, trace 4f1c…`
    ///   for a status: its id and level, its message, then whichever of its details, resource
    ///   and enhanced error (code and trace) it has;
    /// - `storage problem: …`, `unimplemented callback setToken: …`, `unused option visitorId: …`,
    ///   `default platform: …`, `no delegate for getAuthentication: …`, `transport fallback: …`
    ///   for the others, each with its sentence.
    public var description: String {
        switch self {
        case .restExchange(let exchange):
            return exchange.description
        case .status(let status):
            var line = "status \(status.errorId) (\(status.level.rawValue))"
            if let message = status.message, !message.isEmpty { line += ": \(message)" }
            var parts: [String] = []
            if let details = status.details, !details.isEmpty { parts.append("details: \(details)") }
            if let resource = status.resource, !resource.isEmpty { parts.append("resource: \(resource)") }
            if let error = status.enhancedError {
                parts.append("enhanced error: \(error.code)" + (error.trace.map { ", trace \($0)" } ?? ""))
            }
            return parts.isEmpty ? line : line + " — " + parts.joined(separator: "; ")
        case .storageProblem(let message):
            return "storage problem: \(message)"
        case .unimplementedCallback(let name, let message):
            return "unimplemented callback \(name): \(message)"
        case .unusedOption(let key, let message):
            return "unused option \(key): \(message)"
        case .defaultPlatform(let message):
            return "default platform: \(message)"
        case .noDelegate(let call, let message):
            return "no delegate for \(call): \(message)"
        case .transportFallback(let message):
            return "transport fallback: \(message)"
        }
    }
}

/// One REST exchange, as ``Diagnostic/restExchange(_:)`` reports it.
public struct RESTExchangeRecord: Sendable, Equatable, CustomStringConvertible {
    /// `GET`, `POST`.
    public var method: String
    /// The host the request went to.
    public var host: String
    /// The path, without query string (`/api/v2/REF30/sessions`).
    public var path: String
    /// The operation, when the SDK named it (`createSession`, `dcrToken`, …).
    public var operation: String?
    /// The HTTP status, or `nil` when no response came back.
    public var status: Int?
    /// Why no response came back, when none did.
    public var failure: String?
    /// How long the exchange took, in seconds.
    public var duration: TimeInterval

    /// Creates a record.
    public init(
        method: String, host: String, path: String, operation: String? = nil, status: Int?, failure: String? = nil,
        duration: TimeInterval
    ) {
        self.method = method
        self.host = host
        self.path = path
        self.operation = operation
        self.status = status
        self.failure = failure
        self.duration = duration
    }

    /// `POST /api/v2/REF30/sessions → 200 (12 ms)`.
    public var description: String {
        let outcome = status.map(String.init) ?? "no response (\(failure ?? "failed"))"
        return "\(method) \(path) → \(outcome) (\(WholeNumber.clamped(duration * 1000) as Int) ms)"
    }
}
