/// The bounds a `LoopbackHTTPServer` puts on each client, so that no client (slow,
/// broken or hostile) can hold its memory or connections for long.
public struct LoopbackHTTPServerLimits: Sendable {
    /// Largest request accepted, head and body together; larger ones get 413 and
    /// the connection closes. Default 1 MiB.
    public var maxRequestBytes: Int
    /// Largest request head (request line, fields, blank line); larger ones get 431
    /// and the connection closes. Default 32 KiB.
    public var maxHeaderBytes: Int
    /// Seconds a request head may take to arrive completely, counted from the
    /// connection's acceptance for the first request and from the head's first byte
    /// after that. When it runs out the connection closes without an answer. Default 10 s.
    public var headerTimeout: Double
    /// Seconds a kept-alive connection may stay silent between requests before it is
    /// closed. Also bounds how long a client may leave a response unread. Default 30 s.
    public var idleTimeout: Double
    /// Seconds a request body may take to arrive completely after its head; when it
    /// runs out the server answers 408 and closes. Default 30 s.
    public var bodyTimeout: Double
    /// Most connections served at once. Each connection uses one thread. When a new
    /// client arrives at the limit, the connection idle the longest is closed to make
    /// room (a kept-alive client reconnects); only when every connection is busy with a
    /// request is the new client closed at once. Default 512.
    public var maxConnections: Int

    /// Creates limits; every argument has the documented default.
    public init(
        maxRequestBytes: Int = 1 << 20,
        maxHeaderBytes: Int = 32 << 10,
        headerTimeout: Double = 10,
        idleTimeout: Double = 30,
        bodyTimeout: Double = 30,
        maxConnections: Int = 512
    ) {
        self.maxRequestBytes = maxRequestBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maxConnections = maxConnections
    }
}
