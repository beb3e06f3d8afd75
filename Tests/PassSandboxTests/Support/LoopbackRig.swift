import Foundation
import Testing

@testable import PassSandbox

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A sandbox served over loopback HTTP, and plain HTTP exchanges with it that hand
/// redirects back instead of following them (as the tests need to see them).
final class LoopbackRig: Sendable {
    let sandbox: PassSandbox
    let server: LoopbackHTTPServer
    let baseURL: URL

    init(sandbox: PassSandbox = PassSandbox()) throws {
        self.sandbox = sandbox
        (server, baseURL) = try sandbox.serveOverLoopback()
    }

    /// Stops the server.
    func shutdown() { server.shutdown() }

    /// One HTTP exchange with the sandbox: `target` is a path (with query) or an absolute URL.
    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil) async throws
        -> LoopbackAnswer
    {
        let url = try #require(
            target.hasPrefix("http") ? URL(string: target) : URL(string: baseURL.absoluteString + target))
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        let session = URLSession(configuration: .ephemeral, delegate: KeepRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let outcome: Result<LoopbackAnswer, TestFailure> = await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(
                        returning: .failure(
                            TestFailure("\(method) \(url): \(error.map { "\($0)" } ?? "no HTTP response")")))
                    return
                }
                continuation.resume(
                    returning: .success(
                        LoopbackAnswer(
                            status: http.statusCode, location: http.value(forHTTPHeaderField: "Location"),
                            contentType: http.value(forHTTPHeaderField: "Content-Type"), body: data ?? Data())))
            }.resume()
        }
        return try outcome.get()
    }

    /// A browser's form POST: `Accept: text/html`, a form body.
    func postPage(_ path: String, _ fields: [(String, String)]) async throws -> LoopbackAnswer {
        let body = fields.map { "\(SandboxEngine.formEncode($0.0))=\(SandboxEngine.formEncode($0.1))" }.joined(
            separator: "&")
        return try await send(
            "POST", path,
            headers: [
                "Accept": "text/html", "Content-Type": "application/x-www-form-urlencoded",
            ], body: body)
    }

    /// A browser's page load (`Accept: text/html`).
    func getPage(_ target: String) async throws -> LoopbackAnswer {
        try await send("GET", target, headers: ["Accept": "text/html"])
    }

    /// Registers a TV over HTTP (DCR register, then token) for `statement`.
    func registerTV(statement: String = "STATEMENT", deviceID: String = "living-room-tv") async throws -> LoopbackTV {
        let info = SandboxTestClient.deviceInfo
        let registered = try await send(
            "POST", "/o/client/register", headers: ["Content-Type": "application/json", "X-Device-Info": info],
            body: #"{"software_statement":"\#(statement)","redirect_uri":"adobepass://tv.app"}"#
        ).object()
        let clientID = try #require(registered["client_id"] as? String)
        let secret = try #require(registered["client_secret"] as? String)
        let token = try await send(
            "POST", "/o/client/token",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Device-Info": info],
            body: "client_id=\(clientID)&client_secret=\(secret)&grant_type=client_credentials"
        ).object()
        return LoopbackTV(rig: self, bearer: try #require(token["access_token"] as? String), deviceID: deviceID)
    }
}

/// What a TV (or set-top box) does over REST: open an authentication session and poll
/// for the profile of its code.
struct LoopbackTV: Sendable {
    let rig: LoopbackRig
    let bearer: String
    let deviceID: String

    var headers: [String: String] {
        [
            "Authorization": "Bearer \(bearer)",
            "AP-Device-Identifier": "fingerprint \(Data(deviceID.utf8).base64EncodedString())",
            "X-Device-Info": SandboxTestClient.deviceInfo,
            "Accept": "application/json",
        ]
    }

    /// `POST /api/v2/REF30/sessions` (without `mvpd` when nil); returns the session answer.
    func createSession(mvpd: String?, requestor: String = "REF30") async throws -> [String: Any] {
        var form = "domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Ftv.app"
        if let mvpd { form = "mvpd=\(mvpd)&" + form }
        var headers = self.headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await rig.send("POST", "/api/v2/\(requestor)/sessions", headers: headers, body: form).object()
    }

    /// The code of a new session.
    func code(mvpd: String?) async throws -> String {
        try #require(try await createSession(mvpd: mvpd)["code"] as? String)
    }

    /// `GET /api/v2/REF30/logout/{mvpd}`: the MVPD logout page's URL from the answer.
    func logoutURL(mvpd: String, requestor: String = "REF30") async throws -> String {
        let answer = try await rig.send(
            "GET", "/api/v2/\(requestor)/logout/\(mvpd)?redirectUrl=adobepass%3A%2F%2Ftv.app%2Flogout", headers: headers
        ).object()
        return try #require(answer.object("logouts").object(mvpd).string("url"))
    }

    /// `GET /api/v2/REF30/profiles/code/{code}`: the `profiles` map.
    func profiles(forCode code: String, requestor: String = "REF30") async throws -> [String: Any] {
        try await rig.send("GET", "/api/v2/\(requestor)/profiles/code/\(code)", headers: headers).object().object(
            "profiles")
    }
}

/// One answer from the loopback sandbox.
struct LoopbackAnswer: Sendable {
    let status: Int
    let location: String?
    let contentType: String?
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body, options: []) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(text)")
        }
        return object
    }
}

/// Hands redirects back to the caller instead of following them.
private final class KeepRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
