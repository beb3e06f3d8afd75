import Foundation
import Testing

@testable import PassSandbox

/// Dynamic Client Registration read as strictly as its pages describe it, over real HTTP:
/// a parameter of the wrong type, a repeated parameter, a body of another media type and a
/// missing or invalid `X-Device-Info` are refused with the documented error, never
/// silently dropped or guessed at.
@Suite("Wire conformance: DCR strictness")
struct SandboxDCRStrictnessTests {
    private let json = [("Content-Type", "application/json"), ("X-Device-Info", SandboxTestClient.deviceInfo)]
    private let form = [
        ("Content-Type", "application/x-www-form-urlencoded"), ("X-Device-Info", SandboxTestClient.deviceInfo),
    ]

    private func error(_ response: HTTPTestResponse) throws -> (code: String?, description: String?) {
        let object = try WireExchange.object(response)
        return (object.string("error"), object.string("error_description"))
    }

    @Test func registrationRefusesWhatItCannotRead() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let cases: [(body: String, headers: [(String, String)], code: String, says: String)] = [
            (#"{"software_statement":"STATEMENT","redirect_uri":42}"#, json, "invalid_redirect_uri", "redirect_uri"),
            (#"{"software_statement":"STATEMENT","redirect_uri":null}"#, json, "invalid_redirect_uri", "redirect_uri"),
            (
                #"{"software_statement":"STATEMENT","redirect_uri":"no scheme"}"#, json, "invalid_redirect_uri",
                "absolute URI"
            ),
            (
                #"{"software_statement":"STATEMENT","software_statement":"STATEMENT2"}"#, json, "invalid_request",
                "repeats the parameter \"software_statement\""
            ),
            (
                #"{"software_statement":"STATEMENT","redirect_uri":"a://b","redirect\u005furi":"c://d"}"#, json,
                "invalid_request", "repeats"
            ),
            (#"{"software_statement":["STATEMENT"]}"#, json, "invalid_software_statement", "string"),
            (#"{"software_statement":""}"#, json, "invalid_software_statement", "string"),
            (#"["STATEMENT"]"#, json, "invalid_request", "JSON object"),
            (#"{"software_statement":"STATEMENT""#, json, "invalid_request", "not valid JSON"),
            (#"{"redirect_uri":"a://b"}"#, json, "invalid_request", "software_statement"),
            ("software_statement=STATEMENT", form, "invalid_request", "application/json"),
            (
                #"{"software_statement":"STATEMENT"}"#, [("Content-Type", "application/json")], "invalid_request",
                "X-Device-Info"
            ),
        ]
        for (body, headers, code, says) in cases {
            let response = try await wire.send("POST", "/o/client/register", headers: headers, body: body)
            #expect(response.status == 400, "\(body)")
            let refusal = try error(response)
            #expect(refusal.code == code, "\(body)")
            #expect(refusal.description?.contains(says) == true, "\(body): \(refusal.description ?? "no description")")
        }
        // Unchanged: without redirect_uri, and with a charset, a registration works.
        let plain = try await wire.send(
            "POST", "/o/client/register",
            headers: [
                ("Content-Type", "application/json;charset=utf-8"), ("X-Device-Info", SandboxTestClient.deviceInfo),
            ],
            body: #"{"software_statement":"STATEMENT"}"#)
        #expect(plain.status == 201)
        #expect(try WireExchange.object(plain)["redirect_uris"] as? [String] == [])
    }

    @Test func tokenRequestsNeedAValidDeviceInfoAndOneSetOfBodyParameters() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let registered = try WireExchange.object(
            try await wire.send(
                "POST", "/o/client/register", headers: json, body: #"{"software_statement":"STATEMENT"}"#))
        let id = try #require(registered.string("client_id"))
        let secret = try #require(registered.string("client_secret"))
        let credentials = "client_id=\(id)&client_secret=\(secret)&grant_type=client_credentials"
        let invalidInfo = try encodedDeviceInfo([
            "model": "M", "version": "1", "osName": "Plan 9", "osVersion": "4", "connectionType": "LAN",
        ])
        let cases: [(target: String, headers: [(String, String)], body: String, says: String)] = [
            (
                "/o/client/token", [("Content-Type", "application/x-www-form-urlencoded")], credentials,
                "X-Device-Info header is missing"
            ),
            (
                "/o/client/token",
                [("Content-Type", "application/x-www-form-urlencoded"), ("X-Device-Info", invalidInfo)], credentials,
                "osName"
            ),
            (
                "/o/client/token", [("X-Device-Info", SandboxTestClient.deviceInfo)], credentials,
                "Content-Type header is missing"
            ),
            ("/o/client/token", form, credentials + "&client_id=\(id)", "client_id is repeated"),
            ("/o/client/token", form, "client_secret=\(secret)&grant_type=client_credentials", "client_id is required"),
            (
                "/o/client/token?client_id=\(id)&client_secret=\(secret)&grant_type=client_credentials", form, "",
                "form body, not in the URL"
            ),
            (
                "/o/client/token", form + [("Authorization", "Basic eDp5")], credentials,
                "without an Authorization header"
            ),
        ]
        for (target, headers, body, says) in cases {
            let response = try await wire.send("POST", target, headers: headers, body: body)
            #expect(response.status == 400, "\(target) \(body)")
            let refusal = try error(response)
            #expect(refusal.code == "invalid_request", "\(target) \(body)")
            #expect(refusal.description?.contains(says) == true, "\(body): \(refusal.description ?? "no description")")
        }
        // An empty value counts as omitted, and parameters the endpoint does not define are
        // ignored, repeated or not: the right request still gets its token.
        let issued = try await wire.send(
            "POST", "/o/client/token", headers: form, body: credentials + "&scope=&extra=1&extra=2")
        #expect(issued.status == 201)
        #expect(try WireExchange.object(issued).string("access_token")?.isEmpty == false)
    }
}
