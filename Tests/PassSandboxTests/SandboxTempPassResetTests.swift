import Foundation
import Testing

@testable import PassSandbox

/// `DELETE /reset-tempass/v3/reset`, as Adobe's TempPass feature page describes it: a DCR
/// access token, `requestor_id` and `mvpd_id` required, `device_id` optional (one device, or
/// all); `204`, or `400` / `401` / `403`.
@Suite("TempPass reset API")
struct SandboxTempPassResetTests {
    /// A device's basic TempPass, used up: its window started and 30 minutes passed.
    private static func usedUp(_ client: SandboxTestClient) async throws {
        _ = await client.createSession(mvpd: "TempPass")
        client.sandbox.clock.advance(by: 1_800)
        #expect(await client.get("/api/v2/REF30/profiles/TempPass").status == 403)
    }

    private static func reset(_ client: SandboxTestClient, _ query: String, bearer: String? = nil) async
        -> SandboxResponse
    {
        await client.sandbox.respond(
            to: SandboxRequest(
                method: "DELETE", target: "/reset-tempass/v3/reset?\(query)",
                headers: [("Authorization", "Bearer \(bearer ?? client.bearer)")]))
    }

    private static func authorized(_ client: SandboxTestClient) async throws -> Bool {
        let answer = try SandboxTestClient.object(
            await client.postJSON("/api/v2/REF30/decisions/authorize/TempPass", #"{"resources":["news"]}"#))
        return (answer["decisions"] as? [[String: Any]])?.first?["authorized"] as? Bool == true
    }

    @Test func aResetOfOneDeviceGivesItsNextSignInAFreshTempPass() async throws {
        let sandbox = PassSandbox()
        let tv = try await SandboxTestClient(sandbox: sandbox, deviceID: "living-room-tv")
        let other = try await SandboxTestClient(sandbox: sandbox, deviceID: "kitchen-tv")
        try await Self.usedUp(tv)
        try await Self.usedUp(other)
        #expect(try await !Self.authorized(tv))

        let response = await Self.reset(tv, "requestor_id=REF30&mvpd_id=TempPass&device_id=living-room-tv")
        #expect(response.status == 204)
        #expect(response.body.isEmpty)

        let session = try SandboxTestClient.object(await tv.createSession(mvpd: "TempPass"))
        #expect(session.string("reasonType") == "temporary")
        let fresh = try SandboxTestClient.object(await tv.get("/api/v2/REF30/profiles/TempPass")).object("profiles")
            .object("TempPass")
        #expect(fresh.int("notAfter") == sandbox.clock.now.epochMilliseconds + 1_800_000, "a new 30-minute window")
        #expect(try await Self.authorized(tv))
        #expect(try await !Self.authorized(other), "another device keeps its used-up TempPass")
    }

    @Test func aResetWithoutADeviceOrWithAllResetsEveryDeviceAndTheShownFormWorksToo() async throws {
        let sandbox = PassSandbox()
        let tv = try await SandboxTestClient(sandbox: sandbox, deviceID: "living-room-tv")
        let other = try await SandboxTestClient(sandbox: sandbox, deviceID: "kitchen-tv")
        for query in ["requestor_id=REF30&mvpd_id=TempPass", "requestor_id=REF30&mvpd_id=TempPass&device_id=all"] {
            try await Self.usedUp(tv)
            try await Self.usedUp(other)
            #expect(await Self.reset(tv, query).status == 204)
            #expect(try await Self.authorized(tv), "\(query)")
            #expect(try await Self.authorized(other), "\(query)")
        }
        // The Base64 identifier /checklist and the request log show, with or without `fingerprint `.
        let shown = Data("kitchen-tv".utf8).base64EncodedString()
        for device in [shown, "fingerprint " + shown] {
            try await Self.usedUp(other)
            #expect(
                await Self.reset(
                    tv, "requestor_id=REF30&mvpd_id=TempPass&device_id=\(SandboxEngine.formEncode(device))"
                ).status == 204)
            #expect(try await Self.authorized(other), "\(device)")
        }
    }

    @Test func refusalsSayWhatToFixAndResetNothing() async throws {
        let sandbox = PassSandbox()
        let tv = try await SandboxTestClient(sandbox: sandbox, deviceID: "living-room-tv")
        try await Self.usedUp(tv)
        let otherRequestor = try await SandboxTestClient.accessToken(sandbox, statement: "STATEMENT2")
        let cases: [(query: String, bearer: String?, status: Int, error: String)] = [
            ("mvpd_id=TempPass", nil, 400, "invalid_request"),
            ("requestor_id=REF30", nil, 400, "invalid_request"),
            ("requestor_id=&mvpd_id=TempPass", nil, 400, "invalid_request"),
            ("requestor_id=NOPE&mvpd_id=TempPass", nil, 400, "invalid_request"),
            ("requestor_id=REF30&mvpd_id=NotBoarded", nil, 400, "invalid_request"),
            ("requestor_id=REF30&mvpd_id=TempPass", "not-a-token", 401, "invalid_token"),
            ("requestor_id=REF30&mvpd_id=TempPass", otherRequestor, 403, "insufficient_scope"),
        ]
        for (query, bearer, status, error) in cases {
            let response = await Self.reset(tv, query, bearer: bearer)
            #expect(response.status == status, "\(query)")
            let body = try SandboxTestClient.object(response)
            #expect(body.string("error") == error, "\(query)")
            #expect(body.string("error_description")?.isEmpty == false, "\(query)")
            if status == 401 || status == 403 {
                #expect(
                    response.header("WWW-Authenticate")?.hasPrefix("Bearer realm=\"Adobe Pass\"") == true, "\(query)")
            }
        }
        let anonymous = await sandbox.respond(
            to: SandboxRequest(method: "DELETE", target: "/reset-tempass/v3/reset?requestor_id=REF30&mvpd_id=TempPass"))
        #expect(anonymous.status == 401)
        #expect(anonymous.header("WWW-Authenticate") == #"Bearer realm="Adobe Pass""#)
        let wrongMethod = await sandbox.respond(
            to: SandboxRequest(method: "GET", target: "/reset-tempass/v3/reset?requestor_id=REF30&mvpd_id=TempPass"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "DELETE")
        #expect(try SandboxTestClient.object(wrongMethod).string("error") == "invalid_request")
        #expect(try await !Self.authorized(tv), "no refusal reset anything")
    }

    @Test func theResetIsServedOverHTTP() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let tv = try await rig.registerTV(deviceID: "living-room-tv")
        _ = try await tv.createSession(mvpd: "TempPass")
        let answer = try await rig.send(
            "DELETE", "/reset-tempass/v3/reset?requestor_id=REF30&mvpd_id=TempPass&device_id=living-room-tv",
            headers: ["Authorization": "Bearer \(tv.bearer)"])
        #expect(answer.status == 204)
    }
}
