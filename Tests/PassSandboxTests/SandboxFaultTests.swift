import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

@Suite("Faults, request log and in-process transport")
struct SandboxFaultTests {
    /// The effect of `name` as ``everyEffectIsApplied(name:)`` injects it: no `default`, so a
    /// new effect is a compiler error here until it has a case.
    static func sample(_ name: SandboxFault.Effect.Name) -> SandboxFault.Effect {
        switch name {
        case .latency: .latency(0.01)
        case .dropConnection: .dropConnection
        case .status: .status(503)
        case .malformedBody: .malformedBody
        case .oversizedBody: .oversizedBody(bytes: 100_000)
        case .retryableDecisionErrors: .retryableDecisionErrors(resources: ["news"])
        }
    }

    /// Every effect a fault can hold is applied: each effect alone, injected into the
    /// authorization decisions of a signed-in client for one request, changes the answer as it
    /// says; the request after it is answered as usual. The cases come from
    /// `SandboxFault.Effect.Name.allCases`, and the check below names every effect.
    @Test(arguments: SandboxFault.Effect.Name.allCases)
    func everyEffectIsApplied(name: SandboxFault.Effect.Name) async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        let request = SandboxRequest(
            method: "POST", path: "/api/v2/REF30/decisions/authorize/NotBoarded",
            headers: client.headers(contentType: "application/json"), body: Array(#"{"resources":["news"]}"#.utf8))
        client.sandbox.inject(SandboxFault([Self.sample(name)], remaining: 1), into: .authorize)
        let response: SandboxResponse
        let waited: Bool
        switch client.sandbox.answerAtOnce(request) {
        case .ready(let answer): (response, waited) = (answer, false)
        case .later(let rest): (response, waited) = (await rest(), true)
        }
        #expect(waited == (name == .latency), "only a latency makes the answer wait")
        let decision = { (response: SandboxResponse) throws -> [String: Any]? in
            try SandboxTestClient.object(response)["decisions"].flatMap { ($0 as? [[String: Any]])?.first }
        }
        switch name {
        case .latency:
            #expect(try decision(response)?["authorized"] as? Bool == true)
        case .dropConnection:
            #expect(response.dropConnection)
        case .status:
            #expect(response.status == 503)
            #expect(try SandboxTestClient.object(response).string("code") == "internal_server_error")
        case .malformedBody:
            #expect(response.status == 200)
            #expect((try? JSONSerialization.jsonObject(with: Data(response.body))) == nil)
        case .oversizedBody:
            #expect(response.status == 200 && response.body.count == 100_000)
        case .retryableDecisionErrors:
            let denied = try #require(try decision(response))
            #expect(denied["authorized"] as? Bool == false)
            #expect((denied["error"] as? [String: Any])?["code"] as? String == "network_received_error")
        }
        let after = await client.sandbox.respond(to: request)
        #expect(try decision(after)?["authorized"] as? Bool == true, "the fault was used up")
    }

    @Test func effectsApplyInTheirOrderWhateverOrderTheyWereGivenIn() {
        let fault = SandboxFault([.oversizedBody(bytes: 10), .status(500), .latency(1), .status(503)], remaining: 2)
        #expect(fault.effects == [.latency(1), .status(503), .oversizedBody(bytes: 10)])
        #expect(fault == SandboxFault(latency: 1, status: 503, oversizedBody: 10, remaining: 2))
        #expect(fault.latency == 1 && SandboxFault(status: 500).latency == 0)
    }

    @Test func aStatusFaultAnswersAnEnhancedErrorWithoutSideEffects() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .createSession)
        let failed = await client.createSession(mvpd: "TempPass")
        #expect(failed.status == 503)
        let error = try SandboxTestClient.object(failed)
        #expect(error.int("status") == 503)
        #expect(error.string("code") == "internal_server_error")
        // Nothing happened: no temporary profile was created.
        #expect(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").isEmpty)
        // The fault was used up.
        #expect(await client.createSession(mvpd: "TempPass").status == 200)
    }

    @Test func dcrFaultsUseTheOAuthShape() async throws {
        let sandbox = PassSandbox()
        sandbox.inject(SandboxFault(status: 500), into: .dcrRegister)
        let response = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/register", headers: [("X-Device-Info", SandboxTestClient.deviceInfo)],
                body: Array(#"{"software_statement":"STATEMENT"}"#.utf8)))
        #expect(response.status == 500)
        #expect(try SandboxTestClient.object(response).string("error") == "server_error")
        sandbox.clearFaults()
        #expect(
            await sandbox.respond(
                to: SandboxRequest(
                    method: "POST", path: "/o/client/register",
                    headers: [("Content-Type", "application/json"), ("X-Device-Info", SandboxTestClient.deviceInfo)],
                    body: Array(#"{"software_statement":"STATEMENT"}"#.utf8))
            ).status == 201)
    }

    @Test func aMalformedBodyFaultGarblesTheJSON() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.inject(SandboxFault(malformedBody: true), into: .configuration)
        let response = await client.get("/api/v2/REF30/configuration")
        #expect(response.status == 200)
        #expect((try? JSONSerialization.jsonObject(with: Data(response.body), options: [])) == nil)
        // Other endpoints are untouched.
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
    }

    @Test func aDroppedConnectionFaultDropsAndCountsDown() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.inject(SandboxFault(dropConnection: true, remaining: 2), into: .profiles)
        #expect(await client.get("/api/v2/REF30/profiles").dropConnection)
        #expect(await client.get("/api/v2/REF30/profiles").dropConnection)
        #expect(await client.get("/api/v2/REF30/profiles").dropConnection == false)
    }

    @Test func anOversizedBodyIsWellFormedJSONOfTheGivenSize() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.inject(SandboxFault(oversizedBody: 100_000, remaining: 1), into: .configuration)
        let oversized = await client.get("/api/v2/REF30/configuration")
        #expect(oversized.status == 200)
        #expect(oversized.body.count == 100_000)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(oversized.body)) as? [String: Any])
        #expect((object["padding"] as? String)?.count == 100_000 - #"{"padding":""}"#.count)
        #expect(await client.get("/api/v2/REF30/configuration").body.count < 100_000, "the fault was used up")
    }

    @Test func latencyDelaysButStillAnswers() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.inject(SandboxFault(latency: 0.05, remaining: 1), into: .configuration)
        #expect(await client.get("/api/v2/REF30/configuration").status == 200)
    }

    @Test func theTimedTransportTimesOutOnLongLatency() async throws {
        let client = try await SandboxTestClient()
        let request = HTTPRequestMessage(
            method: "GET", url: URL(string: "http://sandbox.invalid/api/v2/REF30/configuration")!,
            headers: client.headers())
        #expect(try await client.sandbox.transport.send(request, timeout: 60).status == 200)
        client.sandbox.inject(SandboxFault(latency: 30), into: .configuration)
        await #expect(throws: TransportFailure.timedOut) {
            try await client.sandbox.transport.send(request, timeout: 0.05)
        }
        client.sandbox.inject(SandboxFault(dropConnection: true), into: .configuration)
        await #expect(throws: TransportFailure.connectionLost("The sandbox dropped the connection.")) {
            try await client.sandbox.transport.send(request, timeout: 60)
        }
    }

    @Test func theRequestLogRecordsEndpointsAndStatuses() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.clearRequestLog()
        _ = await client.get("/api/v2/REF30/configuration?profile=x")
        client.sandbox.inject(SandboxFault(dropConnection: true), into: .profiles)
        _ = await client.get("/api/v2/REF30/profiles")
        _ = await client.get("/nowhere")
        let device = Data("device-1".utf8).base64EncodedString()
        let at = client.sandbox.clock.now
        #expect(
            client.sandbox.requestLog == [
                SandboxLogEntry(
                    method: "GET", path: "/api/v2/REF30/configuration", status: 200, endpoint: .configuration, at: at,
                    device: device),
                SandboxLogEntry(
                    method: "GET", path: "/api/v2/REF30/profiles", status: 0, endpoint: .profiles, at: at,
                    device: device),
                SandboxLogEntry(method: "GET", path: "/nowhere", status: 404, endpoint: nil, at: at, device: device),
            ])
    }

    @Test func concurrentRequestsKeepTheStateConsistent() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.clearRequestLog()
        let codes = await withTaskGroup(of: String?.self) { group in
            for index in 0..<200 {
                var device = client
                device.deviceID = "device-\(index)"
                group.addTask {
                    try? SandboxTestClient.object(await device.createSession(mvpd: "NotBoarded")).string("code")
                }
            }
            var codes: [String] = []
            for await code in group { if let code { codes.append(code) } }
            return codes
        }
        #expect(codes.count == 200)
        #expect(Set(codes).count == 200)
        #expect(client.sandbox.requestLog.count == 200)
        #expect(client.sandbox.requestLog.allSatisfy { $0.status == 200 && $0.endpoint == .createSession })
    }

    @Test func theInProcessTransportBridgesTheSDKMessages() async throws {
        let client = try await SandboxTestClient()
        let transport = client.sandbox.inProcessTransport
        let request = HTTPRequestMessage(
            method: "GET",
            url: URL(
                string: "http://sandbox.invalid/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Fios.app")!,
            headers: client.headers())
        let response = try await transport.send(request, timeout: 60)
        #expect(response.status == 200)
        #expect(response.header("content-type")?.hasPrefix("application/json") == true)
        let logouts = try #require(try JSONSerialization.jsonObject(with: response.body, options: []) as? [String: Any])
        #expect((logouts["logouts"] as? [String: Any])?["NotBoarded"] != nil)

        client.sandbox.inject(SandboxFault(dropConnection: true), into: .logout)
        await #expect(throws: TransportFailure.self) { try await transport.send(request, timeout: 60) }
    }
}
