import Foundation
import Testing

@testable import PassSandbox

@Suite("Throttling")
struct SandboxThrottleTests {
    /// A world like the default one with throttling on.
    private static func throttledWorld(_ throttle: SandboxThrottle) -> SandboxWorld {
        var world = SandboxWorld.default
        world.throttle = throttle
        return world
    }

    /// A client whose registration and token were fetched before throttling was turned on.
    private static func client(
        _ throttle: SandboxThrottle, clock: SandboxClock = SandboxClock(), deviceID: String = "device-1"
    ) async throws -> SandboxTestClient {
        let sandbox = PassSandbox(world: .default, clock: clock)
        let client = try await SandboxTestClient(sandbox: sandbox, deviceID: deviceID)
        sandbox.setThrottle(throttle)
        return client
    }

    @Test func theBucketReproducesTheThrottlingPagesScenarioTable() {
        // Adobe's table: 1 request per second, burst 10; times in seconds since the first
        // request, and whether the request succeeds.
        let table: [(Double, Bool)] = [
            (0, true), (0.3, true), (0.6, true), (0.9, true), (1.2, true), (1.3, true), (1.4, true), (1.5, true),
            (1.6, true), (1.7, true), (1.8, true), (2.1, true), (2.2, true), (2.4, false), (2.6, false), (2.8, false),
            (3.1, true),
        ]
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        var bucket = TokenBucket(SandboxThrottle(requestsPerSecond: 1, burst: 10), now: start)
        for (seconds, admitted) in table {
            let taken = bucket.take(at: start.addingTimeInterval(seconds))
            #expect(taken == admitted, "at second \(seconds)")
        }
    }

    @Test func aBucketNeverHoldsMoreThanItsCapacityAndIgnoresABackwardClock() {
        let start = Date(timeIntervalSince1970: 1_000)
        var bucket = TokenBucket(capacity: 2, refillPerSecond: 1, now: start)
        let later = start.addingTimeInterval(1_000)
        let outcomes = [
            bucket.take(at: start), bucket.take(at: start), bucket.take(at: start),
            bucket.take(at: start.addingTimeInterval(-100)),  // moving the clock back earns nothing
        ]
        #expect(outcomes == [true, true, false, false])
        #expect(bucket.isFull(at: later))
        // A long pause refills to the capacity, not beyond.
        let afterPause = [bucket.take(at: later), bucket.take(at: later), bucket.take(at: later)]
        #expect(afterPause == [true, true, false])
    }

    @Test func burstThenRefusalThenRefillOnTheSandboxClock() async throws {
        let client = try await Self.client(SandboxThrottle(requestsPerSecond: 1, burst: 2))
        for _ in 0..<3 { #expect(await client.get("/api/v2/REF30/configuration").status == 200) }
        let refused = await client.get("/api/v2/REF30/configuration")
        #expect(refused.status == 429)
        #expect(refused.header("Content-Type") == "text/html")
        #expect(refused.header("Retry-After") == nil, "Adobe's sample sends no Retry-After")
        #expect(
            String(decoding: refused.body, as: UTF8.self).contains("<head><title>429 Too Many Requests</title></head>"))
        // Real time passing does nothing: the manual clock stands still.
        try await Task.sleep(nanoseconds: 1_100_000_000)
        #expect(await client.get("/api/v2/REF30/profiles").status == 429)
        client.sandbox.clock.advance(by: 1)
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
        #expect(await client.get("/api/v2/REF30/profiles").status == 429)
        #expect(client.sandbox.throttledResponseCount == 3)
        #expect(client.sandbox.requestLog.suffix(2).map(\.status) == [200, 429])
        #expect(client.sandbox.requestLog.last?.endpoint == .profiles)
    }

    @Test func aThrottledRequestHasNoEffect() async throws {
        let client = try await Self.client(SandboxThrottle(requestsPerSecond: 1, burst: 0))
        #expect(await client.get("/api/v2/REF30/configuration").status == 200)
        #expect(await client.createSession(mvpd: "TempPass").status == 429)
        client.sandbox.clock.advance(by: 1)
        // The refused session did not start the TempPass window.
        let profiles = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/TempPass"))
        #expect(profiles.object("profiles").isEmpty)
    }

    @Test func eachDeviceHasItsOwnBucket() async throws {
        let first = try await Self.client(SandboxThrottle(requestsPerSecond: 1, burst: 0))
        var second = first
        second.deviceID = "device-2"
        #expect(await first.get("/api/v2/REF30/profiles").status == 200)
        #expect(await first.get("/api/v2/REF30/profiles").status == 429)
        #expect(await second.get("/api/v2/REF30/profiles").status == 200)
        #expect(await second.get("/api/v2/REF30/profiles").status == 429)
    }

    @Test func withoutADeviceTheClientOfTheTokenIsThrottled() async throws {
        let sandbox = PassSandbox()
        let first = try await SandboxTestClient(sandbox: sandbox)
        let second = try await SandboxTestClient(sandbox: sandbox)
        sandbox.setThrottle(SandboxThrottle(requestsPerSecond: 1, burst: 0))
        func configuration(_ client: SandboxTestClient) async -> Int {
            await sandbox.respond(
                to: SandboxRequest(
                    method: "GET", path: "/api/v2/REF30/configuration",
                    headers: [("Authorization", "Bearer \(client.bearer)")])
            ).status
        }
        #expect(await configuration(first) == 200)
        #expect(await configuration(first) == 429)
        #expect(await configuration(second) == 200, "another registered client has its own bucket")
    }

    @Test func registrationAndTokenRequestsAreThrottledToo() async throws {
        let sandbox = PassSandbox(world: Self.throttledWorld(SandboxThrottle(requestsPerSecond: 1, burst: 1)))
        let credentials = try await SandboxTestClient.register(sandbox, statement: "STATEMENT")
        // In-process requests without a device or client share one bucket.
        let second = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/register",
                headers: [("Content-Type", "application/json"), ("X-Device-Info", SandboxTestClient.deviceInfo)],
                body: Array(#"{"software_statement":"STATEMENT"}"#.utf8)))
        #expect(second.status == 201)
        let third = await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/register", body: Array(#"{"software_statement":"STATEMENT"}"#.utf8)))
        #expect(third.status == 429)
        // Token requests draw from the bucket of the client they name.
        let form = Array(
            "client_id=\(credentials.clientID)&client_secret=\(credentials.secret)&grant_type=client_credentials".utf8)
        let formHeaders: [(name: String, value: String)] = [
            ("Content-Type", "application/x-www-form-urlencoded"), ("X-Device-Info", SandboxTestClient.deviceInfo),
        ]
        let token = {
            await sandbox.respond(
                to: SandboxRequest(method: "POST", path: "/o/client/token", headers: formHeaders, body: form)
            ).status
        }
        #expect(await token() == 201)
        #expect(await token() == 201)
        #expect(await token() == 429)
        // An unknown path under a throttled prefix counts as well.
        #expect(await sandbox.respond(to: SandboxRequest(method: "GET", path: "/o/client/scopes")).status == 429)
    }

    @Test func userAgentPagesAreNotThrottled() async throws {
        let client = try await Self.client(SandboxThrottle(requestsPerSecond: 1, burst: 1))
        let session = try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded"))
        let code = try #require(session.string("code"))
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
        #expect(await client.get("/api/v2/REF30/profiles").status == 429)
        for _ in 0..<5 {
            #expect(
                await client.sandbox.respond(
                    to: SandboxRequest(method: "GET", path: "/api/v2/authenticate/REF30/\(code)")
                ).status == 302)
            #expect(
                await client.sandbox.respond(
                    to: SandboxRequest(method: "GET", target: "/mvpd/NotBoarded/login?code=\(code)")
                ).status == 200)
        }
    }

    @Test func retryAfterIsSentWhenTheWorldAsksForIt() async throws {
        let client = try await Self.client(SandboxThrottle(requestsPerSecond: 0.5, burst: 0, retryAfter: 2))
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
        let refused = await client.get("/api/v2/REF30/profiles")
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "2")
        client.sandbox.clock.advance(by: 1)
        #expect(
            await client.get("/api/v2/REF30/profiles").status == 429,
            "half a request per second: one second is not enough")
        client.sandbox.clock.advance(by: 1)
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
    }

    @Test func throttlingTurnsOnAndOffAtRunTime() async throws {
        let sandbox = PassSandbox()
        #expect(sandbox.throttle == nil && sandbox.world.throttle == nil, "the default world does not throttle")
        let client = try await SandboxTestClient(sandbox: sandbox)
        for _ in 0..<50 { #expect(await client.get("/api/v2/REF30/profiles").status == 200) }
        sandbox.setThrottle(SandboxThrottle(requestsPerSecond: 1, burst: 0))
        #expect(sandbox.world.throttle == SandboxThrottle(requestsPerSecond: 1, burst: 0))
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
        #expect(await client.get("/api/v2/REF30/profiles").status == 429)
        sandbox.setThrottle(nil)
        #expect(await client.get("/api/v2/REF30/profiles").status == 200)
        #expect(sandbox.throttledResponseCount == 1)
    }

    @Test func anInjected429AnswersTheThrottlingPage() async throws {
        let client = try await SandboxTestClient()
        client.sandbox.inject(SandboxFault(status: 429, remaining: 1), into: .authorize)
        let response = await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["news"]}"#)
        #expect(response.status == 429)
        #expect(response.header("Content-Type") == "text/html")
        #expect(client.sandbox.throttledResponseCount == 0, "a fault is not the throttle")
    }

    @Test func fullBucketsAreForgottenSoMemoryStaysBounded() {
        let start = Date(timeIntervalSince1970: 1_000)
        var gate = SandboxThrottleGate(settings: SandboxThrottle(requestsPerSecond: 1, burst: 0))
        var admitted = 0
        for index in 0..<SandboxThrottleGate.minimumSweepSize where gate.admit("device \(index)", now: start) {
            admitted += 1
        }
        #expect(admitted == SandboxThrottleGate.minimumSweepSize)
        #expect(gate.trackedKeyCount == SandboxThrottleGate.minimumSweepSize)
        // A second later every earlier bucket is full again; the next new device sweeps them.
        let late = [
            gate.admit("late device", now: start.addingTimeInterval(1)),
            gate.admit("late device", now: start.addingTimeInterval(1)),
        ]
        #expect(late == [true, false])
        #expect(gate.trackedKeyCount == 1)
        #expect(gate.refusals == 1)
    }

    @Test func theWorldFileTakesAThrottle() throws {
        let base = #""softwareStatements": {"S": ["R"]}, "serviceProviders": [{"id": "R"}]"#
        let world = try SandboxWorld.load(
            from: Data(#"{\#(base), "throttle": {"requestsPerSecond": 1, "burst": 10}}"#.utf8))
        #expect(world.throttle == SandboxThrottle(requestsPerSecond: 1, burst: 10, retryAfter: nil))
        #expect(try SandboxWorld.load(from: Data("{\(base)}".utf8)).throttle == nil)
        let problems: [(String, String)] = [
            (
                #""throttle": {"requestsPerSecond": 0, "burst": 1}"#,
                "throttle.requestsPerSecond: must be a positive number"
            ),
            (#""throttle": {"requestsPerSecond": 1, "burst": -1}"#, "throttle.burst: must not be negative"),
            (
                #""throttle": {"requestsPerSecond": 1, "burst": 1, "retryAfter": 0}"#,
                "throttle.retryAfter: must be positive"
            ),
            (#""throttle": {"requestsPerSecond": 1, "burst": 1, "rate": 3}"#, "throttle.rate: unknown key"),
            (#""throttle": {"burst": 1}"#, "throttle.requestsPerSecond: required key is missing"),
        ]
        for (json, message) in problems {
            do {
                _ = try SandboxWorld.load(from: Data("{\(base), \(json)}".utf8))
                Issue.record("\(json) was accepted")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test func throttledAnswersCrossTheWireAndEachConnectionHasItsOwnBucket() async throws {
        let sandbox = PassSandbox(
            world: Self.throttledWorld(SandboxThrottle(requestsPerSecond: 1, burst: 0, retryAfter: 1)))
        let (server, _) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let port = try #require(server.port)
        let request = "POST /o/client/register HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"
        let first = try HTTPTestClient(port: port)
        first.send(request)
        #expect(await first.readResponse()?.status == 400, "admitted, then refused for its empty body")
        first.send(request)
        let refused = try #require(await first.readResponse())
        #expect(refused.status == 429)
        #expect(refused.header("Content-Type") == "text/html")
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Connection") == "keep-alive")
        #expect(refused.text.contains("<center><h1>429 Too Many Requests</h1></center>"))
        let second = try HTTPTestClient(port: port)
        second.send(request)
        #expect(await second.readResponse()?.status == 400, "another connection, another bucket")
    }
}
