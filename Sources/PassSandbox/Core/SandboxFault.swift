import Foundation

/// A misbehaviour injected into one endpoint with `PassSandbox.inject(_:into:)`: one or more
/// ``Effect``s, for every request or for the next ``remaining`` ones.
///
/// The effects combine (a fault may both delay and fail a response) and apply in the order
/// ``Effect`` declares them, whatever order they were given in: latency first, then a
/// dropped connection, then a status, then what is done to the endpoint's own answer (a
/// malformed body, an oversized body, retryable decision errors). A fault holds at most one
/// effect of each ``Effect/Name``: a later one replaces an earlier one.
public struct SandboxFault: Sendable, Equatable {
    /// One way an endpoint misbehaves. PassSandbox applies each in an exhaustive `switch`, and
    /// the scenario format reads each in another, so a new effect is a compiler error in both
    /// until it is applied and spelled.
    public enum Effect: Sendable, Equatable {
        /// Wait this many seconds (real time, not the sandbox clock) before answering.
        case latency(TimeInterval)
        /// Close the connection without any response.
        case dropConnection
        /// Answer this status with an enhanced error body and do nothing else (no state
        /// changes).
        case status(Int)
        /// Do the endpoint's work but answer 200 with a truncated, unparsable JSON body.
        case malformedBody
        /// Do the endpoint's work but answer 200 with a well-formed JSON body of this many
        /// bytes (padding), as a hostile or broken server might: to check that a client
        /// bounds what it reads.
        case oversizedBody(bytes: Int)
        /// On a decisions endpoint, do the work but answer the decision of each of these
        /// resources (of every resource when empty) as not authorized, with the enhanced error
        /// `network_received_error`, whose action is `retry`: an error inside a `200`.
        case retryableDecisionErrors(resources: [String])

        /// Which effect this is, without its value: `CaseIterable`, so tests can check that
        /// every effect is applied and every effect has a member in the scenario format.
        public enum Name: String, CaseIterable, Sendable {
            /// ``Effect/latency(_:)``.
            case latency
            /// ``Effect/dropConnection``.
            case dropConnection
            /// ``Effect/status(_:)``.
            case status
            /// ``Effect/malformedBody``.
            case malformedBody
            /// ``Effect/oversizedBody(bytes:)``.
            case oversizedBody
            /// ``Effect/retryableDecisionErrors(resources:)``.
            case retryableDecisionErrors

            /// Where the effect applies among the others: its place in `allCases`.
            var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
        }

        /// Which effect this is.
        public var name: Name {
            switch self {
            case .latency: .latency
            case .dropConnection: .dropConnection
            case .status: .status
            case .malformedBody: .malformedBody
            case .oversizedBody: .oversizedBody
            case .retryableDecisionErrors: .retryableDecisionErrors
            }
        }
    }

    /// The effects, one per name at most, in the order they apply (``Effect/Name``'s order).
    public private(set) var effects: [Effect]
    /// How many requests the fault still applies to; `nil` means until cleared.
    public var remaining: Int?

    /// A fault of `effects` (a later effect of a name replaces an earlier one) for the next
    /// `remaining` requests, or until cleared.
    public init(_ effects: [Effect], remaining: Int? = nil) {
        self.effects = []
        self.remaining = remaining
        for effect in effects { add(effect) }
    }

    /// A fault of the effects named by its arguments; each left at its default is absent.
    public init(
        latency: TimeInterval = 0, status: Int? = nil, malformedBody: Bool = false, dropConnection: Bool = false,
        oversizedBody: Int? = nil, remaining: Int? = nil, retryableDecisionErrors: [String]? = nil
    ) {
        var effects: [Effect] = []
        if latency > 0 { effects.append(.latency(latency)) }
        if let status { effects.append(.status(status)) }
        if malformedBody { effects.append(.malformedBody) }
        if dropConnection { effects.append(.dropConnection) }
        if let oversizedBody { effects.append(.oversizedBody(bytes: oversizedBody)) }
        if let retryableDecisionErrors { effects.append(.retryableDecisionErrors(resources: retryableDecisionErrors)) }
        self.init(effects, remaining: remaining)
    }

    /// Adds `effect` in its place, replacing the effect of the same name.
    public mutating func add(_ effect: Effect) {
        effects.removeAll { $0.name == effect.name }
        let place = effects.firstIndex { $0.name.order > effect.name.order }
        effects.insert(effect, at: place ?? effects.endIndex)
    }

    /// The seconds to wait before answering (0: none).
    public var latency: TimeInterval {
        for case .latency(let seconds) in effects { return seconds }
        return 0
    }
}
