import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

/// A hand-driven REST client for tests: it builds raw `SandboxRequest`s (exact paths,
/// headers, forms and JSON) and reads raw responses, sharing nothing with the SDK.
struct SandboxTestClient {
    let sandbox: PassSandbox
    var bearer = ""
    var deviceID = "device-1"

    init(sandbox: PassSandbox = PassSandbox(), statement: String = "STATEMENT", deviceID: String = "device-1")
        async throws
    {
        self.sandbox = sandbox
        self.deviceID = deviceID
        bearer = try await Self.accessToken(sandbox, statement: statement)
    }

    static let deviceInfo = Data(
        #"{"primaryHardwareType":"SetTopBox","model":"AppleTV","version":"5","osName":"tvOS","osVersion":"17.0","connectionType":"WiFi"}"#
            .utf8
    )
    .base64EncodedString()

    /// Registers a client for `statement` and returns an access token.
    static func accessToken(_ sandbox: PassSandbox, statement: String) async throws -> String {
        let credentials = try await register(sandbox, statement: statement)
        return try await token(sandbox, clientID: credentials.clientID, secret: credentials.secret)
    }

    /// Registers a client for `statement`.
    static func register(_ sandbox: PassSandbox, statement: String) async throws -> (clientID: String, secret: String) {
        let register = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/register",
                headers: [("Content-Type", "application/json"), ("X-Device-Info", deviceInfo)],
                body: Array(#"{"software_statement":"\#(statement)","redirect_uri":"adobepass://ios.app"}"#.utf8)))
        let credentials = try object(register)
        return (credentials["client_id"] as? String ?? "", credentials["client_secret"] as? String ?? "")
    }

    /// A new access token for registered client credentials.
    static func token(_ sandbox: PassSandbox, clientID: String, secret: String) async throws -> String {
        let form = "client_id=\(clientID)&client_secret=\(secret)&grant_type=client_credentials"
        let token = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/token",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("X-Device-Info", deviceInfo)],
                body: Array(form.utf8)))
        return try object(token)["access_token"] as? String ?? ""
    }

    /// The headers every device-bound call sends.
    func headers(partnerStatus: String? = nil, contentType: String? = nil) -> [(name: String, value: String)] {
        var list: [(name: String, value: String)] = [
            ("Authorization", "Bearer \(bearer)"),
            ("AP-Device-Identifier", "fingerprint \(Data(deviceID.utf8).base64EncodedString())"),
            ("X-Device-Info", Self.deviceInfo),
            ("Accept", "application/json"),
        ]
        if let partnerStatus { list.append(("AP-Partner-Framework-Status", partnerStatus)) }
        if let contentType { list.append(("Content-Type", contentType)) }
        return list
    }

    func get(_ target: String, partnerStatus: String? = nil) async -> SandboxResponse {
        await sandbox.respond(
            to: SandboxRequest(method: "GET", target: target, headers: headers(partnerStatus: partnerStatus)))
    }

    func postForm(_ path: String, _ form: String, partnerStatus: String? = nil) async -> SandboxResponse {
        await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: path,
                headers: headers(partnerStatus: partnerStatus, contentType: "application/x-www-form-urlencoded"),
                body: Array(form.utf8)))
    }

    func postJSON(_ path: String, _ json: String, partnerStatus: String? = nil) async -> SandboxResponse {
        await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: path,
                headers: headers(partnerStatus: partnerStatus, contentType: "application/json"),
                body: Array(json.utf8)))
    }

    /// `POST /sessions` with all parameters.
    func createSession(mvpd: String, redirectUrl: String = "adobepass://ios.app") async -> SandboxResponse {
        await postForm(
            "/api/v2/REF30/sessions",
            "mvpd=\(mvpd)&domainName=adobe.com&redirectUrl=\(SandboxEngine.formEncode(redirectUrl))")
    }

    /// Creates a session and logs in at the MVPD login page; returns the session code.
    func login(mvpd: String, username: String = "alice", password: String = "alice123") async throws -> String {
        let session = try Self.object(await createSession(mvpd: mvpd))
        let code = try #require(session["code"] as? String)
        let response = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/mvpd/\(mvpd)/login",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("code=\(code)&username=\(username)&password=\(password)".utf8)))
        guard response.status == 302 else { throw TestFailure("login answered \(response.status)") }
        return code
    }

    /// The JSON object of a response body.
    static func object(_ response: SandboxResponse) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(response.body), options: []) as? [String: Any]
        else {
            throw TestFailure("not a JSON object: \(String(decoding: response.body, as: UTF8.self))")
        }
        return object
    }

    /// A Base64 `AP-Partner-Framework-Status` value.
    static func partnerStatus(access: String = "granted", provider: String? = "AppleBoarded", expiresAt: Date?)
        -> String
    {
        var providerInfo: [String: Any] = [:]
        if let provider { providerInfo["id"] = provider }
        if let expiresAt { providerInfo["expirationDate"] = String(expiresAt.epochMilliseconds) }
        let object: [String: Any] = [
            "frameworkPermissionInfo": ["accessStatus": access], "frameworkProviderInfo": providerInfo,
        ]
        return (try! JSONSerialization.data(withJSONObject: object, options: [])).base64EncodedString()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension [String: Any] {
    /// The nested object at `key`.
    func object(_ key: String) -> [String: Any] { self[key] as? [String: Any] ?? [:] }
    /// The string at `key`.
    func string(_ key: String) -> String? { self[key] as? String }
    /// The integer at `key`.
    func int(_ key: String) -> Int64? { (self[key] as? NSNumber)?.int64Value }
}
