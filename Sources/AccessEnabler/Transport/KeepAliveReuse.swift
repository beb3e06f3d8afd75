import Foundation

/// When a kept-alive connection may already be closed by the server, so a request that
/// cannot be repeated must not be sent on it. Pure: no I/O.
///
/// A server closes a connection that stayed idle for its keep-alive timeout. A request the
/// client sends in that instant meets a connection that is going away: the server reads
/// nothing or drops it unanswered. For a request without a body, libcurl (under either
/// transport) notices and repeats it at once on a new connection. For a request with a body
/// it must rewind the body first: FoundationNetworking's rewinding stalls until its own
/// 60-second timer, so the SDK would only see the request timeout, and ``CurlTransport``
/// gives libcurl no way to rewind (the request fails as a lost connection). Repeating such a
/// request is not sound: the server may have acted on it (a SAML response is refused when it
/// is sent twice). So both transports avoid the race instead: a request with a body goes out
/// on a new connection when the pooled one has been idle long enough that the server may be
/// closing it.
///
/// "Long enough" is the server's advertised `Keep-Alive: timeout=N` when it sends one, or
/// ``assumedServerTimeout`` (the shortest common server default, five seconds) when it does
/// not, less a margin of a second (half the timeout for short ones). A server that answered
/// `Connection: close` leaves no connection to reuse.
enum KeepAliveReuse {
    /// The idle timeout assumed for a server that does not advertise one.
    static let assumedServerTimeout: TimeInterval = 5

    /// Whether the HTTP stack repeats the request by itself when its connection turns out to
    /// be dead: requests without a body.
    static func isRepeatableByTheHTTPStack(body: Data?) -> Bool {
        body?.isEmpty ?? true
    }

    /// The `timeout` of a `Keep-Alive` response header (`timeout=5, max=100`), in seconds.
    static func advertisedTimeout(_ header: String?) -> TimeInterval? {
        guard let header else { return nil }
        for parameter in header.split(separator: ",") {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "timeout", let seconds = TimeInterval(pair[1]), seconds >= 0 {
                return seconds
            }
        }
        return nil
    }

    /// Whether the response leaves no connection to reuse (`Connection: close`).
    static func closesConnection(_ header: String?) -> Bool {
        header?.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "close" }
            ?? false
    }

    /// Whether a connection idle for `idle` seconds may be closed by its server by now.
    static func mayBeClosed(
        idle: TimeInterval, advertisedTimeout: TimeInterval?, assumedTimeout: TimeInterval = assumedServerTimeout
    ) -> Bool {
        let timeout = advertisedTimeout ?? assumedTimeout
        return idle >= timeout - min(1, timeout / 2)
    }
}
