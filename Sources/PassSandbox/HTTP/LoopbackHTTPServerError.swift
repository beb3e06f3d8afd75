/// Why a `LoopbackHTTPServer` could not start.
public enum LoopbackHTTPServerError: Error, Equatable, Sendable {
    /// The host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case invalidHost(String)
    /// The socket could not be created or bound (port in use, permission…); the text says why.
    case bindFailed(String)
    /// The bound socket could not listen; the text says why.
    case listenFailed(String)
    /// `start()` was called on a server that already started (servers are not restartable).
    case alreadyStarted
}
