/// How much body the SDK reads of one answer (`AccessEnablerConfiguration.maximumResponseBodySize`):
/// each request carries the limit (``HTTPRequestMessage/maximumResponseBodySize``) so the
/// transport stops reading past it, and ``ObservedTransport`` refuses a body that still
/// arrives longer, from a transport that does not honour it. Either way the exchange fails
/// with ``TransportFailure/responseTooLarge(limit:)``, which the REST client reports as a
/// body that is not the documented answer.
enum ResponseSizeLimit {
    /// `limit` bytes for a person: "4 MiB", "512 KiB", "100 bytes".
    static func describe(_ limit: Int) -> String {
        if limit >= 1 << 20, limit % (1 << 20) == 0 { return "\(limit >> 20) MiB" }
        if limit >= 1 << 10, limit % (1 << 10) == 0 { return "\(limit >> 10) KiB" }
        return "\(limit) bytes"
    }
}
