import Foundation
import Testing

@testable import PassSandbox

@Suite("Date header, device information on registration, expiring registrations and bounded tables")
struct SandboxLifetimeTests {
    private static func register(_ sandbox: PassSandbox, deviceInfo: String?) async -> SandboxResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if let deviceInfo { headers.append(("X-Device-Info", deviceInfo)) }
        return await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/register", headers: headers,
                body: Array(#"{"software_statement":"STATEMENT"}"#.utf8)))
    }

    private static func base64(_ json: String) -> String { Data(json.utf8).base64EncodedString() }

    // MARK: Date

    @Test func everyAnswerIsDatedByTheSandboxClock() async throws {
        let client = try await SandboxTestClient()
        // The manual clock starts at 2026-01-01T00:00:00Z, a Thursday.
        #expect(await client.get("/api/v2/REF30/configuration").header("Date") == "Thu, 01 Jan 2026 00:00:00 GMT")
        client.sandbox.clock.advance(by: 86_400 + 3_661.9)
        for target in ["/api/v2/REF30/configuration", "/api/v2/REF30/nothing-here", "/mvpd/NotBoarded/login?code=X"] {
            #expect(await client.get(target).header("Date") == "Fri, 02 Jan 2026 01:01:01 GMT", "\(target)")
        }
        client.sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .profiles)
        #expect(await client.get("/api/v2/REF30/profiles").header("Date") == "Fri, 02 Jan 2026 01:01:01 GMT")
    }

    @Test func theDateCrossesTheWireUnchanged() async throws {
        let sandbox = PassSandbox()
        let (server, _) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let client = try HTTPTestClient(port: try #require(server.port))
        client.send(httpGet("/api/v2/REF30/configuration"))
        let response = try #require(await client.readResponse())
        #expect(response.status == 401)
        #expect(response.header("Date") == "Thu, 01 Jan 2026 00:00:00 GMT", "the sandbox clock, not the wall clock")
        #expect(response.headers.filter { $0.name == "Date" }.count == 1)
    }

    // MARK: X-Device-Info on registration

    @Test func registrationChecksTheDeviceInformation() async throws {
        let sandbox = PassSandbox()
        let cases: [(String?, String)] = [
            (nil, "X-Device-Info: The X-Device-Info header is missing."),
            ("not base64", "X-Device-Info: Expected a Base64-encoded JSON object."),
            (Self.base64("[1]"), "X-Device-Info: Expected a Base64-encoded JSON object."),
            (
                Self.base64(#"{"model":"PC","version":"1","osName":"Linux","connectionType":"LAN"}"#),
                #"X-Device-Info: The required key "osVersion" is missing."#
            ),
            (
                Self.base64(#"{"model":"","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN"}"#),
                #"X-Device-Info: The required key "model" is empty."#
            ),
            (
                Self.base64(#"{"model":"PC","version":"1","osName":"Solaris","osVersion":"6","connectionType":"LAN"}"#),
                #"X-Device-Info: "osName" must be one of the documented values"#
            ),
            (
                Self.base64(
                    #"{"model":"PC","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN","primaryHardwareType":"Toaster"}"#
                ),
                #"X-Device-Info: "primaryHardwareType" must be one of the documented values"#
            ),
            (
                Self.base64(
                    #"{"model":"PC","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN","connectionSecure":"maybe"}"#
                ),
                #"X-Device-Info: "connectionSecure" must be true or false, not "maybe"."#
            ),
        ]
        for (header, description) in cases {
            let response = await Self.register(sandbox, deviceInfo: header)
            #expect(response.status == 400)
            let body = try SandboxTestClient.object(response)
            #expect(body.string("error") == "invalid_request", "DCR's documented error shape")
            #expect(
                body.string("error_description")?.hasPrefix(description) == true,
                "\(body.string("error_description") ?? "none")")
        }
        let minimal = Self.base64(
            #"{"model":"PC","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN","connectionSecure":true}"#
        )
        #expect(await Self.register(sandbox, deviceInfo: minimal).status == 201)
        #expect(await Self.register(sandbox, deviceInfo: SandboxTestClient.deviceInfo).status == 201)
    }

    @Test func restCallsCheckTheDeviceInformationTheSameWay() async throws {
        var client = try await SandboxTestClient()
        let bad = Self.base64(#"{"model":"PC","version":"1","osName":"BeOS","osVersion":"5","connectionType":"LAN"}"#)
        let response = await client.sandbox.respond(
            to: SandboxRequest(
                method: "GET", path: "/api/v2/REF30/profiles",
                headers: [
                    ("Authorization", "Bearer \(client.bearer)"),
                    ("AP-Device-Identifier", "fingerprint \(Data(client.deviceID.utf8).base64EncodedString())"),
                    ("X-Device-Info", bad),
                ]))
        #expect(response.status == 400)
        let error = try SandboxTestClient.object(response)
        #expect(error.string("code") == "invalid_header_device_info")
        #expect(error.string("details")?.contains("osName") == true)
        client.deviceID = "device-2"
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
    }

    // MARK: Expiry

    @Test func registrationsExpireAfterTheirTTL() async throws {
        var world = SandboxWorld.default
        world.registrationTTL = 600
        let sandbox = PassSandbox(world: world)
        let credentials = try await SandboxTestClient.register(sandbox, statement: "STATEMENT")
        let token = { () async -> SandboxResponse in
            await sandbox.respond(
                to: SandboxRequest(
                    method: "POST", path: "/o/client/token",
                    headers: [
                        ("Content-Type", "application/x-www-form-urlencoded"),
                        ("X-Device-Info", SandboxTestClient.deviceInfo),
                    ],
                    body: Array(
                        "client_id=\(credentials.clientID)&client_secret=\(credentials.secret)&grant_type=client_credentials"
                            .utf8)))
        }
        #expect(await token().status == 201)
        sandbox.clock.advance(by: 599)
        #expect(await token().status == 201)
        sandbox.clock.advance(by: 1)
        let expired = await token()
        #expect(expired.status == 400)
        #expect(try SandboxTestClient.object(expired).string("error") == "invalid_client")
        #expect(try SandboxTestClient.object(expired).string("error_description")?.contains("register again") == true)
        // Registering again works at once.
        #expect(try await SandboxTestClient.register(sandbox, statement: "STATEMENT").clientID.isEmpty == false)
        #expect(SandboxWorld.default.registrationTTL == 31_536_000)
    }

    @Test func endedTokensSessionsAndSAMLRequestsAreForgotten() async throws {
        let sandbox = PassSandbox()
        let client = try await SandboxTestClient(sandbox: sandbox)
        _ = await client.createSession(mvpd: "NotBoarded")
        _ = await client.postForm(
            "/api/v2/REF30/sessions/sso/Apple", "domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Fios.app",
            partnerStatus: SandboxTestClient.partnerStatus(expiresAt: sandbox.clock.now.addingTimeInterval(3_600)))
        let tables = {
            sandbox.withEngine {
                ($0.accessTokens.count, $0.sessions.count, $0.pendingSAMLRequests.count, $0.registrations.count)
            }
        }
        #expect(tables() == (1, 1, 1, 1))
        sandbox.clock.advance(by: 1_800)  // sessions and SAML requests end
        _ = await client.get("/api/v2/REF30/configuration")
        // An ended session is remembered a day longer, so its late code is told "expired".
        #expect(tables() == (1, 1, 0, 1))
        sandbox.clock.advance(by: 86_400)  // the access token ends, the session is forgotten
        #expect(await client.get("/api/v2/REF30/configuration").status == 401)
        #expect(tables() == (0, 0, 0, 1))
    }

    @Test func theExpiryQueueSweepsABoundedNumberAndKeepsTablesWithinTheirLimit() {
        let start = Date(timeIntervalSince1970: 0)
        var table: Set<Int> = []
        var queue = ExpiryQueue<Int>()
        for key in 0..<100 {
            table.insert(key)
            queue.append(key, expiresAt: start.addingTimeInterval(Double(key)))
        }
        // At second 50, entries 0…50 are due, but one sweep removes at most 8.
        queue.sweep(now: start.addingTimeInterval(50), expiredBudget: 8, capacity: 1_000, tableCount: { table.count }) {
            table.remove($0)
        }
        #expect(table.count == 92 && table.min() == 8)
        // Over capacity, the oldest go even though they are not due.
        queue.sweep(now: start, expiredBudget: 8, capacity: 10, tableCount: { table.count }) { table.remove($0) }
        #expect(table.count == 10 && table.min() == 90)
        // Keys the table dropped early still leave the queue, which stays within twice the limit.
        var small = ExpiryQueue<Int>()
        for key in 0..<1_000 { small.append(key, expiresAt: .distantFuture) }
        small.sweep(now: start, expiredBudget: 8, capacity: 100, tableCount: { 0 }) { _ in }
        #expect(small.count == 200)
    }

    @Test func profilesOfExpiredOrForgottenClientsAreSwept() async throws {
        let sandbox = PassSandbox()
        let kept = try await SandboxTestClient(sandbox: sandbox, deviceID: "kept")
        _ = try await kept.login(mvpd: "NotBoarded")
        let gone = try await SandboxTestClient(sandbox: sandbox, deviceID: "gone")
        _ = try await gone.login(mvpd: "NotBoarded")
        _ = await gone.createSession(mvpd: "TempPass")
        let goneDevice = Data("gone".utf8).base64EncodedString()
        let goneClient = try #require(
            sandbox.withEngine { $0.profiles.keys.first { $0.deviceID == goneDevice }?.clientID })
        sandbox.withEngine { engine in
            // The client of "gone" is no longer registered; its profiles cannot be reached.
            engine.registrations[goneClient] = nil
            engine.sweepProfiles(now: sandbox.clock.now)
            #expect(engine.profiles.count == 1)
            engine.sweepProfiles(now: sandbox.clock.now.addingTimeInterval(86_400))
            #expect(engine.profiles.isEmpty, "expired profiles go too")
        }
    }
}
