import Foundation

/// A transport decorator that bounds every response body: each request carries the limit
/// (``HTTPRequestMessage/maximumResponseBodySize``) so the transport can stop reading past
/// it, and a body that still arrives longer — from a transport that does not honour the
/// limit — is refused here. Either way the exchange fails with
/// ``TransportFailure/responseTooLarge(limit:)``, which the REST client reports as a body
/// that is not the documented answer.
struct ResponseSizeLimit: HTTPTransport {
    let inner: any HTTPTransport
    /// The most bytes of body accepted.
    let limit: Int

    var keepsItsDeadline: Bool { inner.keepsItsDeadline }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        var bounded = request
        bounded.maximumResponseBodySize = min(limit, request.maximumResponseBodySize ?? limit)
        let response = try await inner.send(bounded, timeout: timeout)
        guard response.body.count <= limit else { throw .responseTooLarge(limit: limit) }
        return response
    }

    /// `limit` bytes for a person: "4 MiB", "512 KiB", "100 bytes".
    static func describe(_ limit: Int) -> String {
        if limit >= 1 << 20, limit % (1 << 20) == 0 { return "\(limit >> 20) MiB" }
        if limit >= 1 << 10, limit % (1 << 10) == 0 { return "\(limit >> 10) KiB" }
        return "\(limit) bytes"
    }
}
