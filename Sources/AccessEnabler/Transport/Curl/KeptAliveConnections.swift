import Foundation

/// What the libcurl transport knows of the connections libcurl keeps alive, per host, to
/// apply ``KeepAliveReuse``: a request with a body is sent on a new connection when the
/// host's idle one may be closing. Pure; owned by the event loop's thread.
struct KeptAliveConnections: Sendable {
    private struct Host {
        /// When the last exchange with the host ended (uptime nanoseconds).
        var idleSince: UInt64
        /// The server's `Keep-Alive: timeout`, when it sent one.
        var advertisedTimeout: TimeInterval?
        /// Exchanges in progress with the host.
        var inFlight = 0
    }

    /// The idle timeout assumed for a server that does not advertise one.
    let assumedServerTimeout: TimeInterval
    private var hosts: [String: Host] = [:]

    init(assumedServerTimeout: TimeInterval = KeepAliveReuse.assumedServerTimeout) {
        self.assumedServerTimeout = assumedServerTimeout
    }

    /// The key connections are pooled under: scheme, host and port.
    static func key(for url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return "\(components.scheme ?? "")://\(components.host ?? ""):\(components.port.map(String.init) ?? "")"
    }

    /// An exchange with `host` starts at `now`: whether it must open a new connection
    /// rather than reuse the idle one.
    mutating func starting(host: String, body: Data?, now: UInt64) -> Bool {
        var fresh = false
        if !KeepAliveReuse.isRepeatableByTheHTTPStack(body: body), let connection = hosts[host],
            connection.inFlight == 0
        {
            let idle = TimeInterval(now &- connection.idleSince) / 1_000_000_000
            fresh = KeepAliveReuse.mayBeClosed(
                idle: idle, advertisedTimeout: connection.advertisedTimeout, assumedTimeout: assumedServerTimeout)
        }
        hosts[host, default: Host(idleSince: now)].inFlight += 1
        return fresh
    }

    /// An exchange with `host` ended at `now`: the connection is idle from now, or gone
    /// after a failure or `Connection: close`.
    mutating func ended(host: String, result: Result<HTTPResponseMessage, TransportFailure>, now: UInt64) {
        guard var connection = hosts[host] else { return }
        connection.inFlight = max(0, connection.inFlight - 1)
        switch result {
        case .success(let response) where !KeepAliveReuse.closesConnection(response.header("Connection")):
            connection.idleSince = now
            connection.advertisedTimeout = KeepAliveReuse.advertisedTimeout(response.header("Keep-Alive"))
            hosts[host] = connection
        default:
            hosts[host] = connection.inFlight == 0 ? nil : connection
        }
    }
}
