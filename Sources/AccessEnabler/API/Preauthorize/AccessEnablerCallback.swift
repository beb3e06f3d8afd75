import Foundation

/// The two outcomes of an asynchronous AccessEnabler call, as closures: the legacy SDK's
/// `AccessEnablerCallback<PreauthorizeResponse>`.
///
/// ```swift
/// func onResponseCallback(result: PreauthorizeResponse) -> Void { … }
/// func onFailureCallback(result: PreauthorizeResponse) -> Void { … }
/// let callback = AccessEnablerCallback<PreauthorizeResponse>(onResponse: onResponseCallback, onFailure: onFailureCallback)
/// ```
///
/// The SDK calls exactly one of them per call, on the configuration's `callbackQueue`.
/// The callback takes ownership of its closures (`sending`: a closure that shares unguarded
/// state with the caller does not compile) and runs them one at a time, so it can be handed
/// to the SDK's queue safely.
public struct AccessEnablerCallback<Response: Sendable>: Sendable {
    private let handlers: Handlers

    /// Creates a callback from the closure for a response (a result, possibly an error
    /// result with a status) and the one for a failure (the SDK could not serve the call).
    public init(onResponse: sending @escaping (Response) -> Void, onFailure: sending @escaping (Response) -> Void) {
        handlers = Handlers(onResponse: onResponse, onFailure: onFailure)
    }

    /// Runs the response closure with `result`.
    public func onResponse(result: Response) {
        handlers.run { $0.onResponse(result) }
    }

    /// Runs the failure closure with `result`.
    public func onFailure(result: Response) {
        handlers.run { $0.onFailure(result) }
    }

    /// The closures, owned by the callback and only ever run under its lock: that is what
    /// makes sharing them across threads safe although they are not `@Sendable`.
    private final class Handlers: @unchecked Sendable {
        let onResponse: (Response) -> Void
        let onFailure: (Response) -> Void
        private let lock = NSRecursiveLock()

        init(onResponse: @escaping (Response) -> Void, onFailure: @escaping (Response) -> Void) {
            self.onResponse = onResponse
            self.onFailure = onFailure
        }

        func run(_ body: (Handlers) -> Void) {
            lock.lock()
            defer { lock.unlock() }
            body(self)
        }
    }
}
