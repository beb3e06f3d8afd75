import Foundation
import Testing

@testable import PassSandbox

/// The request recorder (`PASS_SANDBOX_RECORD`) that lets a separate tool check every
/// request against the published API descriptions: one JSON line per API request, and no
/// secret ever written.
@Suite("Request recorder")
struct SandboxRequestRecorderTests {
    private func lines(of path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func recordsAPIRequestsOnePerLineWithoutSecrets() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString).jsonl")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try #require(SandboxRequestRecorder(appendingTo: path))
        recorder.record(
            SandboxRequest(
                method: "POST", target: "/o/client/token?client_secret=in-the-url",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("X-Device-Info", "eyJ9")],
                body: Array("client_id=abc&client_secret=s3cr%2Bt&grant_type=client_credentials".utf8)), status: 201)
        recorder.record(
            SandboxRequest(
                method: "POST", path: "/o/client/register",
                headers: [("Content-Type", "application/json;charset=utf-8")],
                body: Array(
                    #"{"software_statement":"eyJhbGciOi.payload.signature","redirect_uri":"adobepass://ios.app"}"#.utf8)
            ), status: 201)
        recorder.record(
            SandboxRequest(
                method: "POST", path: "/api/v2/REF30/profiles/sso/Apple",
                headers: [
                    ("Authorization", "Bearer token-value"), ("AD-Service-Token", "jws.token.value"),
                    ("Adobe-Subject-Token", "other.jws"),
                    ("Content-Type", "application/x-www-form-urlencoded"),
                ],
                body: Array("SAMLResponse=PHNhbWw%2BYWxpY2U8L3NhbWw%2B".utf8)), status: 201)
        recorder.record(SandboxRequest(method: "GET", path: "/mvpd/NotBoarded/login"), status: 200)
        recorder.record(
            SandboxRequest(
                method: "POST", path: "/api/v2/REF30/sessions", headers: [("Content-Type", "text/plain")],
                body: [0xFF, 0xFE]), status: 400)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        for secret in [
            "in-the-url", "s3cr", "payload.signature", "token-value", "jws.token.value", "other.jws", "PHNhbWw",
        ] {
            #expect(!text.contains(secret), "\(secret) reached the recording")
        }
        let recorded = try lines(of: path)
        try #require(recorded.count == 4, "the page request is not recorded")
        #expect(recorded[0].string("method") == "POST")
        #expect(recorded[0].string("path") == "/o/client/token")
        #expect(recorded[0]["query"] as? [[String]] == [["client_secret", "REDACTED"]])
        #expect(recorded[0].string("body") == "client_id=abc&client_secret=REDACTED&grant_type=client_credentials")
        #expect(recorded[0].int("status") == 201)
        #expect(
            recorded[0]["headers"] as? [[String]] == [
                ["Content-Type", "application/x-www-form-urlencoded"], ["X-Device-Info", "eyJ9"],
            ])
        let registration = try #require(
            try JSONSerialization.jsonObject(with: Data((recorded[1].string("body") ?? "").utf8)) as? [String: String])
        #expect(registration == ["software_statement": "REDACTED", "redirect_uri": "adobepass://ios.app"])
        #expect(
            recorded[2]["headers"] as? [[String]] == [
                ["Authorization", "Bearer REDACTED"], ["AD-Service-Token", "REDACTED"],
                ["Adobe-Subject-Token", "REDACTED"],
                ["Content-Type", "application/x-www-form-urlencoded"],
            ])
        #expect(recorded[2].string("body") == "SAMLResponse=REDACTED")
        #expect(recorded[3].string("bodyBase64") == "//4=", "a body that is not UTF-8 is kept as Base64")

        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
    }

    @Test func aBodyThatCannotBeRedactedMemberByMemberIsReplacedWhole() throws {
        let nested = SandboxRequestRecorder.line(
            for: SandboxRequest(
                method: "POST", path: "/o/client/register", headers: [("Content-Type", "application/json")],
                body: Array(
                    #"{"software_statement":"secret-statement","extra":{"software_statement":"nested-secret"}}"#.utf8)),
            status: 400)
        #expect(!String(decoding: nested.bytes, as: UTF8.self).contains("secret-statement"))
        #expect(!String(decoding: nested.bytes, as: UTF8.self).contains("nested-secret"))
        let broken = SandboxRequestRecorder.line(
            for: SandboxRequest(
                method: "POST", path: "/o/client/register", headers: [("Content-Type", "application/json")],
                body: Array(#"{"software_statement":"secret-statement""#.utf8)), status: 400)
        #expect(!String(decoding: broken.bytes, as: UTF8.self).contains("secret-statement"))
    }
}
