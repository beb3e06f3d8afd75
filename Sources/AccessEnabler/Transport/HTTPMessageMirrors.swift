import Foundation

// What `dump(_:)` and debuggers show of the messages a transport moves. Header values and
// bodies carry the access token (`Authorization`), the device identifier
// (`AP-Device-Identifier`), the DCR client secret and media tokens: the mirrors show header
// names and body sizes only. A transport or a middleware that must look at them reads the
// properties themselves.

extension HTTPRequestMessage: CustomReflectable {
    /// The method, the URL, the operation, the header names and the body's size: no header
    /// value and no body, which may hold a token, a client secret or a device identifier.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method, "url": url, "operationName": operationName as Any, "headers": headers.map(\.name),
                "body": body.map { "\($0.count) bytes" } ?? "none",
                "maximumResponseBodySize": maximumResponseBodySize as Any,
            ],
            displayStyle: .struct)
    }
}

extension HTTPResponseMessage: CustomReflectable {
    /// The status, the header names and the body's size: no header value and no body, which
    /// may hold a token, a client secret or a media token.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["status": status, "headers": headers.map(\.name), "body": "\(body.count) bytes"],
            displayStyle: .struct)
    }
}
