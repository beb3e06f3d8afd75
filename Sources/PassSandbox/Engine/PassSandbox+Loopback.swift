import Foundation

extension PassSandbox {
    /// Serves this sandbox over HTTP on loopback: starts a ``LoopbackHTTPServer`` on `port`
    /// (0 picks a free one) and points the absolute links the sandbox writes (authenticate and
    /// login pages) at it. The caller shuts the returned server down.
    public func serveOverLoopback(port: Int = 0, limits: LoopbackHTTPServerLimits = .init()) throws -> (
        server: LoopbackHTTPServer, baseURL: URL
    ) {
        let server = LoopbackHTTPServer(port: port, limits: limits, handler: self)
        try server.start()
        guard let baseURL = server.baseURL else {
            server.shutdown()
            throw LoopbackHTTPServerError.listenFailed("the server started without an address")
        }
        baseURLForLinks = baseURL
        return (server, baseURL)
    }
}
