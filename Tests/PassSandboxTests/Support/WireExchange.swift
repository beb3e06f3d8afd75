import Foundation
import Testing

@testable import PassSandbox

/// A sandbox on a loopback port and exchanges with it written byte by byte (method, target,
/// every header, the body and its framing), read back with every response header: what the
/// wire conformance tests need that URLSession hides or decides for them.
final class WireExchange: Sendable {
    let sandbox: PassSandbox
    let rig: LoopbackRig
    let port: Int
    /// A registered client's access token.
    let bearer: String
    let deviceID = "wire-conformance-tv"

    init(sandbox: PassSandbox = PassSandbox()) async throws {
        self.sandbox = sandbox
        rig = try LoopbackRig(sandbox: sandbox)
        port = try #require(rig.server.port)
        bearer = try await rig.registerTV().bearer
    }

    func shutdown() { rig.shutdown() }

    /// `Authorization`, `AP-Device-Identifier` and `X-Device-Info` (`deviceInfo`, or the test
    /// client's), as a device sends them on REST API V2.
    func deviceHeaders(deviceInfo: String = SandboxTestClient.deviceInfo) -> [(String, String)] {
        [
            ("Authorization", "Bearer \(bearer)"),
            ("AP-Device-Identifier", "fingerprint \(Data(deviceID.utf8).base64EncodedString())"),
            ("X-Device-Info", deviceInfo),
        ]
    }

    /// The bytes of an HTTP/1.1 request with `Host`; the body is framed by `Content-Length`,
    /// or sent in `chunks` with `Transfer-Encoding: chunked`.
    func requestBytes(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String? = nil,
        chunks: [String]? = nil
    ) -> String {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let chunks {
            head += "Transfer-Encoding: chunked\r\n\r\n"
            for chunk in chunks where !chunk.isEmpty {
                head += String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
            }
            return head + "0\r\n\r\n"
        }
        if let body { return head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body }
        return head + "\r\n"
    }

    /// One request on a new connection, and its response (for HEAD: its head only).
    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String? = nil,
        chunks: [String]? = nil
    ) async throws -> HTTPTestResponse {
        let client = try HTTPTestClient(port: port)
        client.send(requestBytes(method, target, headers: headers, body: body, chunks: chunks))
        let response = method == "HEAD" ? await client.readResponseHead() : await client.readResponse()
        return try #require(response, "\(method) \(target): no response")
    }

    /// The JSON object of a response body.
    static func object(_ response: HTTPTestResponse) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(response.body), options: []) as? [String: Any]
        else {
            throw TestFailure("not a JSON object: \(response.text)")
        }
        return object
    }

    /// Opens a session for `mvpd` over HTTP and returns its code.
    func openSession(mvpd: String = "NotBoarded", deviceInfo: String = SandboxTestClient.deviceInfo) async throws
        -> String
    {
        let response = try await send(
            "POST", "/api/v2/REF30/sessions",
            headers: deviceHeaders(deviceInfo: deviceInfo) + [("Content-Type", "application/x-www-form-urlencoded")],
            body: "mvpd=\(mvpd)&domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Ftv.app")
        return try #require(try Self.object(response).string("code"), "\(response.text)")
    }
}

/// Base64 of a JSON object, as `X-Device-Info` carries it.
func encodedDeviceInfo(_ object: [String: Any]) throws -> String {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).base64EncodedString()
}
