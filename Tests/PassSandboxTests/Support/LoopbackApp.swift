import Foundation
import Testing

@testable import PassSandbox

/// An application on a device, talking REST API V2 to the loopback sandbox: its own
/// client registration (software statement → requestor), its device identifier, and the
/// identity tokens it presents (`AD-Service-Token`, `Adobe-Subject-Token`) when set.
struct LoopbackApp: Sendable {
    let rig: LoopbackRig
    let bearer: String
    let deviceID: String
    let requestor: String
    var serviceToken: String?
    var platformIdentity: String?

    /// Registers a new client for `statement` on the device `deviceID`.
    static func register(
        on rig: LoopbackRig, statement: String = "STATEMENT", requestor: String = "REF30", deviceID: String,
        serviceToken: String? = nil, platformIdentity: String? = nil
    ) async throws -> LoopbackApp {
        let tv = try await rig.registerTV(statement: statement, deviceID: deviceID)
        return LoopbackApp(
            rig: rig, bearer: tv.bearer, deviceID: deviceID, requestor: requestor,
            serviceToken: serviceToken, platformIdentity: platformIdentity)
    }

    var headers: [String: String] {
        var headers = [
            "Authorization": "Bearer \(bearer)",
            "AP-Device-Identifier": "fingerprint \(Data(deviceID.utf8).base64EncodedString())",
            "X-Device-Info": SandboxTestClient.deviceInfo,
            "Accept": "application/json",
        ]
        headers["AD-Service-Token"] = serviceToken
        headers["Adobe-Subject-Token"] = platformIdentity
        return headers
    }

    /// `POST sessions` with `mvpd` (none when `nil`), a domain and a redirect URL.
    func createSession(mvpd: String?) async throws -> LoopbackAnswer {
        var form = "domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Fapp"
        if let mvpd { form = "mvpd=\(mvpd)&" + form }
        var headers = self.headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await rig.send("POST", "/api/v2/\(requestor)/sessions", headers: headers, body: form)
    }

    /// Opens a session for `mvpd` and logs in at the MVPD login page as a program does
    /// (the `302` to the redirect URL); returns the session code.
    @discardableResult
    func login(mvpd: String, username: String = "alice", password: String = "alice123") async throws -> String {
        let session = try await createSession(mvpd: mvpd).object()
        let code = try #require(session["code"] as? String, "no login needed: \(session)")
        let answer = try await rig.send(
            "POST", "/mvpd/\(mvpd)/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "code=\(code)&username=\(username)&password=\(password)")
        guard answer.status == 302 else { throw TestFailure("login answered \(answer.status): \(answer.text)") }
        return code
    }

    /// `GET profiles`.
    func profiles() async throws -> LoopbackAnswer {
        try await rig.send("GET", "/api/v2/\(requestor)/profiles", headers: headers)
    }

    /// The `profiles` map of `GET profiles` (a `200` answer required).
    func profileMap() async throws -> [String: Any] {
        let answer = try await profiles()
        guard answer.status == 200 else { throw TestFailure("GET profiles answered \(answer.status): \(answer.text)") }
        return try answer.object().object("profiles")
    }

    /// `GET profiles/{mvpd}`.
    func profile(mvpd: String) async throws -> LoopbackAnswer {
        try await rig.send("GET", "/api/v2/\(requestor)/profiles/\(mvpd)", headers: headers)
    }

    /// `GET profiles/code/{code}`.
    func profile(code: String) async throws -> LoopbackAnswer {
        try await rig.send("GET", "/api/v2/\(requestor)/profiles/code/\(code)", headers: headers)
    }

    /// `POST decisions/authorize/{mvpd}` (or preauthorize) for `resources`.
    func decide(mvpd: String, resources: [String] = ["news"], authorize: Bool = true) async throws -> LoopbackAnswer {
        var headers = self.headers
        headers["Content-Type"] = "application/json"
        let list = resources.map { "\"\($0)\"" }.joined(separator: ",")
        return try await rig.send(
            "POST", "/api/v2/\(requestor)/decisions/\(authorize ? "authorize" : "preauthorize")/\(mvpd)",
            headers: headers, body: #"{"resources":[\#(list)]}"#)
    }

    /// `GET logout/{mvpd}`.
    func logout(mvpd: String) async throws -> LoopbackAnswer {
        try await rig.send(
            "GET", "/api/v2/\(requestor)/logout/\(mvpd)?redirectUrl=adobepass%3A%2F%2Fapp%2Flogout", headers: headers)
    }
}
