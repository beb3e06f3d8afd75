/// Why a `LoopbackHTTPServer` could not start.
public enum LoopbackHTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case invalidHost(String)
    /// Another socket already listens on `host`:`port` (another program, or another sandbox).
    case portInUse(host: String, port: Int)
    /// The socket could not be created or bound (permission…); the text says why.
    case bindFailed(String)
    /// The bound socket could not listen; the text says why.
    case listenFailed(String)
    /// `start()` was called on a server that already started (servers are not restartable).
    case alreadyStarted

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .invalidHost(let host): "\(host) is not a numeric IPv4 or IPv6 address (or localhost)."
        case .portInUse(let host, let port):
            "Port \(port) on \(host) is already in use: another program (perhaps another sandbox) listens there."
        case .bindFailed(let reason): "The server's socket could not be bound: \(reason)."
        case .listenFailed(let reason): "The server's socket could not listen: \(reason)."
        case .alreadyStarted: "The server has already started; a server starts once."
        }
    }
}
