import Foundation

/// The rest of a middleware chain: hands the request on to the next middleware, and at the
/// end of the chain to the transport.
typealias RESTNext = @Sendable (HTTPRequestMessage) async throws(RESTClientError) -> HTTPResponseMessage

/// One policy applied to every REST API V2 and DCR request on its way to the transport and
/// to its answer on the way back: signing with the access token, the enhanced-error retry,
/// the throttling gate, the request-timeout backstop.
///
/// A middleware may change the request, call `next` zero, one or more times, and change or
/// replace the answer. ``RESTExchange`` composes them in order, the first one outermost.
protocol RESTMiddleware: Sendable {
    /// Handles `request` for `operation`, calling `next` to send it further down the chain.
    func intercept(
        _ request: HTTPRequestMessage, operation: RESTOperation, next: @escaping RESTNext
    ) async throws(RESTClientError) -> HTTPResponseMessage
}
