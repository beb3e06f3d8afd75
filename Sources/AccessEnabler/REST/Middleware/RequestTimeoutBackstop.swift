import Foundation

/// The request-timeout backstop: the transport's exchange fails with
/// ``TransportFailure/timedOut`` shortly after the request timeout, whatever the transport
/// does.
///
/// A transport that ignores its `timeout` argument (an in-process one, a custom one) still
/// cannot hold a flow much longer than the configured time, so every facade call ends. The
/// backstop fires ``grace`` after the timeout, so a transport that keeps its own deadline
/// reports it first (and decorators around it see their call end before the flow moves on).
/// The deadline is an entry on the process's deadline watchdog, cancelled as soon as the
/// answer is in (see ``withDeadline(seconds:fallback:_:)``). A transport that keeps its own
/// deadline (``HTTPTransport/keepsItsDeadline``) gets no backstop.
enum RequestTimeoutBackstop {
    /// How long after the timeout the backstop gives up on the transport.
    static let grace: TimeInterval = 0.25

    /// The backstop's deadline in seconds for `timeout` over `transport`; `nil` for none (a
    /// transport that keeps its deadline, or a timeout that is zero, negative or infinite).
    static func seconds(timeout: TimeInterval, transport: any HTTPTransport) -> TimeInterval? {
        guard !transport.keepsItsDeadline, timeout.isFinite, timeout > 0 else { return nil }
        return timeout + grace
    }
}
