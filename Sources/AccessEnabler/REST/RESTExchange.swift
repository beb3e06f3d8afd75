import Foundation

/// Sends one prepared request through the transport and maps transport failures onto
/// ``RESTClientError/transport(operation:_:)``.
///
/// The request timeout is enforced here as well as by the transport: a transport that
/// ignores its `timeout` argument (an in-process one, a custom one) still cannot hold a
/// flow much longer than the configured time, so every facade call ends. The backstop
/// fires a little after the timeout, so a transport that keeps its own deadline reports
/// it first (and decorators around it see their call end before the flow moves on).
struct RESTExchange: Sendable {
    let transport: any HTTPTransport
    let timeout: TimeInterval

    /// How long after `timeout` the backstop gives up on the transport.
    static let backstopGrace: TimeInterval = 0.25

    func send(_ request: HTTPRequestMessage, operation: RESTOperation) async throws(RESTClientError) -> HTTPResponseMessage {
        let result: Result<HTTPResponseMessage, TransportFailure>
        if timeout.isFinite, timeout > 0 {
            result = await Self.firstOf(timeout: timeout + Self.backstopGrace) { [transport, timeout] in
                do throws(TransportFailure) { return .success(try await transport.send(request, timeout: timeout)) } catch { return .failure(error) }
            }
        } else {
            do { result = .success(try await transport.send(request, timeout: timeout)) } catch { result = .failure(error) }
        }
        switch result {
        case .success(let response): return response
        case .failure(let failure): throw .transport(operation: operation, failure)
        }
    }

    /// The outcome of `work`, or `.timedOut` when it has not finished after `timeout`
    /// seconds (the work is then cancelled and its late outcome ignored).
    private static func firstOf(
        timeout: TimeInterval, _ work: @escaping @Sendable () async -> Result<HTTPResponseMessage, TransportFailure>
    ) async -> Result<HTTPResponseMessage, TransportFailure> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>) in
            let outcome = FirstOutcome(continuation)
            let worker = Task { outcome.deliver(await work()) }
            let timer = Task {
                // Clamped so a huge timeout ("never") cannot overflow the conversion.
                try? await Task.sleep(nanoseconds: UInt64(min(timeout, 1_000_000_000) * 1_000_000_000))
                if !Task.isCancelled, outcome.deliver(.failure(.timedOut)) { worker.cancel() }
            }
            outcome.onDelivered = { timer.cancel() }
        }
    }
}

/// Resumes a continuation with the first outcome delivered; later ones are dropped.
private final class FirstOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>?
    private var delivered = false
    private var cleanup: (@Sendable () -> Void)?

    init(_ continuation: CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>) {
        self.continuation = continuation
    }

    /// Runs once the outcome is known (at once when it already is).
    var onDelivered: (@Sendable () -> Void)? {
        get { lock.withLock { cleanup } }
        set {
            let runNow = lock.withLock { () -> Bool in
                if delivered { return true }
                cleanup = newValue
                return false
            }
            if runNow { newValue?() }
        }
    }

    /// `true` when this outcome was the first.
    @discardableResult
    func deliver(_ result: Result<HTTPResponseMessage, TransportFailure>) -> Bool {
        let (first, after) = lock.withLock { () -> (CheckedContinuation<Result<HTTPResponseMessage, TransportFailure>, Never>?, (@Sendable () -> Void)?) in
            guard !delivered else { return (nil, nil) }
            delivered = true
            defer { continuation = nil; cleanup = nil }
            return (continuation, cleanup)
        }
        guard let first else { return false }
        first.resume(returning: result)
        after?()
        return true
    }
}
